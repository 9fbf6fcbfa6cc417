// bench:cold's two start-up runs measured in CPU time (user + system, from /usr/bin/time, 10 ms steps) instead of
// wall time: on a machine shared with other jobs a process waits for a core, which wall time counts and CPU time
// does not. A cold `discover` on servers-111's 2,781 tools (index cache written) and a warm `serve --mode meta`
// from spawn to its first tools/list answer and exit, interleaved with `node -e ""`, medians of
// BENCH_COLD_ROUNDS (default 11). BENCH_COLD_BASE: another built checkout, interleaved too (the named baseline).
// Needs /usr/bin/time (GNU time).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, DATA } from './helpers/datasets.mjs';
import { INITIALIZE } from './helpers/raw-stdio.mjs';
import { scratchEnv } from './helpers/scratch.mjs';

const ROUNDS = Number(process.env.BENCH_COLD_ROUNDS ?? 11);
const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-cold-cpu-'));
const timeFile = join(dir, 'time.txt');
const env = scratchEnv(dir);
const snapshot = join(DATA, 'servers-111', 'catalog.snapshot.json');
const timeArgs = ['-f', '%U %S', '-o', timeFile, process.execPath];
const cpuMs = () => {
  const [user, sys] = readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  return (user + sys) * 1000;
};
const timed = (args) => {
  const r = spawnSync('/usr/bin/time', [...timeArgs, ...args], { cwd: dir, env, timeout: 60_000 });
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status}: ${String(r.stderr).split('\n')[0]}`);
  return cpuMs();
};
const bin = (repo) => join(repo, 'bin', 'mcp-smart.js');
const discover = (repo) => [bin(repo), '--snapshot', snapshot, 'discover', 'what meetings do I have tomorrow'];
const line = (msg) => JSON.stringify(msg) + '\n';
const initialize = INITIALIZE;
/** serve --mode meta: initialize, initialized, tools/list answered, then stdin closed; the CPU time to its exit. */
const serve = (repo) =>
  new Promise((resolve, reject) => {
    const args = [...timeArgs, bin(repo), '--snapshot', snapshot, 'serve', '--mode', 'meta'];
    const child = spawn('/usr/bin/time', args, { cwd: dir, env, stdio: ['pipe', 'pipe', 'ignore'] });
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += String(d);
      if (buf.includes('"id":1') && !buf.includes('"id":2')) {
        child.stdin.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
        child.stdin.write(line({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
      } else if (buf.includes('"id":2')) {
        buf = '';
        child.stdin.end();
      }
    });
    child.once('exit', (code) => (code === 0 ? resolve(cpuMs()) : reject(new Error(`serve exit ${code}`))));
    child.once('error', reject);
    child.stdin.write(line(initialize));
  });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const trees = [['this tree', REPO]];
if (process.env.BENCH_COLD_BASE) trees.push([process.env.BENCH_COLD_BASE, process.env.BENCH_COLD_BASE]);
try {
  for (const [, repo] of trees) {
    timed(discover(repo)); // writes the index cache
    await serve(repo); // warms serve's caches
  }
  const node = [];
  const runs = trees.map(() => ({ discover: [], serve: [] }));
  for (let i = 0; i < ROUNDS; i++) {
    node.push(timed(['-e', '']));
    for (const [j, [, repo]] of trees.entries()) {
      runs[j].discover.push(timed(discover(repo)));
      runs[j].serve.push(await serve(repo));
    }
  }
  const n = median(node);
  console.log(
    `node ${process.version}; ${new Date().toISOString()}; ${ROUNDS} rounds; load ${loadavg()[0].toFixed(1)}`,
  );
  console.log(`CPU time (user + system), medians: node -e "" ${n.toFixed(0)} ms`);
  for (const [j, [name]] of trees.entries()) {
    const d = median(runs[j].discover);
    const s = median(runs[j].serve);
    console.log(
      `  ${name}: cold discover ${d.toFixed(0)} ms (${(d / n).toFixed(1)}×), serve to tools/list and exit ${s.toFixed(0)} ms (${(s / n).toFixed(1)}×)`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
