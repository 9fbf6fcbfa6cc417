// budget and audit show what serve's load hints would be, from the same usage store, by the same rule.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const SNAP = fixture('snapshots', 'replay-demo.json');

describe('load hints in budget and audit', () => {
  it('name the always-loaded tools and their cost; both commands agree; none without a store', async () => {
    const cwd = tempDir('mcp-smart-load-hints-');
    const env = { NO_COLOR: '1', MCP_SMART_CACHE_DIR: join(cwd, 'cache'), MCP_SMART_DATA_DIR: join(cwd, 'data') };
    const none = await runCli(['--snapshot', SNAP, '--json', 'budget', '--max', '200000'], { cwd, env });
    expect(JSON.parse(none.stdout).loadHints).toBeUndefined();
    await runCli(['--snapshot', SNAP, 'replay', fixture('sessions'), '--learn', '--ttl-days', '0'], { cwd, env });
    const budget = JSON.parse(
      (await runCli(['--snapshot', SNAP, '--json', 'budget', '--max', '200000'], { cwd, env })).stdout,
    );
    const audit = JSON.parse((await runCli(['--snapshot', SNAP, '--json', 'audit'], { cwd, env })).stdout);
    expect(budget.loadHints).toEqual(audit.loadHints);
    const h = budget.loadHints;
    expect(h.alwaysLoad.map((t: { id: string }) => t.id)).toEqual([
      'filesystem.read_text_file',
      'filesystem.edit_file',
      'filesystem.list_directory',
      'sequential-thinking.sequentialthinking',
      'memory.search_nodes',
    ]);
    expect(h.alwaysLoadTokens).toBe(1377);
    expect(h.alwaysLoadTokens).toBe(h.alwaysLoad.reduce((n: number, t: { tokens: number }) => n + t.tokens, 0));
    expect(h.alwaysLoad.every((t: { calls: number }) => t.calls > 0)).toBe(true);
    expect(h.searchHints).toBe(32);
    const table = await runCli(['--snapshot', SNAP, 'budget', '--max', '200000'], { cwd, env });
    expect(table.stdout).toContain('Load hints (serve, tools mode): always loaded: filesystem.read_text_file (185)');
  });
});
