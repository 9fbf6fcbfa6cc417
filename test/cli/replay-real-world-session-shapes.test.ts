// Replay on real-world recording shapes (fixtures/session-shapes) against a snapshot whose server names hold '.' and '__'.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const SNAP = fixture('session-shapes', 'snapshot.json');
const SHAPES = fixture('session-shapes');
const tmp = (): string => tempDir('mcp-smart-qa2-replay-');
const env = (cwd: string): Record<string, string> => ({
  NO_COLOR: '1',
  MCP_SMART_CACHE_DIR: join(cwd, 'cache'),
  MCP_SMART_DATA_DIR: join(cwd, 'data'),
});
const replay = (cwd: string, ...args: string[]) =>
  runCli(['--snapshot', SNAP, '--json', 'replay', SHAPES, ...args], { cwd, env: env(cwd) });

describe('replay on real-world shapes', () => {
  it('resolves every recorded call and reports per-server figures under the real server names', async () => {
    const cwd = tmp();
    const r = await replay(cwd);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      cases: 4,
      sessions: 2,
      unknownTools: [],
      unknownCalls: 0,
      turnsWithoutCalls: 0,
      problems: [],
    });
    const hybrid = doc.engines.find((e: { engine: string }) => e.engine === 'hybrid');
    expect(hybrid.perServer.map((s: { server: string; expected: number }) => [s.server, s.expected])).toEqual([
      ['acme.docs', 1],
      ['filesystem', 2],
      ['github.com/modelcontextprotocol/servers/tree/main/src/filesystem', 2],
      ['memory', 1],
      ['sequential-thinking', 1],
      ['team__kb', 1],
    ]);
  });

  it('--learn twice counts each case once; a corrupt store is moved aside with a warning', async () => {
    const cwd = tmp();
    const store = join(cwd, 'usage.json');
    const first = JSON.parse((await replay(cwd, '--learn', '--store', store, '--ttl-days', '0')).stdout);
    expect(first.learned).toMatchObject({ cases: 4, alreadyLearned: 0 });
    const doc = JSON.parse(readFileSync(store, 'utf8'));
    expect(doc.tools['team__kb.lookup__page']).toMatchObject({ success: 0, failure: 1 });
    expect(doc.tools['acme.docs.search_docs']).toMatchObject({ success: 1, failure: 0 });
    const second = JSON.parse((await replay(cwd, '--learn', '--store', store, '--ttl-days', '0')).stdout);
    expect(second.learned).toMatchObject({ cases: 0, alreadyLearned: 4 });
    expect(JSON.parse(readFileSync(store, 'utf8')).tools).toEqual(doc.tools);

    writeFileSync(store, '{"format": "mcp-smart/usage@1", "tools": {');
    const third = await replay(cwd, '--learn', '--store', store, '--ttl-days', '0');
    expect(third.code).toBe(0);
    expect(third.stderr).toMatch(/usage store .*usage\.json is unreadable.*moved it to .*usage\.json\.corrupt-/);
    expect(JSON.parse(third.stdout).learned).toMatchObject({ cases: 4, alreadyLearned: 0 });
    expect(readdirSync(cwd).filter((f) => f.startsWith('usage.json.corrupt-'))).toHaveLength(1);
  });

  it('--min-recall gates on hybrid Recall@5 (exit 1 below, 0 at or above)', async () => {
    const cwd = tmp();
    const base = JSON.parse((await replay(cwd)).stdout);
    const r5 = base.engines.find((e: { engine: string }) => e.engine === 'hybrid').recallAt['5'];
    expect((await replay(cwd, '--min-recall', String(r5))).code).toBe(0);
    const high = await replay(cwd, '--min-recall', String(Math.min(1, r5 + 0.01)));
    expect(high.code).toBe(1);
    expect(JSON.parse(high.stdout).minRecall).toMatchObject({ actual: r5, passed: false });
  });
});
