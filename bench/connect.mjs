// bench:connect — run after `npx tsc -p tsconfig.json`.
// 8 fixture servers with known start-up times (--ready-at-ms: wall time from spawn, module loading included), dumped in parallel vs one at a time (ratio), and mcp-smart's
// overhead over the slowest server's own start-to-tools-list time, measured alone with a raw SDK client in this
// same process. Goal: the parallel total within 100 ms of the slowest server.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import { connectServers } from '../dist/core/connect/index.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = join(REPO, 'fixtures', 'servers', 'catalog-server.mjs');
const CATALOG = join(REPO, 'fixtures', 'servers', 'catalogs', 'tiny.json');
const DELAYS_MS = (process.env.BENCH_DELAYS ?? '250,500,750,1000,1250,1500,1750,2000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const args = (delay) => [SERVER, CATALOG, '--ready-at-ms', String(delay)];
const defs = DELAYS_MS.map((delay) => ({
  name: `slow-${delay}`,
  transport: 'stdio',
  command: process.execPath,
  args: args(delay),
  enabled: true,
  source: 'bench',
  scope: 'explicit',
}));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const fmt = (ms) => `${ms.toFixed(0).padStart(6)} ms`;

/** The baseline: a plain SDK client, spawn → initialize → tools/list, for one server alone. */
async function rawSlowest() {
  const t0 = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: args(Math.max(...DELAYS_MS)),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const elapsed = performance.now() - t0;
  if (tools.length !== 5) throw new Error('unexpected tool count');
  await client.close();
  return elapsed;
}

async function timed(fn) {
  const t0 = performance.now();
  const snaps = await fn();
  const elapsed = performance.now() - t0;
  const failed = snaps.filter((s) => s.status !== 'ok');
  if (failed.length) throw new Error(`failed: ${failed.map((s) => `${s.name}: ${s.error}`).join('; ')}`);
  return elapsed;
}

const opts = { timeoutMs: 30_000, cache: null };
const parallelRun = () => timed(() => connectServers(defs, opts));
const sequentialRun = () =>
  timed(async () => {
    const all = [];
    for (const d of defs) all.push(...(await connectServers([d], opts)));
    return all;
  });
const slowestOnlyRun = () => timed(() => connectServers([defs[defs.length - 1]], opts));

// Warm-up (file system caches, JIT) — not counted.
await rawSlowest();
await parallelRun();

const raw = [];
const parallel = [];
const sequential = [];
const oursSlowest = [];
for (let i = 0; i < RUNS; i++) {
  raw.push(await rawSlowest());
  oursSlowest.push(await slowestOnlyRun());
  parallel.push(await parallelRun());
  sequential.push(await sequentialRun());
}

const rawMs = median(raw);
const parMs = median(parallel);
const seqMs = median(sequential);
const oneMs = median(oursSlowest);
console.log(
  `bench:connect — ${DELAYS_MS.length} fixture servers, start-up delays ${DELAYS_MS.join('/')} ms, median of ${RUNS} runs`,
);
console.log(`  baseline: raw SDK client, slowest server alone (spawn → tools listed) ${fmt(rawMs)}`);
console.log(`  mcp-smart, slowest server alone (incl. process shutdown)             ${fmt(oneMs)}`);
console.log(`  mcp-smart, all ${DELAYS_MS.length} in parallel                                      ${fmt(parMs)}`);
console.log(`  mcp-smart, one at a time                                           ${fmt(seqMs)}`);
console.log(`  ratio one-at-a-time / parallel                                     ${(seqMs / parMs).toFixed(2)}x`);
const overhead = parMs - rawMs;
console.log(
  `  overhead of the parallel run over the slowest server alone          ${fmt(overhead)}  (goal ≤ 100 ms: ${overhead <= 100 ? 'MET' : 'MISSED'})`,
);
console.log(
  `  all runs (ms): raw ${raw.map(Math.round).join(',')} | parallel ${parallel.map(Math.round).join(',')} | sequential ${sequential.map(Math.round).join(',')}`,
);
