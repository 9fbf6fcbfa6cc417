// One rule, one place: the tools `budget`/`audit` say serve would always load are the ones serve marks.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadHintRules, summarizeLoadHints } from '../../src/core/hints/summary.js';
import { createTokenCounter } from '../../src/core/tokens/index.js';
import { buildServedView } from '../../src/serve/served-view.js';
import { countingWith } from '../../src/serve/deps.js';
import type { ServeConfig, ServerSnapshot, UsageStats } from '../../src/core/types.js';
import { fixture } from '../helpers/paths.js';

describe('load hints: serve and budget agree', () => {
  it('marks exactly the summarized tools alwaysLoad, pins and opt-outs included', async () => {
    const servers = (
      JSON.parse(readFileSync(fixture('snapshots', 'replay-demo.json'), 'utf8')) as { servers: ServerSnapshot[] }
    ).servers;
    const ids = servers.flatMap((s) => s.tools.map((t) => `${s.name}.${t.name}`));
    const usage: UsageStats = { tools: {} };
    ids.forEach(
      (id, i) => (usage.tools[id] = { success: (i * 7) % 13, failure: 0, lastUsed: 1000 + i, categories: {} }),
    );
    const [pinServer, pinTool] = ids[ids.length - 1]!.split('.') as [string, string];
    const [offServer, offTool] = ids.find((id) => (usage.tools[id]?.success ?? 0) === 12)!.split('.') as [
      string,
      string,
    ];
    const config: ServeConfig = {
      servers: { [pinServer]: { pin: [pinTool] }, [offServer]: { noHints: [offTool] } },
      loadHints: { maxTools: 4, coverage: 1 },
    };
    const counter = await createTokenCounter('o200k_base');
    const { deps } = countingWith(counter);
    const rules = loadHintRules(config)!;
    const view = buildServedView({
      servers,
      mode: 'tools',
      level: 'full',
      config,
      rules: { filters: new Map(), serve: config },
      limit: 1_000_000,
      usage,
      activated: [],
      key: 'mcp-smart',
      deps,
      hints: rules,
    });
    const marked = view.tools
      .filter((t) => (t.definition._meta as Record<string, unknown> | undefined)?.['anthropic/alwaysLoad'] === true)
      .map((t) => t.entry!.id)
      .sort();
    const summary = summarizeLoadHints(servers, config, usage, rules, {
      tool: deps.countTool,
      text: (t) => counter.count(t),
    });
    expect(marked).toEqual(summary.alwaysLoad.map((t) => t.id).sort());
    expect(marked).toContain(`${pinServer}.${pinTool}`);
    expect(marked).not.toContain(`${offServer}.${offTool}`);
    expect(marked).toHaveLength(5);
  });
});
