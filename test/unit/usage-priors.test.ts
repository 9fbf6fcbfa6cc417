import { describe, expect, it } from 'vitest';
import { buildDiscoverIndex, DEFAULT_WEIGHTS, toolRefsFromSnapshots } from '../../src/core/discover/index.js';
import { usagePriors } from '../../src/core/discover/signals.js';
import { usagePrior } from '../../src/core/discover/usage.js';
import type { ServerSnapshot, UsageStats } from '../../src/core/types.js';

// usagePriors looks up only the tools the store knows when it knows fewer than the index holds (find_tool's ranking
// spent more time on every tool's lookup than on the rest); both paths must give every tool usagePrior's total.
const tools = (names: string[]): ServerSnapshot['tools'] =>
  names.map((name) => ({ name, description: `${name} things`, inputSchema: { type: 'object' } }));
const index = buildDiscoverIndex(
  toolRefsFromSnapshots([
    { name: 'files', transport: 'stdio', status: 'ok', tools: tools(['read', 'write', 'list', 'move']) },
    { name: 'web', transport: 'stdio', status: 'ok', tools: tools(['fetch', 'post']) },
  ]),
);
const weights = DEFAULT_WEIGHTS.usage;
const NOW = 30 * 86_400_000;
const expected = (usage: UsageStats): number[] =>
  index.tools.map((t) => Math.fround(usagePrior(usage.tools[t.id], 'file_operation', weights, NOW).total));

describe('usagePriors', () => {
  it('scores only the tools a small store knows, each as usagePrior does, the rest 0, ignoring unknown ids', () => {
    const usage: UsageStats = {
      tools: {
        'files.write': { success: 9, failure: 1, lastUsed: NOW - 86_400_000, categories: { file_operation: 9 } },
        'web.post': { success: 1, failure: 4, lastUsed: NOW - 20 * 86_400_000, categories: { web_request: 1 } },
        'gone.tool': { success: 5, failure: 0, lastUsed: NOW, categories: {} },
      },
    };
    // Garbage from a previous ranking in the reused buffer must not survive.
    const out = usagePriors(index, usage, 'file_operation', weights, NOW, new Float32Array(index.tools.length).fill(7));
    expect([...out]).toEqual(expected(usage));
    expect(out.filter((x) => x !== 0)).toHaveLength(2);
  });

  it('gives the same totals when the store knows as many tools as the index (every tool looked up)', () => {
    const usage: UsageStats = { tools: {} };
    index.tools.forEach((t, i) => {
      usage.tools[t.id] = { success: i + 1, failure: i % 2, lastUsed: NOW - i * 86_400_000, categories: { other: i } };
    });
    const out = usagePriors(index, usage, 'file_operation', weights, NOW);
    expect([...out]).toEqual(expected(usage));
    expect(out.every((x) => x > 0)).toBe(true);
  });
});
