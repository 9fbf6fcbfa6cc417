// bench:store-write — what an answer waiting for its learned call's commit waits for (issue 38): the full write
// (PostgresUsageStore.add: a transaction of upserts, then the clamp of future times, counts and the TTL cap —
// about ten round trips) against the one-statement write serve now uses for waiting answers (addNow: one round
// trip; the rest runs later, beside the answers, as tidy). One real PostgreSQL, this build's dist/, BENCH_WRITES
// (default 300) writes of one learned call each, back to back, the two alternated in blocks of 50 so drift on a
// shared machine hits both alike; p50/p99 per write.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PG_PASSWORD, startPostgresIn } from '../test/helpers/postgres-server.mjs';
import { PostgresUsageStore } from '../dist/core/store/postgres.js';
import { emptyUsage, recordCalls } from '../dist/core/session/usage.js';

const WRITES = Number(process.env.BENCH_WRITES ?? 300);
const BLOCK = 50;
const pct = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
};
const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-store-write-'));
const pg = await startPostgresIn(mkdtempSync(join(dir, 'pg-')));
const started = new Date().toISOString();
const load0 = loadavg()[0].toFixed(1);
try {
  const open = async (name) => {
    const url = new URL(await pg.createDatabase(name));
    url.password = PG_PASSWORD;
    const s = new PostgresUsageStore(url.toString(), name);
    await s.open({ createDatabase: true });
    return s;
  };
  const stores = { full: await open('full'), single: await open('single') };
  const lat = { full: [], single: [] };
  const write = (kind, i) => {
    const u = emptyUsage();
    recordCalls(u, [{ id: `tiny.echo${i % 5}`, ok: true, known: true, latencyMs: 2 }], 'other', Date.now());
    const opts = { now: Date.now(), users: {}, project: 'bench' };
    return kind === 'full' ? stores.full.add(u, opts) : stores.single.addNow(u, opts);
  };
  for (const kind of ['full', 'single']) for (let i = 0; i < 20; i++) await write(kind, i); // warm up
  for (let done = 0; done < WRITES; done += BLOCK)
    for (const kind of ['full', 'single'])
      for (let i = 0; i < BLOCK; i++) {
        const t0 = performance.now();
        await write(kind, i);
        lat[kind].push(performance.now() - t0);
      }
  await stores.single.tidy();
  const rows = async (db) => (await pg.query(db, 'SELECT sum(success)::int AS n FROM mcp_smart_tools'))[0].n;
  console.log(`bench:store-write — ${started}, node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? '?'}`);
  console.log(`load average at start ${load0}, at end ${loadavg()[0].toFixed(1)} (a shared machine)`);
  const f = (xs) => `${pct(xs, 0.5).toFixed(2)} / ${pct(xs, 0.99).toFixed(2)} ms`;
  console.log(`full write (add), p50 / p99: ${f(lat.full)}; ${await rows('full')} calls stored`);
  console.log(`one statement (addNow), p50 / p99: ${f(lat.single)}; ${await rows('single')} calls stored`);
  for (const s of Object.values(stores)) await s.close();
} finally {
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
