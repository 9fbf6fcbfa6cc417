// bench/call-cpu.mjs — what one forwarded tools/call costs each proxy process in CPU time (its utime + stime from
// /proc, Linux), beside its wall-time p50: `mcp-smart serve --mode tools` of this tree, of a baseline build
// (BENCH_CALL_CPU_BASE=<folder with bin/mcp-smart.js>, e.g. main's build copied aside) and slop-mcp 0.15.0 (installed
// by `node bench/peers.mjs --install`), in front of the same tiny fixture servers (4 of them), over stdio with an
// SDK v1 and an SDK v2 client, interleaved in rounds of 50 calls. On a shared, loaded machine the wall times mostly
// measure the queue for a CPU; the CPU a process spends per call moves far less with the load.
// BENCH_CALL_CPU_CALLS (default 2,000, a multiple of 50) calls per connection.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './helpers/datasets.mjs';
import { scratchEnv } from './helpers/scratch.mjs';
import * as setup from './helpers/peers-setup.mjs';
import * as procs from './helpers/peer-procs.mjs';

const CALLS = Number(process.env.BENCH_CALL_CPU_CALLS ?? 2000);
const BASE = process.env.BENCH_CALL_CPU_BASE;
const { found } = setup.findPeers(setup.peersDir());
if (!found.slop) {
  console.error('bench:call-cpu: slop-mcp is not installed; install the peers first: node bench/peers.mjs --install');
  process.exit(2);
}
const SLOP = createRequire(import.meta.url)(join(found.slop.root, 'index.js')).getBinaryPath();
/** Clock ticks are 1/100 s on Linux. */
const TICK_MS = 10;
const ticks = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const work = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-call-cpu-'));
try {
  const servers = setup.tinyServers(REPO, 4);
  const configs = setup.writeConfigs(work, servers);
  const opts = { env: scratchEnv(work), cwd: work };
  const serveArgs = (root) => [
    join(root, 'bin', 'mcp-smart.js'),
    '-c',
    configs.smart,
    'serve',
    '--mode',
    'tools',
    '--no-learn',
  ];
  const echo = { name: 's0_echo', arguments: { message: 'hi' } };
  const slopEcho = {
    name: 'execute_tool',
    arguments: { mcp_name: 's0', tool_name: 'echo', parameters: { message: 'hi' } },
  };
  console.log(`${new Date().toISOString()}; node ${process.version}; load at start ${load()}; ${CALLS} calls each`);
  for (const sdk of ['v1', 'v2']) {
    const targets = [
      [
        'direct (the fixture server)',
        process.execPath,
        servers[0].args,
        { name: 'echo', arguments: { message: 'hi' } },
      ],
      ...(BASE ? [['serve --mode tools (base)', process.execPath, serveArgs(BASE), echo]] : []),
      ['serve --mode tools', process.execPath, serveArgs(REPO), echo],
      ['slop-mcp', SLOP, ['serve'], slopEcho],
    ];
    const conns = [];
    for (const [label, command, args, call] of targets)
      conns.push({ label, call, cpu: 0, times: [], ...(await procs.stdioClient(sdk, command, args, opts)) });
    // Warm-up; slop-mcp starts its servers after connecting, so a call may fail until they are up.
    for (const c of conns)
      for (let ok = 0, tries = 0; ok < 100; tries++) {
        const r = await c.invoke(c.call).catch(() => ({ isError: true }));
        if (!r.isError) ok++;
        else if (tries > 300) throw new Error(`${c.label}: the echo call keeps failing`);
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
    for (let round = 0; round < CALLS / 50; round++)
      for (const c of conns) {
        const before = ticks(c.pid);
        for (let i = 0; i < 50; i++) {
          const t = performance.now();
          const r = await c.invoke(c.call);
          c.times.push(performance.now() - t);
          if (r.isError) throw new Error(`${c.label}: ${JSON.stringify(r).slice(0, 200)}`);
        }
        c.cpu += ticks(c.pid) - before;
      }
    const direct = p50(conns[0].times);
    const slop = conns.find((c) => c.label === 'slop-mcp');
    const slopCpu = (slop.cpu * TICK_MS) / CALLS;
    const slopAdded = p50(slop.times) - direct;
    console.log('');
    console.log(`SDK ${sdk} client over stdio (load after: ${load()})`);
    console.log('');
    console.log('| process | CPU per call | × slop-mcp’s | wall p50 | added p50 | × slop-mcp’s added |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const c of conns) {
      const cpu = (c.cpu * TICK_MS) / CALLS;
      const added = p50(c.times) - direct;
      const tail = c === conns[0] ? '— | —' : `+${added.toFixed(2)} ms | ${(added / slopAdded).toFixed(2)}×`;
      console.log(
        `| ${c.label} | ${cpu.toFixed(3)} ms | ${(cpu / slopCpu).toFixed(2)}× | ${p50(c.times).toFixed(2)} ms | ${tail} |`,
      );
    }
    for (const c of conns) await c.close().catch(() => undefined);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
