// bench:learn-commit — what waiting for the learned row costs (issue 38: "nothing lost on SIGKILL"). One
// `serve --transport http --mode tools` with a real PostgreSQL store, `echo` calls from 2026-07-28 wire clients:
// this build (answers wait for their learned call's group commit) against an earlier build given as its repository
// folder (`node bench/learn-commit.mjs /work/main`: its bin/ and dist/, and node_modules beside), alternated
// BENCH_COMMIT_ROUNDS times (default 2) so drift on a shared machine hits both alike. Per build: p50/p99 of one
// client calling back to back and of BENCH_COMMIT_CLIENTS (default 20) concurrent clients; each run ends with a
// SIGKILL the moment its last answer arrives, then the store's learned calls against the calls answered. Then this
// build with the database stopped: answers must not wait for a store that is down.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PG_PASSWORD, startPostgresIn } from '../test/helpers/postgres-server.mjs';
import { postModernCall } from '../test/helpers/modern-call.mjs';
import { REPO } from './helpers/datasets.mjs';
import { scratchEnv, writeTinyConfig } from './helpers/scratch.mjs';

const BEFORE = process.argv[2] ? resolve(process.argv[2]) : undefined;
const ROUNDS = Number(process.env.BENCH_COMMIT_ROUNDS ?? 2);
const CLIENTS = Number(process.env.BENCH_COMMIT_CLIENTS ?? 20);
const SEQ = Number(process.env.BENCH_COMMIT_SEQUENTIAL ?? 300);
const CONC = Number(process.env.BENCH_COMMIT_CONCURRENT ?? 2000);
if (!BEFORE) {
  console.error('usage: node bench/learn-commit.mjs <folder of an earlier build to compare with, e.g. /work/main>');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-commit-'));
const env = scratchEnv(dir, { PGPASSWORD: PG_PASSWORD });
const config = writeTinyConfig(join(dir, 'servers.json'));
const pct = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] : NaN;
};

function startServe(repo, db) {
  const args = [join(repo, 'bin', 'mcp-smart.js'), 'serve', '--transport', 'http', '--mode', 'tools', '--store', db];
  const child = spawn(process.execPath, [...args, '--config', config], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise((r) => child.once('exit', r));
  return new Promise((ok, fail) => {
    const timer = setInterval(() => {
      const m = /listening on (http:\/\/[\d.:]+\/mcp)/.exec(err);
      if (m) {
        clearInterval(timer);
        ok({ url: m[1], stderr: () => err, kill: () => (child.kill('SIGKILL'), exited) });
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        fail(new Error(`serve exited: ${err}`));
      }
    }, 25);
  });
}

/** `calls` echo calls from `clients` clients; the latency of each answered one; how many were answered. */
async function load(url, clients, calls) {
  const lat = [];
  let next = 0;
  let answered = 0;
  const worker = async () => {
    for (let i = next++; i < calls; i = next++) {
      const t0 = performance.now();
      const m = await postModernCall(url, { name: 'echo', arguments: { message: `m${i}` } }, { client: 'b' });
      if (m.result && !m.result.isError) {
        answered++;
        lat.push(performance.now() - t0);
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, worker));
  return { lat, answered };
}

const learned = async (pg, db) =>
  (await pg.query(db, 'SELECT success FROM mcp_smart_tools')).reduce((n, r) => n + Number(r.success), 0);

const pg = await startPostgresIn(mkdtempSync(join(dir, 'pg-')));
const started = new Date().toISOString();
const load0 = loadavg()[0].toFixed(1);
const rows = [];
let dbs = 0;
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label, repo] of [
      ['this build', REPO],
      [`earlier build (${BEFORE})`, BEFORE],
    ]) {
      const name = `b${dbs++}`;
      const db = await pg.createDatabase(name);
      const serve = await startServe(repo, db);
      // Warm up: the server behind started, the store's tables made.
      await load(serve.url, 1, 20);
      const seq = await load(serve.url, 1, SEQ);
      const conc = await load(serve.url, CLIENTS, CONC);
      await serve.kill();
      const stored = await learned(pg, name);
      rows.push({ label, seq, conc, answered: 20 + seq.answered + conc.answered, stored });
    }
  }
  // The store down: answers must not wait for it (after the first failed write, none waits).
  const db = await pg.createDatabase('down');
  const serve = await startServe(REPO, db);
  await load(serve.url, 1, 20);
  await pg.pause();
  const down = await load(serve.url, 1, SEQ);
  await serve.kill();
  await pg.start();

  const f = (xs) => `${pct(xs, 0.5).toFixed(2)} / ${pct(xs, 0.99).toFixed(2)} ms`;
  console.log(`bench:learn-commit — ${started}, node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? '?'}`);
  console.log(`load average at start ${load0}, at end ${loadavg()[0].toFixed(1)} (a shared machine)`);
  console.log(`earlier build: ${BEFORE}; ${SEQ} calls back to back, then ${CONC} calls from ${CLIENTS} clients`);
  console.log('| build | 1 client p50 / p99 | concurrent p50 / p99 | answered | learned after SIGKILL |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const r of rows)
    console.log(`| ${r.label} | ${f(r.seq.lat)} | ${f(r.conc.lat)} | ${r.answered} | ${r.stored} |`);
  const of = (prefix, part) => rows.filter((r) => r.label.startsWith(prefix)).flatMap((r) => r[part].lat);
  for (const part of ['seq', 'conc'])
    console.log(
      `added p50 (${part === 'seq' ? '1 client' : `${CLIENTS} clients`}, all rounds): ${(pct(of('this', part), 0.5) - pct(of('earlier', part), 0.5)).toFixed(2)} ms; p99 ${(pct(of('this', part), 0.99) - pct(of('earlier', part), 0.99)).toFixed(2)} ms`,
    );
  console.log(`this build, database stopped: 1 client p50 / p99 ${f(down.lat)} (${down.answered} answered)`);
} finally {
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
