// The one-statement write for answers that wait for their commit (PostgresUsageStore.addNow, postgres-increment.ts)
// against a real PostgreSQL: it adds exactly what the full write (add) adds — tools, categories, remembered intents,
// per-user and per-project counts — and the memory rules it leaves (the per-tool cap on remembered intents) are
// applied by tidy. A batch the database refuses is written by the full write instead, tool by tool.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyUsage, MAX_INTENTS_PER_TOOL, recordCalls } from '../../src/core/session/usage.js';
import { userUsageOf } from '../../src/core/session/users.js';
import { PostgresUsageStore } from '../../src/core/store/postgres.js';
import type { UsageStats } from '../../src/core/types.js';
import { PG_PASSWORD, startPostgres, type PgServer } from '../helpers/postgres.js';

// An hour ago: no time in the future, which the full write would clamp to the database's clock at once.
const NOW = Date.now() - 3_600_000;
let pg: PgServer;
const stores: PostgresUsageStore[] = [];

beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  for (const s of stores) await s.close();
  await pg?.stop();
});

async function store(name: string): Promise<PostgresUsageStore> {
  const url = new URL(await pg.createDatabase(name));
  url.password = PG_PASSWORD;
  const s = new PostgresUsageStore(url.toString(), name);
  stores.push(s);
  await s.open({ createDatabase: true });
  return s;
}

/** A batch: calls of three tools, some failed, two of them with an intent remembered. */
function batch(intents: number): UsageStats {
  const u = emptyUsage();
  recordCalls(u, [{ id: 'a.echo', ok: true, known: true, latencyMs: 3 }], 'search', NOW);
  recordCalls(u, [{ id: 'a.echo', ok: false, known: true, latencyMs: 5 }], 'other', NOW + 1);
  recordCalls(u, [{ id: 'b.note', ok: true, known: true, latencyMs: 7 }], 'write', NOW + 2, 'write a note');
  for (let i = 0; i < intents; i++)
    recordCalls(u, [{ id: 'c.find', ok: true, known: true, latencyMs: 1 }], 'search', NOW + 3 + i, `find thing ${i}`);
  return u;
}

const tables = async (db: string): Promise<Record<string, unknown[]>> => {
  const out: Record<string, unknown[]> = {};
  for (const [t, order] of [
    ['mcp_smart_tools', 'tool_id'],
    ['mcp_smart_categories', 'tool_id, category'],
    ['mcp_smart_intents', 'tool_id, key'],
    ['mcp_smart_user_tools', 'user_label, tool_id'],
    ['mcp_smart_project_tools', 'project_key, tool_id'],
  ] as const) {
    const rows = await pg.query(db, `SELECT * FROM ${t} ORDER BY ${order}`);
    out[t] = rows.map(({ seq: _seq, ...r }) => r);
  }
  return out;
};

describe('PostgresUsageStore.addNow', () => {
  it('adds what the full write adds, twice over (increments), in one statement', async () => {
    const full = await store('full');
    const now = await store('now');
    for (let round = 0; round < 2; round++) {
      const b = batch(2);
      const users = { ...userUsageOf(b, 'alice') };
      await full.add(b, { now: NOW, users, project: 'proj' });
      expect(await now.addNow(b, { now: NOW, users, project: 'proj' })).toEqual({ warnings: [] });
    }
    const expected = await tables('full');
    expect((expected.mcp_smart_tools as { success: number }[]).map((r) => r.success)).toEqual([2, 2, 4]);
    expect(expected.mcp_smart_intents).toHaveLength(3);
    expect(expected.mcp_smart_user_tools).toHaveLength(3);
    expect(expected.mcp_smart_project_tools).toHaveLength(3);
    expect(await tables('now')).toEqual(expected);
  });

  it('leaves the per-tool cap on remembered intents to tidy, which applies it as the full write does', async () => {
    const full = await store('capfull');
    const now = await store('capnow');
    const b = batch(MAX_INTENTS_PER_TOOL + 6);
    await full.add(b, { now: NOW });
    await now.addNow(b, { now: NOW });
    const count = async (db: string) =>
      Number((await pg.query(db, "SELECT count(*) AS n FROM mcp_smart_intents WHERE tool_id = 'c.find'"))[0]!.n);
    // recordCalls caps the batch itself; the store's cap applies across batches: a second batch of new intents.
    const more = emptyUsage();
    for (let i = 0; i < 10; i++)
      recordCalls(more, [{ id: 'c.find', ok: true, known: true, latencyMs: 1 }], 'search', NOW + 100 + i, `new ${i}`);
    await full.add(more, { now: NOW });
    await now.addNow(more, { now: NOW });
    expect(await count('capfull')).toBe(MAX_INTENTS_PER_TOOL);
    expect(await count('capnow')).toBeGreaterThan(MAX_INTENTS_PER_TOOL);
    await now.tidy();
    expect(await tables('capnow')).toEqual(await tables('capfull'));
  });

  it('a batch the database refuses is written tool by tool: the good tool is kept, the refusal said', async () => {
    const s = await store('refused');
    await pg.query('refused', "ALTER TABLE mcp_smart_tools ADD CONSTRAINT no_bad CHECK (tool_id <> 'z.bad')");
    const b = batch(0);
    recordCalls(b, [{ id: 'z.bad', ok: true, known: true, latencyMs: 1 }], 'other', NOW);
    const { warnings } = await s.addNow(b, { now: NOW });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^1 learned call\(s\) of "z\.bad" were not written: /);
    const rows = await pg.query('refused', 'SELECT tool_id, success FROM mcp_smart_tools ORDER BY tool_id');
    expect(rows.map((r) => [r.tool_id, Number(r.success)])).toEqual([
      ['a.echo', 1],
      ['b.note', 1],
    ]);
  });
});
