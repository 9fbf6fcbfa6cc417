// bench/call-cpu.mjs — what one forwarded tools/call costs each proxy process in CPU time (its utime + stime from
// /proc, Linux), beside its wall-time p50: `mcp-smart serve --mode tools` of this tree, of a baseline build
// (BENCH_CALL_CPU_BASE=<folder with bin/mcp-smart.js>, e.g. main's build copied aside) and slop-mcp 0.15.0 (installed
// by `node bench/peers.mjs --install`), in front of the same tiny fixture servers (4 of them), over stdio with an
// SDK v1 and an SDK v2 client, and over HTTP with an SDK v1 client (serve: Streamable HTTP; slop-mcp: SSE, which is
// all it has; each beside the fixture server over the same transport), interleaved in rounds of 50 calls. On a
// shared, loaded machine the wall times mostly measure the queue for a CPU; the CPU a process spends per call moves
// far less with the load.
// BENCH_CALL_CPU_CALLS (default 2,000, a multiple of 50) calls per connection; BENCH_CALL_CPU_PART=stdio or http
// runs one part alone.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './helpers/datasets.mjs';
import { scratchEnv } from './helpers/scratch.mjs';
import * as setup from './helpers/peers-setup.mjs';
import * as procs from './helpers/peer-procs.mjs';
import { freePort } from '../test/helpers/free-port.mjs';

const CALLS = Number(process.env.BENCH_CALL_CPU_CALLS ?? 2000);
const BASE = process.env.BENCH_CALL_CPU_BASE;
const PART = process.env.BENCH_CALL_CPU_PART; // 'stdio' or 'http' alone
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
  const directEcho = { name: 'echo', arguments: { message: 'hi' } };
  const stdio = (sdk) => ({
    title: `SDK ${sdk} client over stdio`,
    targets: [
      [
        'direct (the fixture server)',
        null,
        directEcho,
        () => procs.stdioClient(sdk, process.execPath, servers[0].args, opts),
      ],
      ...(BASE
        ? [
            [
              'serve --mode tools (base)',
              'direct (the fixture server)',
              echo,
              () => procs.stdioClient(sdk, process.execPath, serveArgs(BASE), opts),
            ],
          ]
        : []),
      [
        'serve --mode tools',
        'direct (the fixture server)',
        echo,
        () => procs.stdioClient(sdk, process.execPath, serveArgs(REPO), opts),
      ],
      ['slop-mcp', 'direct (the fixture server)', slopEcho, () => procs.stdioClient(sdk, SLOP, ['serve'], opts)],
    ],
  });
  // HTTP (SDK v1 client): serve over Streamable HTTP beside the fixture server over Streamable HTTP with a session;
  // slop-mcp over SSE (it has no Streamable HTTP) beside the fixture server over SSE.
  const http =
    (args, kind, extra = {}) =>
    () =>
      procs.httpClient({ ...opts, command: process.execPath, args, kind, printsUrl: true, ...extra });
  const serveHttp = (root) => [...serveArgs(root), '--transport', 'http', '--port', '0'];
  const httpGroup = async () => {
    const slopPort = await freePort();
    return {
      title: 'SDK v1 client over HTTP (serve: Streamable HTTP; slop-mcp: SSE)',
      targets: [
        [
          'direct, Streamable HTTP',
          null,
          directEcho,
          http([join(REPO, 'bench', 'helpers', 'tiny-http-session.mjs'), servers[0].args[1]], 'streamable'),
        ],
        ['direct, SSE', null, directEcho, http([...servers[0].args, '--sse', '0'], 'sse')],
        ...(BASE
          ? [['serve --mode tools (base)', 'direct, Streamable HTTP', echo, http(serveHttp(BASE), 'streamable')]]
          : []),
        ['serve --mode tools', 'direct, Streamable HTTP', echo, http(serveHttp(REPO), 'streamable')],
        [
          'slop-mcp',
          'direct, SSE',
          slopEcho,
          http([], 'sse', {
            command: SLOP,
            args: ['serve', '--port', String(slopPort)],
            printsUrl: false,
            url: `http://127.0.0.1:${slopPort}/sse`,
          }),
        ],
      ],
    };
  };
  const groups = [];
  if (PART !== 'http') groups.push(stdio('v1'), stdio('v2'));
  if (PART !== 'stdio') groups.push(await httpGroup());
  for (const group of groups) {
    const conns = [];
    for (const [label, baseline, call, connect] of group.targets)
      conns.push({ label, baseline, call, cpu: 0, times: [], ...(await connect()) });
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
    const byLabel = (label) => conns.find((c) => c.label === label);
    const added = (c) => p50(c.times) - p50(byLabel(c.baseline).times);
    const slop = byLabel('slop-mcp');
    const slopCpu = (slop.cpu * TICK_MS) / CALLS;
    console.log('');
    console.log(`${group.title} (load after: ${load()})`);
    console.log('');
    console.log('| process | CPU per call | × slop-mcp’s | wall p50 | added p50 | × slop-mcp’s added |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const c of conns) {
      const cpu = (c.cpu * TICK_MS) / CALLS;
      const tail = c.baseline ? `+${added(c).toFixed(2)} ms | ${(added(c) / added(slop)).toFixed(2)}×` : '— | —';
      console.log(
        `| ${c.label} | ${cpu.toFixed(3)} ms | ${(cpu / slopCpu).toFixed(2)}× | ${p50(c.times).toFixed(2)} ms | ${tail} |`,
      );
    }
    for (const c of conns) await c.close().catch(() => undefined);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
