// bench:http — memory of `mcp-smart serve --transport http` under requests that open no session (issue 30): the
// JS heap in use after a full garbage collection (what is retained; read through a SIGUSR2 hook preloaded with
// NODE_OPTIONS, the bench's own file) and the resident set (VmRSS, Linux) of the serve process, before and after
// N POSTs, one third each of a 2025 tools/list
// without Mcp-Session-Id, a 2025 notification without one, and a stateless 2026-07-28 tools/list; then M 2025
// sessions opened and abandoned. The baseline is another build of mcp-smart run the same way in the same run, e.g.
// main before the fix:
//   git archive main | tar -x -C "$B" && ln -s "$PWD/node_modules" "$B/node_modules" && (cd "$B" && npx tsc -p tsconfig.json)
//   node bench/http-sessionless.mjs --baseline "$B"
// BENCH_HTTP_REQUESTS (default 15000, a multiple of 3) and BENCH_HTTP_SESSIONS (default 1500) scale the run.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './helpers/datasets.mjs';
import { scratchEnv, writeTinyConfig } from './helpers/scratch.mjs';

const REQUESTS = Number(process.env.BENCH_HTTP_REQUESTS ?? 15_000);
const SESSIONS = Number(process.env.BENCH_HTTP_SESSIONS ?? 1_500);
const at = process.argv.indexOf('--baseline');
const targets = [...(at > 0 ? [{ label: `baseline (${process.argv[at + 1]})`, repo: process.argv[at + 1] }] : [])];
targets.push({ label: 'this build', repo: REPO });

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-http-'));
const config = join(dir, 'servers.json');
writeTinyConfig(config);
// Preloaded into serve: on SIGUSR2, collect garbage twice and append the heap in use (KB) to GC_OUT.
const hook = join(dir, 'gc-hook.cjs');
writeFileSync(
  hook,
  `process.on('SIGUSR2', () => { gc(); gc(); require('fs').appendFileSync(process.env.GC_OUT, Math.round(process.memoryUsage().heapUsed / 1024) + '\\n'); });`,
);
const env = scratchEnv(dir, { NODE_OPTIONS: `--expose-gc --require ${hook}` });
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const BASE = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const KINDS = [
  [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, BASE],
  [{ jsonrpc: '2.0', method: 'notifications/initialized' }, BASE],
  [
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: ENVELOPE } },
    { ...BASE, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
  ],
];
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
};

/** Heap in use after a full collection, in KB: asks the hook and waits for its line. */
async function heapKb(child, file) {
  const before = existsSync(file) ? readFileSync(file, 'utf8').split('\n').length : 0;
  child.kill('SIGUSR2');
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
    if (lines.length > before) return Number(lines.at(-2));
  }
}
const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
const mb = (kb) => `${(kb / 1024).toFixed(1)} MB`;

async function post(url, body, headers) {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return res.status;
}

async function measure({ label, repo }) {
  const data = mkdtempSync(join(dir, 'data-'));
  const gcOut = join(data, 'heap.txt');
  const child = spawn(
    process.execPath,
    [
      join(repo, 'bin', 'mcp-smart.js'),
      'serve',
      '--transport',
      'http',
      '--config',
      config,
      '--mode',
      'meta',
      '--no-learn',
    ],
    { env: { ...env, MCP_SMART_DATA_DIR: data, GC_OUT: gcOut }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  const url = await new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += String(d);
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  for (let i = 0; i < 300; i++) await post(url, ...KINDS[i % 3]);
  const heap = [await heapKb(child, gcOut)];
  const start = rssKb(child.pid);
  const t0 = performance.now();
  for (let i = 0; i < REQUESTS; i++) await post(url, ...KINDS[i % 3]);
  const seconds = (performance.now() - t0) / 1000;
  const afterRequests = rssKb(child.pid);
  heap.push(await heapKb(child, gcOut));
  for (let i = 0; i < SESSIONS; i++) await post(url, INITIALIZE, BASE);
  const afterSessions = rssKb(child.pid);
  heap.push(await heapKb(child, gcOut));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  return { label, start, afterRequests, afterSessions, seconds, heap };
}

const rows = [];
for (const t of targets) rows.push(await measure(t));
rmSync(dir, { recursive: true, force: true });
console.log(`${REQUESTS} session-less POSTs, then ${SESSIONS} abandoned 2025 sessions; memory of serve\n`);
console.log(
  '| build | heap after GC: warm-up → POSTs → sessions | retained per POST | RSS: warm-up → POSTs → sessions | POSTs/s |',
);
console.log('| --- | --- | ---: | --- | ---: |');
for (const r of rows)
  console.log(
    `| ${r.label} | ${r.heap.map(mb).join(' → ')} | ${((r.heap[1] - r.heap[0]) / REQUESTS).toFixed(2)} KB | ${[r.start, r.afterRequests, r.afterSessions].map(mb).join(' → ')} | ${(REQUESTS / r.seconds).toFixed(0)} |`,
  );
