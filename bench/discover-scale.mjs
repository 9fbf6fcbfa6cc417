#!/usr/bin/env node
// Fresh-cache `discover --snapshot` on a big generated catalogue (issue 40 item 4: 100k tools ≤ 10 s, ≤ 600 MB),
// interleaved with `node -e ""` and, with BENCH_SCALE_BASE=<other checkout>, that checkout's bin in the same rounds.
// Wall time, CPU (user+sys) and peak RSS from /usr/bin/time; an empty cache folder for every run.
// Usage: node bench/discover-scale.mjs [copies=36] [rounds=3]   (snapshot written by bench/big-snapshot.mjs)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [copies = '36', roundsArg = '3'] = process.argv.slice(2);
const rounds = Number(roundsArg);
const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-scale-'));
const snap = join(dir, 'big.snapshot.json');
const made = spawnSync(process.execPath, [join(import.meta.dirname, 'big-snapshot.mjs'), snap, copies], {
  encoding: 'utf8',
});
process.stdout.write(made.stdout + made.stderr);
const intent = 'what meetings do I have tomorrow';
const bins = [['branch', join(import.meta.dirname, '..', 'bin', 'mcp-smart.js')]];
if (process.env.BENCH_SCALE_BASE) bins.unshift(['base', join(process.env.BENCH_SCALE_BASE, 'bin', 'mcp-smart.js')]);

function timed(args, env = {}) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 1 << 26,
  });
  const [wall, user, sys, kb] = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}`);
  return { wall, cpu: user + sys, mb: kb / 1024 };
}

const rows = new Map([['node -e ""', []], ...bins.map(([name]) => [name, []])]);
try {
  for (let i = 0; i < rounds; i++) {
    rows.get('node -e ""').push(timed(['-e', '']));
    for (const [name, bin] of bins) {
      const cache = join(dir, `cache-${name}-${i}`);
      rows.get(name).push(timed([bin, '--snapshot', snap, 'discover', intent], { MCP_SMART_CACHE_DIR: cache }));
      rmSync(cache, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const node = median(rows.get('node -e ""').map((r) => r.wall));
process.stdout.write(
  `| run | wall p50 | × node | CPU p50 | peak RSS p50 | walls |\n| --- | ---: | ---: | ---: | ---: | --- |\n`,
);
for (const [name, rs] of rows) {
  const wall = median(rs.map((r) => r.wall));
  process.stdout.write(
    `| ${name} | ${wall.toFixed(2)} s | ${(wall / node).toFixed(1)}× | ${median(rs.map((r) => r.cpu)).toFixed(2)} s | ` +
      `${median(rs.map((r) => r.mb)).toFixed(0)} MB | ${rs.map((r) => r.wall.toFixed(1)).join(' / ')} |\n`,
  );
}
