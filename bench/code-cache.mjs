// bench:code-cache — the start path with V8's code cache (Node < 22.1: bin/ runs dist/bundle/cli.cjs through
// vm.Script with cachedData) against a base build, interleaved, medians of BENCH_CC_ROUNDS rounds (default 11):
//   - serve --mode meta from the servers-111 snapshot, spawn → tools/list answered, warm caches (HOME used before);
//   - a cold discover (index cache written), to the exit;
//   - the first discover (an empty cache folder), to the answer and to the exit, with the code cache present
//     (copied into the new folder) and absent.
// Each build ('this tree' with and without its code cache, the base) runs in its own HOME.
//   BENCH_CC_BASE=/tmp/codecache-base node bench/code-cache.mjs
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, DATA } from './helpers/datasets.mjs';
import { processCpuMs } from './helpers/proc-cpu.mjs';
import { toFirstList } from './helpers/serve-cold.mjs';

const ROUNDS = Number(process.env.BENCH_CC_ROUNDS ?? 11);
const BASE = process.env.BENCH_CC_BASE;
if (!BASE) throw new Error('BENCH_CC_BASE: a built base checkout');
const snapshot = join(DATA, 'servers-111', 'catalog.snapshot.json');
const pct = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)];
const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-cc-'));
const envOf = (home, cache = join(home, 'cache')) => ({
  ...process.env,
  NO_COLOR: '1',
  HOME: home,
  MCP_SMART_CACHE_DIR: cache,
  MCP_SMART_DATA_DIR: join(home, 'data'),
});
const bin = (repo) => join(repo, 'bin', 'mcp-smart.js');
const discoverArgs = (repo) => [bin(repo), '--snapshot', snapshot, 'discover', 'what meetings do I have tomorrow'];
const serveArgs = (repo) => [bin(repo), '--snapshot', snapshot, 'serve', '--mode', 'meta'];

/** spawn → first stdout bytes (answer) and exit. */
const run = (args, env) =>
  new Promise((resolve, reject) => {
    const t = performance.now();
    let answer;
    let cpu;
    let err = '';
    const child = spawn(process.execPath, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', () => {
      answer ??= performance.now() - t;
      cpu ??= cpuOf(child.pid);
    });
    child.stderr.on('data', (d) => (err += d));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve({ answer, cpu, exit: performance.now() - t }) : reject(new Error(`exit ${code}: ${err}`)),
    );
  });
/** serve: spawn → tools/list answered, and serve's CPU time by then. */
const serve = async (args, env) => {
  let cpu;
  const wall = await toFirstList(process.execPath, args, env, dir, undefined, (pid) => (cpu = cpuOf(pid)));
  return { wall, cpu };
};

/** The child's CPU time so far (user + system, ms, 10 ms ticks); NaN once it is gone. */
const cpuOf = (pid) => {
  try {
    return processCpuMs(pid);
  } catch {
    return NaN;
  }
};
const node = () => {
  const t = performance.now();
  spawnSync(process.execPath, ['-e', '']);
  return performance.now() - t;
};
// builds: [name, repo, extra env, code cache kept?]
const builds = [
  ['base', BASE, {}, true],
  ['tree, code cache', REPO, {}, true],
  ['tree, no code cache', REPO, {}, false],
];
const homes = builds.map(([name]) => {
  const h = join(dir, name.replace(/\W+/g, '-'));
  mkdirSync(h);
  return h;
});
const dropCompile = (home) => rmSync(join(home, 'cache', 'compile'), { recursive: true, force: true });
const times = {};
const push = (k, v) => (times[k] ??= []).push(v);
let fresh = 0;
try {
  // Warm-up: each HOME gets its index, catalogue and (tree) code caches.
  for (const [i, [, repo]] of builds.entries()) {
    // The code cache: marked by a first run, written by the second, read from the third on.
    for (let k = 0; k < 3; k++) {
      await run(discoverArgs(repo), envOf(homes[i]));
      await serve(serveArgs(repo), envOf(homes[i]));
    }
  }
  const compile = join(homes[1], 'cache', 'compile');
  for (let r = 0; r < ROUNDS; r++) {
    push('node', node());
    for (const [i, [name, repo, , keep]] of r % 2 ? [...builds.entries()].reverse() : [...builds.entries()]) {
      if (!keep) dropCompile(homes[i]);
      const s = await serve(serveArgs(repo), envOf(homes[i]));
      push(`serve meta ${name}`, s.wall);
      push(`serve meta CPU to the answer ${name}`, s.cpu);
      if (!keep) dropCompile(homes[i]);
      const c = await run(discoverArgs(repo), envOf(homes[i]));
      push(`cold discover ${name}`, c.exit);
      push(`cold discover CPU to the answer ${name}`, c.cpu);
      const cache = join(dir, `first-${fresh++}`);
      if (keep && repo === REPO) cpSync(compile, join(cache, 'compile'), { recursive: true });
      const f = await run(discoverArgs(repo), envOf(homes[i], cache));
      rmSync(cache, { recursive: true, force: true });
      push(`first discover answer ${name}`, f.answer);
      push(`first discover exit ${name}`, f.exit);
      push(`first discover CPU to the answer ${name}`, f.cpu);
    }
  }
  const n50 = pct(times.node, 0.5);
  console.log(`node ${process.version}; ${new Date().toISOString()}; ${ROUNDS} rounds; base ${BASE}`);
  console.log(`node -e "": p50 ${n50.toFixed(0)} ms`);
  for (const [k, xs] of Object.entries(times).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (k === 'node') continue;
    const s = pct(xs, 0.5);
    console.log(
      `${k}: p50 ${s.toFixed(0)} ms (p25 ${pct(xs, 0.25).toFixed(0)}, p75 ${pct(xs, 0.75).toFixed(0)}) ${(s / n50).toFixed(2)}×`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
