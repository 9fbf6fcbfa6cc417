// bench:big — the CLI on the 2,781-tool catalogue (../shared/data/servers-111, ~930k tokens, a 5 MB snapshot),
// each figure beside a bare `node -e ""` measured in the same run, alternating, so a loaded machine slows both:
//   warm audit     `--snapshot catalog audit` (table) after one run that filled the caches
//   cold discover  `--snapshot catalog discover "<intent>"` in a new process, caches as a previous run left them
//   discover --no-cache, audit --no-cache: nothing cached (the first run on a machine)
// BENCH_BEFORE_BIN runs another build (e.g. the commit before a change) interleaved with this one.
// Wall time (median and best of BENCH_REPS), CPU time (user + system) and peak memory (max RSS) of the process
// itself, read from process.resourceUsage() at its exit through a preload. Runs against dist/ (npm run build).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const REPO = join(fileURLToPath(import.meta.url), '..', '..');
const DATA = process.env.MCP_SMART_BENCH_DATA ?? join(REPO, '..', 'shared', 'data');
const SNAPSHOT = join(DATA, 'servers-111', 'catalog.snapshot.json');
const REPS = Number(process.env.BENCH_REPS ?? 7);
const BIN = join(REPO, 'bin', 'mcp-smart.js');
const INTENT = 'send a message to the team channel about the failed deployment';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-big-'));
const preload = join(dir, 'usage.cjs');
writeFileSync(
  preload,
  `process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').writeFileSync(process.env.BENCH_USAGE_FILE, JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssKb: u.maxRSS })); });\n`,
);

const env = (cache) => ({
  ...process.env,
  HOME: dir,
  NO_COLOR: '1',
  MCP_SMART_CACHE_DIR: join(dir, cache),
  MCP_SMART_DATA_DIR: join(dir, 'data'),
  MCP_SMART_CONFIG_DIR: join(dir, 'config'),
  BENCH_USAGE_FILE: join(dir, 'usage.json'),
});

function runOnce(args, cache) {
  const start = performance.now();
  const r = spawnSync(process.execPath, ['-r', preload, ...args], { cwd: dir, env: env(cache), encoding: 'utf8' });
  const wallMs = performance.now() - start;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const usage = JSON.parse(readFileSync(join(dir, 'usage.json'), 'utf8'));
  return { wallMs, ...usage };
}

const cases = [
  { name: 'node -e "" (baseline)', args: ['-e', ''], cache: 'none' },
  { name: 'warm audit', args: [BIN, '--snapshot', SNAPSHOT, 'audit'], cache: 'warm' },
  { name: 'warm audit --json', args: [BIN, '--snapshot', SNAPSHOT, '--json', 'audit'], cache: 'warm' },
  { name: 'cold discover', args: [BIN, '--snapshot', SNAPSHOT, 'discover', INTENT], cache: 'warm' },
  { name: 'discover --no-cache', args: [BIN, '--snapshot', SNAPSHOT, '--no-cache', 'discover', INTENT], cache: 'none' },
  { name: 'audit --no-cache', args: [BIN, '--snapshot', SNAPSHOT, '--no-cache', 'audit'], cache: 'none' },
];

// BENCH_BEFORE_BIN=<another build's bin/mcp-smart.js>: the same runs of that build, interleaved (before → after).
const BEFORE = process.env.BENCH_BEFORE_BIN;
if (BEFORE)
  cases.push(
    ...cases
      .filter((c) => c.args[0] === BIN)
      .map((c) => ({ name: `${c.name} (before)`, args: [BEFORE, ...c.args.slice(1)], cache: `before-${c.cache}` })),
  );

const doc = JSON.parse(readFileSync(SNAPSHOT, 'utf8'));
const tools = doc.servers.reduce((n, s) => n + (s.tools?.length ?? 0), 0);
console.log(
  `bench:big — ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? '?'}`,
);
console.log(`catalogue: ${doc.servers.length} servers, ${tools} tools; ${REPS} alternating runs each`);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(`load average before: ${load()}`);

// Fill the caches once (tool counts, audit figures, discover index).
for (const [bin, cache] of [[BIN, 'warm'], ...(BEFORE ? [[BEFORE, 'before-warm']] : [])]) {
  runOnce([bin, '--snapshot', SNAPSHOT, 'audit'], cache);
  runOnce([bin, '--snapshot', SNAPSHOT, '--json', 'audit'], cache);
  runOnce([bin, '--snapshot', SNAPSHOT, 'discover', INTENT], cache);
}

const results = new Map(cases.map((c) => [c.name, []]));
for (let i = 0; i < REPS; i++) for (const c of cases) results.get(c.name).push(runOnce(c.args, c.cache));
rmSync(dir, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const best = (xs) => Math.min(...xs);
const base = results.get(cases[0].name);
const baseWall = median(base.map((r) => r.wallMs));
const baseCpu = median(base.map((r) => r.cpuMs));
console.log('');
console.log('| run | wall median | wall best | × baseline (wall) | CPU median | × baseline (CPU) | peak RSS |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const c of cases) {
  const rs = results.get(c.name);
  const wall = median(rs.map((r) => r.wallMs));
  const cpu = median(rs.map((r) => r.cpuMs));
  const rss = Math.max(...rs.map((r) => r.maxRssKb)) / 1024;
  console.log(
    `| ${c.name} | ${wall.toFixed(0)} ms | ${best(rs.map((r) => r.wallMs)).toFixed(0)} ms | ${(wall / baseWall).toFixed(1)}× | ` +
      `${cpu.toFixed(0)} ms | ${(cpu / baseCpu).toFixed(1)}× | ${rss.toFixed(0)} MB |`,
  );
}
console.log(`\nload average after: ${load()}`);
