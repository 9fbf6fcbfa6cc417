// Issue 41, class 2: one usage time in the future must not wipe a store. A store holding 870 calls on 3 tools takes
// an import (and a recorded session) dated 2999; on the file store and on a real PostgreSQL every call stays, the
// future time is clamped to the writer's (the database's) clock and reported, and a cap that really applies forgets
// at most half the store in one write, saying so.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileUsageStore } from '../../src/core/store/file.js';
import { PostgresUsageStore } from '../../src/core/store/postgres.js';
import type { UsageStore } from '../../src/core/store/types.js';
import { connectionString } from '../../src/core/store/url.js';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { PG_PASSWORD, startPostgres, teamStoreEnv, type PgServer } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';

const DAY = 86_400_000;
const tmp = (): string => tempDir('mcp-smart-future-');
const cli = (cwd: string, args: string[]) => runCli(args, { cwd, env: teamStoreEnv(cwd) });

interface Tool {
  success: number;
  failure: number;
  lastUsed: number;
  categories: Record<string, number>;
}
const storeDoc = (tools: Record<string, Tool>) => ({
  format: 'mcp-smart/usage@1',
  updatedAt: new Date().toISOString(),
  tools,
  intents: {},
  sessions: {},
});
const tool = (success: number, lastUsed: number): Tool => ({ success, failure: 0, lastUsed, categories: {} });
/** 870 calls on 3 tools, used in the last days. */
const team = (now: number) =>
  storeDoc({ 'gh.search': tool(500, now - DAY), 'fs.read': tool(300, now - 2 * DAY), 'db.query': tool(70, now - DAY) });
const YEAR_2999 = Date.UTC(2999, 0, 1);
const SNAP = fixture('snapshots', 'replay-demo.json');
const RECORDING = fixture('sessions', 'claude-code', '-home-dev-notes', '266a5fe3-3c45-45fb-a718-c4174216b47f.jsonl');

let pg: PgServer;
let dbs = 0;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await pg?.stop();
});

/** The store's tools and total calls, read back through `store export`. */
async function exported(cwd: string, store: string): Promise<{ tools: Record<string, Tool>; calls: number }> {
  const out = join(cwd, `export-${Math.random().toString(36).slice(2)}.json`);
  const r = await cli(cwd, ['store', 'export', out, '--store', store]);
  expect(r.code, r.stderr).toBe(0);
  const tools = JSON.parse(readFileSync(out, 'utf8')).tools as Record<string, Tool>;
  return { tools, calls: Object.values(tools).reduce((n, t) => n + t.success + t.failure, 0) };
}

describe.each(['file', 'postgres'] as const)('a future date in the %s store', (kind) => {
  async function seeded(cwd: string, doc: object): Promise<string> {
    const seed = join(cwd, 'seed.json');
    writeFileSync(seed, JSON.stringify(doc));
    if (kind === 'file') return seed;
    const url = await pg.createDatabase(`future${++dbs}`);
    expect((await cli(cwd, ['store', 'import', seed, '--store', url])).code).toBe(0);
    return url;
  }

  it('an imported row dated 2999, then a capped write: all 870 calls of the other tools stay, clamped and reported', async () => {
    const cwd = tmp();
    const now = Date.now();
    const store = await seeded(cwd, team(now));
    const bad = join(cwd, 'from-the-future.json');
    writeFileSync(bad, JSON.stringify(storeDoc({ 'x.future': tool(1, YEAR_2999) })));
    const imp = await cli(cwd, ['store', 'import', bad, '--store', store]);
    expect(imp.code, imp.stderr).toBe(0);
    // A later ordinary write with a 30-day cap (replay --learn of an unmodified recording) repeats nothing.
    const rec = join(cwd, 'rec', 'claude-code', '-home-dev-notes');
    mkdirSync(rec, { recursive: true });
    writeFileSync(join(rec, 's.jsonl'), readFileSync(RECORDING, 'utf8'));
    const learn = await cli(cwd, [
      '--snapshot',
      SNAP,
      'replay',
      join(cwd, 'rec'),
      '--learn',
      '--store',
      store,
      '--ttl-days',
      '30',
    ]);
    expect(learn.code, learn.stderr).toBe(0);
    const after = await exported(cwd, store);
    const calls = (ids: string[]) => ids.map((id) => after.tools[id]?.success ?? 0);
    expect(calls(['gh.search', 'fs.read', 'db.query', 'x.future'])).toEqual([500, 300, 70, 1]);
    // Clamped to the writer's clock on the way in, and said.
    expect(imp.stderr).toMatch(/1 usage time was later than (this machine's|the database's) clock \(up to 2999-01-01/);
    expect(after.tools['x.future']!.lastUsed).toBeLessThanOrEqual(Date.now());
    expect(after.tools['x.future']!.lastUsed).toBeGreaterThanOrEqual(now - 60_000);
  });

  it('a recording dated 2999 learned by replay --learn keeps every call of the other tools', async () => {
    const cwd = tmp();
    const now = Date.now();
    const store = await seeded(cwd, team(now));
    // A real Claude Code recording with every timestamp moved to 2999.
    const rec = join(cwd, 'rec', 'claude-code', '-home-dev-notes');
    mkdirSync(rec, { recursive: true });
    writeFileSync(join(rec, 's.jsonl'), readFileSync(RECORDING, 'utf8').replace(/"20\d\d-/g, '"2999-'));
    const r = await cli(cwd, ['--snapshot', SNAP, 'replay', join(cwd, 'rec'), '--learn', '--store', store]);
    expect(r.code, r.stderr).toBe(0);
    const after = await exported(cwd, store);
    for (const [id, t] of Object.entries(team(now).tools)) expect(after.tools[id]?.success).toBe(t.success);
    expect(r.stderr).toMatch(/later than (this machine's|the database's) clock \(up to 2999-/);
    for (const t of Object.values(after.tools)) expect(t.lastUsed).toBeLessThanOrEqual(Date.now());
  });

  it('a cap that applies forgets at most half the store in one write (the oldest), and says so', async () => {
    const cwd = tmp();
    const now = Date.now();
    // Six tools: one used now, five last used 200 days ago (past a 90-day cap measured from the newest).
    const tools: Record<string, Tool> = { 'a.fresh': tool(5, now) };
    for (let i = 1; i <= 5; i++) tools[`old.t${i}`] = tool(10 * i, now - 200 * DAY - i * 1000);
    const where = await seeded(cwd, storeDoc(tools));
    const store: UsageStore =
      kind === 'file'
        ? new FileUsageStore(where)
        : new PostgresUsageStore(connectionString(where, { PGPASSWORD: PG_PASSWORD }), 'pg');
    try {
      const w = await store.add({ tools: { 'a.fresh': tool(1, now) } }, { now, memory: { ttlDays: 90 } });
      expect({ before: w.before, after: w.tools }).toEqual({ before: 6, after: 3 });
      expect(w.warnings).toContain(
        "the retention cap forgot 3 of 6 tools in this write and kept 2 more that are past it (one write forgets at most 50% of a store); check the store's times with `mcp-smart store export`",
      );
      // The oldest three (t5, t4, t3) went; the next write takes the next share.
      const next = await store.add({ tools: { 'a.fresh': tool(1, now) } }, { now, memory: { ttlDays: 90 } });
      expect({ before: next.before, after: next.tools }).toEqual({ before: 3, after: 2 });
      expect(Object.keys((await store.read(now)).doc.tools).sort()).toEqual(['a.fresh', 'old.t1']);
    } finally {
      await store.close();
    }
  });
});
