// bench:tokload — the tokenizer's load (issue 40), per build, beside `node -e ""`, interleaved in one run:
//   probe   a process loading the build's counter as serve does (bench/helpers/tokload-probe.mjs): time to the first
//           count, in-process and as the process's wall time, the longest event-loop block, and RSS after
//   worker  the same probe with the counter loaded and counting in a worker_thread (the main thread only waits)
//   serve   `mcp-smart serve` of the tiny fixture catalog, empty cache: after its first tools/list it loads the
//           tokenizer to count the tools; a client pings it every 10 ms meanwhile: the slowest ping's answer
//   audit   `mcp-smart --demo audit --json` (the four demo servers) and `mcp-smart --snapshot many-tools.json audit
//           --json` (no servers: 77 tools to count), each with an empty cache folder: wall time
// Each build is a folder holding bin/mcp-smart.js and dist/ (e.g. a copy of an earlier dist/ beside a bin/ inside
// this tree, so that node_modules resolves). Counts must agree across builds (checked; a difference stops the run).
// Usage: node bench/tokload.mjs [label=folder ...]   (default: this tree)
//   BENCH_TOKLOAD_RUNS (default 7) rounds; BENCH_TOKLOAD_ENCODING (default o200k_base); BENCH_TOKLOAD_AUDIT=0 skips
//   the audits, BENCH_TOKLOAD_WORKER=0 the worker probe,
//   BENCH_TOKLOAD_SERVE=0 the serve pings.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { REPO } from './helpers/datasets.mjs';
import { startRaw } from './helpers/raw-stdio.mjs';
import { scratchEnv, writeTinyConfig } from './helpers/scratch.mjs';

const RUNS = Number(process.env.BENCH_TOKLOAD_RUNS ?? 7);
const ENCODING = process.env.BENCH_TOKLOAD_ENCODING ?? 'o200k_base';
const AUDIT = process.env.BENCH_TOKLOAD_AUDIT !== '0';
const WORKER = process.env.BENCH_TOKLOAD_WORKER !== '0';
const SERVE = process.env.BENCH_TOKLOAD_SERVE !== '0';

/** The slowest ping answer of a serve loading its tokenizer after the first tools/list (see the top). */
async function servePings(dir, scratch) {
  const config = writeTinyConfig(join(scratch, 'tiny.json'));
  const env = scratchEnv(join(scratch, 'serve'));
  const serve = startRaw(process.execPath, [join(dir, 'bin', 'mcp-smart.js'), 'serve', '--config', config], { env });
  try {
    await serve.open();
    await serve.request('tools/list', {});
    const pinger = serve.pinger(10);
    const deadline = Date.now() + 60_000;
    // serve's summary line comes once the tools are counted, the tokenizer loaded.
    while (!/tools\/list holds \d+ tools? \(/.test(serve.stderr())) {
      if (Date.now() > deadline) throw new Error(`serve printed no summary line in 60 s:\n${serve.stderr()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 200));
    return (await pinger.stop()).worstMs;
  } finally {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
}
const PROBE = join(REPO, 'bench', 'helpers', 'tokload-probe.mjs');
const SNAPSHOT = join(REPO, 'fixtures', 'snapshots', 'many-tools.json');
const builds = (process.argv.slice(2).length ? process.argv.slice(2) : [`this=${REPO}`]).map((a) => {
  const [label, dir] = a.split('=');
  return { label, dir: resolve(dir) };
});

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => x.toFixed(x < 10 ? 1 : 0);

function timed(args, env) {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

const results = new Map(); // `${label} ${measure}` → numbers
const add = (key, v) => results.set(key, [...(results.get(key) ?? []), v]);
const seen = new Map(); // measure → first build's output, for the equality check
function same(measure, label, out) {
  if (!seen.has(measure)) seen.set(measure, { label, out });
  else if (seen.get(measure).out !== out)
    throw new Error(`${label} and ${seen.get(measure).label} differ on ${measure}`);
}

const loads = [loadavg()[0]];
for (let round = 0; round < RUNS; round++) {
  add('node -e ""', timed(['-e', '']).ms);
  for (const { label, dir } of builds) {
    const scratch = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-tokload-'));
    try {
      const probe = timed([PROBE, dir, ENCODING, join(scratch, 'counts')], process.env);
      const p = JSON.parse(probe.stdout);
      same('probe count', label, String(p.count));
      add(`${label} first count, process`, probe.ms);
      add(`${label} first count, in process`, p.firstCountMs);
      add(`${label} longest event-loop block`, p.maxBlockMs);
      add(`${label} RSS after`, p.rssMB);
      if (WORKER) {
        const w = JSON.parse(timed([PROBE, dir, ENCODING, join(scratch, 'counts-w'), 'worker'], process.env).stdout);
        same('probe count', label, String(w.count));
        add(`${label} in a worker: first count, in process`, w.firstCountMs);
        add(`${label} in a worker: longest event-loop block`, w.maxBlockMs);
        add(`${label} in a worker: RSS after`, w.rssMB);
      }
      if (SERVE) add(`${label} serve: slowest ping while it loads`, await servePings(dir, scratch));
      if (AUDIT) {
        for (const [name, args] of [
          ['--demo audit', ['--demo', 'audit']],
          ['snapshot audit', ['--snapshot', SNAPSHOT, 'audit']],
        ]) {
          const cache = join(scratch, name.replace(/\W/g, ''));
          const env = scratchEnv(cache);
          const r = timed([join(dir, 'bin', 'mcp-smart.js'), ...args, '--encoding', ENCODING, '--json'], env);
          const doc = JSON.parse(r.stdout);
          same(name, label, JSON.stringify(doc.totals));
          add(`${label} ${name}, empty cache`, r.ms);
        }
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  loads.push(loadavg()[0]);
}

const node = median(results.get('node -e ""'));
console.log(`bench:tokload ${ENCODING}, ${RUNS} rounds, medians; load ${loads.map((l) => l.toFixed(2)).join(' → ')}`);
console.log(execFileSync('uptime', { encoding: 'utf8' }).trim());
console.log('| measure | ms (or MB) | × node -e "" |');
console.log('| --- | --- | --- |');
for (const [key, xs] of results) {
  const m = median(xs);
  const ratio = /RSS|block|ping/.test(key) ? '' : `${(m / node).toFixed(2)}×`;
  console.log(`| ${key} | ${fmt(m)} (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}) | ${ratio} |`);
}
