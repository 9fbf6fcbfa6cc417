// bench:cold — issue 29's start-up figures on the 2,781 tools of servers-111, each beside its baseline in the same
// run: a cold `discover` (a new process, the index cache already written), the first `discover` (an empty cache
// folder: parse, index, write the caches; beside it the CLI's own start and three floors, bench/helpers/first-floor.mjs,
// first-bytes.mjs and first-index-floor.mjs)
// and a warm `serve --mode meta` to its first tools/list answer and to its first find_tool answer, interleaved with
// `node -e ""`, medians of BENCH_COLD_ROUNDS (default 15) rounds; and the hybrid ranking find_tool runs, p50 over the
// 200 servers-111 questions and commands after one warm-up pass; then the cold serve case
// (bench/helpers/serve-cold.mjs). Runs against dist/.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, DATA, loadServers111 } from './helpers/datasets.mjs';
import { INITIALIZE } from './helpers/raw-stdio.mjs';
import { buildDiscoverIndex, loadShippedWordVectors, rankTools } from '../dist/core/discover/index.js';
import { serveCold } from './helpers/serve-cold.mjs';
import { writeScriptVariants } from './helpers/script-variants.mjs';

const ROUNDS = Number(process.env.BENCH_COLD_ROUNDS ?? 15);
// BENCH_COLD_PART=serve: only the cold serve case (fresh HOME, 4 and 50 servers; bench/helpers/serve-cold.mjs).
// BENCH_COLD_PART=first: only the first discover (empty cache folder) beside `node -e ""`. BENCH_COLD_SCRIPTS=1: also
// on the same tools described in Cyrillic and in Chinese (bench/helpers/script-variants.mjs), each ÷ the
// English first discover of the same rounds (text outside English should cost about what English does).
if (process.env.BENCH_COLD_PART === 'serve') {
  await serveCold(
    { REPO, base: process.env.BENCH_COLD_BASE, rounds: Number(process.env.BENCH_COLD_SERVE_ROUNDS ?? 7) },
    console.log,
  );
  process.exit(0);
}
const pct = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)];
const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-cold-'));
const env = {
  ...process.env,
  NO_COLOR: '1',
  HOME: dir,
  MCP_SMART_CACHE_DIR: join(dir, 'cache'),
  MCP_SMART_DATA_DIR: join(dir, 'data'),
};
const snapshot = join(DATA, 'servers-111', 'catalog.snapshot.json');
// NODE_EXTRA_CA_CERTS makes every Node start read and parse that CA file: `node -e ""` took 112–147 ms with it and
// 34–58 ms without it on a machine that sets it for every process (RESULTS, session 27), far more than it adds to a
// discover. Where it is set, the first discover's part also times node and this tree without it.
const { NODE_EXTRA_CA_CERTS: caFile, ...envWithoutCa } = env;
const timed = (args, runEnv = env) => {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: dir, env: runEnv, timeout: 60_000 });
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status}: ${String(r.stderr).split('\n')[0]}`);
  return performance.now() - t;
};
const discoverWith = (repo, snap = snapshot) => [
  join(repo, 'bin', 'mcp-smart.js'),
  '--snapshot',
  snap,
  'discover',
  'what meetings do I have tomorrow',
];
const discover = discoverWith(REPO);
// The first discover (what a user's first run and every CI run see): a new, empty cache folder for every run, so
// the snapshot is parsed and the index built; its caches are written as on a real first run (after the answer).
// Timed to the answer (the first bytes on stdout) and to the exit.
let fresh = 0;
const firstRun = (repo, snap = snapshot, runEnv = env) =>
  new Promise((resolve, reject) => {
    const cache = join(dir, `first-${fresh++}`);
    const t = performance.now();
    let answer;
    let err = '';
    const child = spawn(process.execPath, discoverWith(repo, snap), {
      cwd: dir,
      env: { ...runEnv, MCP_SMART_CACHE_DIR: cache, MCP_SMART_DATA_DIR: join(cache, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', () => (answer ??= performance.now() - t));
    child.stderr.on('data', (d) => (err += d));
    child.once('error', reject);
    child.once('close', (code) => {
      const exit = performance.now() - t;
      rmSync(cache, { recursive: true, force: true });
      if (code !== 0) reject(new Error(`first discover: exit ${code}: ${err.split('\n')[0]}`));
      else resolve({ answer, exit });
    });
  });
// `serve --mode meta` from the snapshot: spawn → initialize → initialized → tools/list answered, raw JSON-RPC over
// stdio (no client library on the clock). The snapshot's servers have no definitions here, so none is started.
const serveArgs = (repo) => [join(repo, 'bin', 'mcp-smart.js'), '--snapshot', snapshot, 'serve', '--mode', 'meta'];
const initialize = INITIALIZE;
const serveToList = (args) =>
  new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd: dir, env, stdio: ['pipe', 'pipe', 'ignore'] });
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += String(d);
      if (buf.includes('"id":1') && !buf.includes('"id":2')) {
        child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
        child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) + '\n');
      } else if (buf.includes('"id":2')) {
        const wall = performance.now() - t0;
        buf = '';
        child.stdin.end();
        child.once('exit', () => resolve(wall));
        setTimeout(() => child.kill(), 5000).unref();
      }
    });
    child.once('error', reject);
    child.stdin.write(JSON.stringify(initialize) + '\n');
  });
// The same start, then one find_tool answered (spawn → initialize → tools/list → find_tool), warm caches: the first
// search a client makes after serve starts. `linger` keeps serve up a while after the answer (the warm-up runs let
// it write its caches).
const FIND_INTENT = 'what meetings do I have tomorrow';
const serveToFind = (args, linger = 0) =>
  new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd: dir, env, stdio: ['pipe', 'pipe', 'ignore'] });
    const send = (m) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += String(d);
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const m = JSON.parse(buf.slice(0, i));
        buf = buf.slice(i + 1);
        if (m.id === 1) {
          send({ method: 'notifications/initialized' });
          send({ id: 2, method: 'tools/list' });
        } else if (m.id === 2)
          send({ id: 3, method: 'tools/call', params: { name: 'find_tool', arguments: { intent: FIND_INTENT } } });
        else if (m.id === 3) {
          const wall = performance.now() - t0;
          if (m.error || m.result?.isError) reject(new Error(`find_tool failed: ${JSON.stringify(m).slice(0, 200)}`));
          setTimeout(() => child.stdin.end(), linger);
          child.once('exit', () => resolve(wall));
          setTimeout(() => child.kill(), linger + 5000).unref();
        }
      }
    });
    child.once('error', reject);
    send(initialize);
  });
// BENCH_COLD_BASE: another checkout (built) whose cold discover is interleaved too, the named baseline of a change.
const baseRepo = process.env.BENCH_COLD_BASE;
/** The first discover's rounds, interleaved with `node -e ""` (and the base's, with BENCH_COLD_BASE); printed. */
async function firstDiscover(rounds) {
  const node = [];
  const floor = [];
  const bytes = [];
  const indexFloor = [];
  const start = [];
  const runs = [[REPO, []]];
  if (baseRepo) runs.push([baseRepo, []]);
  const variants = process.env.BENCH_COLD_SCRIPTS ? Object.entries(writeScriptVariants(snapshot, dir)) : [];
  const scripts = runs.map(() => variants.map(() => []));
  const withoutCa = { node: [], exit: [] };
  for (let i = 0; i < rounds; i++) {
    node.push(timed(['-e', '']));
    if (caFile !== undefined) {
      withoutCa.node.push(timed(['-e', ''], envWithoutCa));
      withoutCa.exit.push((await firstRun(REPO, snapshot, envWithoutCa)).exit);
    }
    floor.push(timed([join(REPO, 'bench', 'helpers', 'first-floor.mjs'), snapshot]));
    bytes.push(timed([join(REPO, 'bench', 'helpers', 'first-bytes.mjs'), snapshot]));
    indexFloor.push(timed([join(REPO, 'bench', 'helpers', 'first-index-floor.mjs'), snapshot]));
    // The CLI's own start with an empty cache folder (no compiled code kept): what every first run pays before it reads.
    start.push(
      timed([join(REPO, 'bin', 'mcp-smart.js'), '--version'], {
        ...env,
        MCP_SMART_CACHE_DIR: join(dir, `start-${fresh++}`),
      }),
    );
    for (const [r, [repo, out]] of runs.entries()) {
      out.push(await firstRun(repo));
      for (const [v, [, file]] of variants.entries()) scripts[r][v].push(await firstRun(repo, file));
    }
  }
  const n50 = pct(node, 0.5);
  const f50 = pct(floor, 0.5);
  const b50 = pct(bytes, 0.5);
  const i50 = pct(indexFloor, 0.5);
  const s50 = pct(start, 0.5);
  console.log(`first discover on 2,781 tools (empty cache folder), node -e "" p50 ${n50.toFixed(0)} ms (goal ≤ 4×):`);
  console.log(
    `  floor (bench/helpers/first-floor.mjs: JSON.parse + a regex word count per tool, no index): p50 ${f50.toFixed(0)} ms ${(f50 / n50).toFixed(1)}×`,
  );
  console.log(
    `  byte scan (bench/helpers/first-bytes.mjs: the bytes once, words hashed, no string per word, no structure): p50 ${b50.toFixed(0)} ms ${(b50 / n50).toFixed(1)}×`,
  );
  console.log(
    `  index floor (bench/helpers/first-index-floor.mjs: the byte scan of the texts ranked, a string per distinct word, the product's SIF sums; no BM25, no ranking): p50 ${i50.toFixed(0)} ms ${(i50 / n50).toFixed(1)}×`,
  );
  console.log(
    `  the CLI's start (mcp-smart --version, empty cache folder): p50 ${s50.toFixed(0)} ms ${(s50 / n50).toFixed(1)}×; with the index floor's work beyond node's start: ${(s50 + i50 - n50).toFixed(0)} ms ${((s50 + i50 - n50) / n50).toFixed(1)}×`,
  );
  if (caFile !== undefined) {
    const wn = pct(withoutCa.node, 0.5);
    const we = pct(withoutCa.exit, 0.5);
    console.log(
      `  NODE_EXTRA_CA_CERTS is set (every Node start reads it); without it: node -e "" p50 ${wn.toFixed(0)} ms, this tree's exit p50 ${we.toFixed(0)} ms ${(we / wn).toFixed(1)}×`,
    );
  }
  for (const [repo, out] of runs) {
    const a50 = pct(
      out.map((r) => r.answer),
      0.5,
    );
    const e50 = pct(
      out.map((r) => r.exit),
      0.5,
    );
    console.log(
      `  ${repo === REPO ? 'this tree' : repo}: answer p50 ${a50.toFixed(0)} ms ${(a50 / n50).toFixed(1)}×, exit (caches written) p50 ${e50.toFixed(0)} ms ${(e50 / n50).toFixed(1)}×`,
    );
    for (const [v, [name]] of variants.entries()) {
      const v50 = pct(
        scripts[runs.findIndex(([r]) => r === repo)][v].map((r) => r.exit),
        0.5,
      );
      console.log(
        `    the same tools described ${name === 'cyrillic' ? 'in Cyrillic' : 'in Chinese'}: exit p50 ${v50.toFixed(0)} ms, ${(v50 / e50).toFixed(2)}× the English one's`,
      );
    }
  }
}
if (process.env.BENCH_COLD_PART === 'first') {
  try {
    console.log(`node ${process.version}; ${new Date().toISOString()}; ${ROUNDS} rounds`);
    await firstDiscover(ROUNDS);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(0);
}
try {
  const first = timed(discover); // writes the index cache
  if (baseRepo) timed(discoverWith(baseRepo));
  await serveToList(serveArgs(REPO)); // warms serve's caches
  if (baseRepo) await serveToList(serveArgs(baseRepo));
  for (let i = 0; i < 2; i++) {
    await serveToFind(serveArgs(REPO), 1000); // writes the index and count caches
    if (baseRepo) await serveToFind(serveArgs(baseRepo), 1000);
  }
  const node = [];
  const cold = [];
  const base = [];
  const served = [];
  const servedBase = [];
  const found = [];
  const foundBase = [];
  for (let i = 0; i < ROUNDS; i++) {
    node.push(timed(['-e', '']));
    cold.push(timed(discover));
    if (baseRepo) base.push(timed(discoverWith(baseRepo)));
    served.push(await serveToList(serveArgs(REPO)));
    if (baseRepo) servedBase.push(await serveToList(serveArgs(baseRepo)));
    found.push(await serveToFind(serveArgs(REPO)));
    if (baseRepo) foundBase.push(await serveToFind(serveArgs(baseRepo)));
  }
  const n50 = pct(node, 0.5);
  const c50 = pct(cold, 0.5);
  console.log(`node ${process.version}; ${new Date().toISOString()}; ${ROUNDS} rounds`);
  console.log(
    `cold discover on 2,781 tools (cache written; first run ${first.toFixed(0)} ms): p50 ${c50.toFixed(0)} ms, node -e "" p50 ${n50.toFixed(0)} ms: ${(c50 / n50).toFixed(1)}× (goal ≤ 4×)`,
  );
  if (baseRepo)
    console.log(
      `  the same on ${baseRepo}: p50 ${pct(base, 0.5).toFixed(0)} ms: ${(pct(base, 0.5) / n50).toFixed(1)}×`,
    );
  const s50 = pct(served, 0.5);
  console.log(
    `serve --mode meta on 2,781 tools, spawn → tools/list answered (warm): p50 ${s50.toFixed(0)} ms: ${(s50 / n50).toFixed(1)}× (goal ≤ 4×)`,
  );
  if (baseRepo)
    console.log(
      `  the same on ${baseRepo}: p50 ${pct(servedBase, 0.5).toFixed(0)} ms: ${(pct(servedBase, 0.5) / n50).toFixed(1)}×`,
    );
  const f50 = pct(found, 0.5);
  console.log(
    `serve --mode meta on 2,781 tools, spawn → first find_tool answered (warm): p50 ${f50.toFixed(0)} ms: ${(f50 / n50).toFixed(1)}×; cold discover ${c50.toFixed(0)} ms`,
  );
  if (baseRepo)
    console.log(
      `  the same on ${baseRepo}: p50 ${pct(foundBase, 0.5).toFixed(0)} ms: ${(pct(foundBase, 0.5) / n50).toFixed(1)}×`,
    );

  await firstDiscover(ROUNDS);

  // The ranking find_tool runs (hybrid, k 5) on the same catalogue, in process.
  const s = loadServers111();
  const intents = [
    ...loadServers111('servers-111-questions.jsonl').cases,
    ...loadServers111('servers-111-commands.jsonl').cases,
  ].map((c) => c.intent);
  const engines = [['this tree', { buildDiscoverIndex, loadShippedWordVectors, rankTools }]];
  if (baseRepo) engines.push([baseRepo, await import(join(baseRepo, 'dist', 'core', 'discover', 'index.js'))]);
  const runs = [];
  for (const [, m] of engines) {
    const index = m.buildDiscoverIndex(s.tools, { vectors: await m.loadShippedWordVectors() });
    for (const q of intents) m.rankTools(index, q, { engine: 'hybrid', k: 5 }); // warm-up pass
    runs.push({ m, index, times: [] });
  }
  // Interleaved per intent, so that the machine's load weighs on both alike.
  for (const q of intents)
    for (const r of runs) {
      const t = performance.now();
      r.m.rankTools(r.index, q, { engine: 'hybrid', k: 5 });
      r.times.push(performance.now() - t);
    }
  runs.forEach((r, i) =>
    console.log(
      `find_tool's ranking on 2,781 tools (${engines[i][0]}): p50 ${pct(r.times, 0.5).toFixed(3)} ms, p95 ${pct(r.times, 0.95).toFixed(3)} ms over ${intents.length} intents (goal p50 ≤ 0.6 ms)`,
    ),
  );
  await serveCold(
    { REPO, base: process.env.BENCH_COLD_BASE, rounds: Number(process.env.BENCH_COLD_SERVE_ROUNDS ?? 7) },
    console.log,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
