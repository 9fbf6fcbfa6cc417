// bench:peers — `mcp-smart serve` beside peer proxies, slop-mcp 0.15.0 (npm @standardbeagle/slop-mcp: a Go binary
// shipped inside the package, run here directly as the package's bin.js would) and mcp-hub 4.2.1 (npm), and, when it is
// installed, mcp-proxy 6.7.19 (one server behind it: HTTP calls only), in front of the same tiny fixture servers,
// interleaved round by round; every figure beside its baseline in the same run:
//   - start: spawn → first tools/list answered (raw JSON-RPC on stdio; mcp-hub, which has only an SSE endpoint:
//     spawn → SSE connected → a tools/list holding every tool), warm (4 servers) and cold (fresh HOME: 4 and 50
//     servers); baseline `node -e ""`;
//   - added latency per forwarded call (the fixture's echo), p50 and p99: stdio with an SDK v1 client
//     (@modelcontextprotocol/sdk) and an SDK v2 client (@modelcontextprotocol/client), and HTTP with the SDK v1
//     client (serve and mcp-proxy: Streamable HTTP; slop-mcp and mcp-hub: SSE); baseline a direct connection to the
//     fixture server over the same transport;
//   - RSS of each proxy process after 10,000 calls, beside the fixture server's own after as many.
// The peers are installed only on request, into the bench's own cache folder: `node bench/peers.mjs --install`
// (MCP_SMART_CACHE_DIR/peers, default ~/.cache/mcp-smart-bench/peers). Without them it says what is missing and how
// to install it, and exits 2. BENCH_PEERS_ROUNDS (start-up rounds, default 3), BENCH_PEERS_CALLS (calls per client
// and target, default 1,000, a multiple of 50) and BENCH_PEERS_RSS_CALLS (default 10,000) scale it;
// BENCH_PEERS_PART=start or calls runs one part alone. BENCH_PEERS_BASE=<folder> adds, to the calls, serve from that
// folder's bin/mcp-smart.js (a baseline build copied aside) beside this tree's, as `serve --mode tools (base)`.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './helpers/datasets.mjs';
import { scratchEnv } from './helpers/scratch.mjs';
import * as setup from './helpers/peers-setup.mjs';
import * as procs from './helpers/peer-procs.mjs';
import { freePort } from '../test/helpers/free-port.mjs';

// An SSE client whose connection attempt was given up (a peer not yet listening, or ended) can still report the
// stream's error afterwards; that must not end the run. It is said on stderr.
process.on('unhandledRejection', (e) =>
  console.error(`bench:peers: a late transport error, ignored: ${e?.message ?? e}`),
);
const dir = setup.peersDir();
if (process.argv.includes('--install')) {
  console.log(`installing the peers into ${dir}: npm ${setup.installArgs(dir).join(' ')}`);
  mkdirSync(dir, { recursive: true });
  execFileSync('npm', setup.installArgs(dir), { stdio: 'inherit' });
}
const { found, missing, skipped } = setup.findPeers(dir);
if (missing.length > 0) {
  console.error(`bench:peers: not installed in ${dir}: ${missing.join(', ')}`);
  console.error(`Install them there (nothing is downloaded without it): node bench/peers.mjs --install`);
  console.error(`  (runs: npm ${setup.installArgs(dir).join(' ')})`);
  process.exit(2);
}
const SLOP = createRequire(import.meta.url)(join(found.slop.root, 'index.js')).getBinaryPath();
const HUB = join(found.hub.root, 'dist', 'cli.js');
const PROXY = found.proxy ? join(found.proxy.root, 'dist', 'bin', 'mcp-proxy.mjs') : undefined;
const BIN = join(REPO, 'bin', 'mcp-smart.js');
const ROUNDS = Number(process.env.BENCH_PEERS_ROUNDS ?? 3);
const CALLS = Number(process.env.BENCH_PEERS_CALLS ?? 1000);
const RSS_CALLS = Number(process.env.BENCH_PEERS_RSS_CALLS ?? 10_000);
const ROUND = 50;
const PART = process.env.BENCH_PEERS_PART; // 'start' or 'calls' alone
const BASE_BIN = process.env.BENCH_PEERS_BASE ? join(process.env.BENCH_PEERS_BASE, 'bin', 'mcp-smart.js') : undefined;
const node = process.execPath;

const pct = (xs, q) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil(q * xs.length) - 1))];
const f = (x) => x.toFixed(Math.abs(x) < 10 ? 2 : 0);
const signed = (x) => `${x < 0 ? '−' : '+'}${f(Math.abs(x))}`;
const work = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-peers-'));
/** A HOME for one run (or one warm series): scratch env, and mcp-hub's marketplace cache seeded so it stays offline. */
const home = (name) => {
  const h = mkdtempSync(join(work, `${name}-`));
  const cache = join(h, '.local', 'share', 'mcp-hub', 'cache');
  mkdirSync(cache, { recursive: true });
  writeFileSync(join(cache, 'registry.json'), JSON.stringify(setup.hubMarketplaceCache()));
  return { dir: h, env: scratchEnv(h, { XDG_CONFIG_HOME: join(h, '.config'), XDG_STATE_HOME: join(h, '.state') }) };
};
const configs = (n) => {
  const d = join(work, `servers-${n}`);
  mkdirSync(d);
  return { dir: d, n, ...setup.writeConfigs(d, setup.tinyServers(REPO, n)) };
};
const TOOLS_PER_SERVER = 5; // tiny.json
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

try {
  const c4 = configs(4);
  const c50 = configs(50);
  const head = [
    `${new Date().toISOString()}; node ${process.version}; slop-mcp ${found.slop.version} (Go binary), mcp-hub ${found.hub.version}, ${PROXY ? `mcp-proxy ${found.proxy.version}` : `not installed (skipped): ${skipped.join(', ')}`};`,
    `load average at start ${load()}; ${ROUNDS} start-up rounds, ${CALLS} calls per client and target in rounds of ${ROUND}`,
  ];
  console.log(head.join(' '));

  if (PART !== 'calls') await startUp(c4, c50);
  if (PART !== 'start') await calls(c4);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** Start-up: one starter per measure; each round runs every one of them once (interleaved). */
async function startUp(c4, c50) {
  // Start-up: one starter per measure; each round runs every one of them once (interleaved).
  const warm = home('warm');
  const startSmart = (c, mode, h) => () =>
    procs.stdioFirstList(node, [BIN, '-c', c.smart, 'serve', '--mode', mode, '--no-learn'], {
      env: h().env,
      cwd: c.dir,
      minTools: mode === 'tools' ? c.n * TOOLS_PER_SERVER : 1,
    });
  const startSlop = (c, h) => () => procs.stdioFirstList(SLOP, ['serve'], { env: h().env, cwd: c.dir, minTools: 1 });
  const startHub = (c, h) => async () => {
    const port = await freePort();
    return procs.sseFirstFullList(
      node,
      [HUB, '--port', String(port), '--config', c.hub],
      `http://127.0.0.1:${port}/mcp`,
      { env: h().env, cwd: c.dir, minTools: c.n * TOOLS_PER_SERVER },
    );
  };
  const w = () => warm;
  const cold = () => home('cold');
  const starters = [
    ['node -e ""', () => Promise.resolve(timeNode())],
    ['warm, 4 servers: serve --mode tools (warm cache; every tool)', startSmart(c4, 'tools', w)],
    ['warm, 4 servers: serve --mode meta', startSmart(c4, 'meta', w)],
    ['warm, 4 servers: slop-mcp (its 8+ meta-tools)', startSlop(c4, w)],
    ['warm, 4 servers: mcp-hub (SSE; every tool)', startHub(c4, w)],
    ['cold, 4 servers: serve --mode tools (every tool)', startSmart(c4, 'tools', cold)],
    ['cold, 4 servers: serve --mode meta', startSmart(c4, 'meta', cold)],
    ['cold, 4 servers: slop-mcp', startSlop(c4, cold)],
    ['cold, 4 servers: mcp-hub (every tool)', startHub(c4, cold)],
    ['cold, 50 servers: serve --mode meta', startSmart(c50, 'meta', cold)],
    ['cold, 50 servers: serve --mode tools (every tool)', startSmart(c50, 'tools', cold)],
    ['cold, 50 servers: slop-mcp', startSlop(c50, cold)],
    ['cold, 50 servers: mcp-hub (every tool)', startHub(c50, cold)],
  ];
  // Prime: the warm HOME's caches, and the disk for every binary.
  for (const [, start] of starters.slice(1, 5)) await start();
  const startTimes = new Map(starters.map(([label]) => [label, []]));
  for (let r = 0; r < ROUNDS; r++)
    for (const [label, start] of starters)
      startTimes.get(label).push(
        await start().catch((e) => {
          console.error(`bench:peers: ${label}: ${e.message}`);
          return { error: e.message };
        }),
      );
  const n50 = pct(
    startTimes.get('node -e ""').map((x) => x.first),
    0.5,
  );
  const cell = (xs) => `${f(pct(xs, 0.5))} ms (p95 ${f(pct(xs, 0.95))}) | ${(pct(xs, 0.5) / n50).toFixed(2)}×`;
  console.log('');
  console.log(
    '| start (spawn →) | first tools/list p50 | × node | tools in it | a tools/list with every tool p50 | × node |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (let [label, all] of startTimes) {
    const xs = all.filter((x) => !x.error);
    const failed = all.length - xs.length;
    if (xs.length === 0) {
      console.log(`| ${label} | failed in every round: ${all[0].error} | | | | |`);
      continue;
    }
    if (failed > 0) label += ` (failed in ${failed} of ${all.length} rounds)`;
    const counts = [...new Set(xs.map((x) => x.count))].join(', ');
    const full = label.includes('every tool') ? cell(xs.map((x) => x.full)) : '— | —';
    console.log(`| ${label} | ${cell(xs.map((x) => x.first))} | ${counts} | ${full} |`);
  }
}

/** Calls: every connection open at once, then rounds of ROUND calls on each in turn; then RSS. */
async function calls(c4) {
  const ce = home('calls');
  const opts = { env: ce.env, cwd: c4.dir };
  const tiny = setup.tinyServers(REPO, 1)[0];
  const echo = { name: 'echo', arguments: { message: 'hi' } };
  const smartEcho = { name: 's0_echo', arguments: { message: 'hi' } };
  const slopEcho = {
    name: 'execute_tool',
    arguments: { mcp_name: 's0', tool_name: 'echo', parameters: { message: 'hi' } },
  };
  const hubEcho = { name: 's0__echo', arguments: { message: 'hi' } };
  const smartArgs = [BIN, '-c', c4.smart, 'serve', '--mode', 'tools', '--no-learn'];
  const baseArgs = BASE_BIN && [BASE_BIN, ...smartArgs.slice(1)];
  const hubPort = await freePort();
  const conns = [];
  const open = async (group, label, baseline, call, connect) => {
    const conn = await connect().catch((e) => {
      throw new Error(`${group}: ${label}: ${e.message}`);
    });
    conns.push({ group, label, baseline, call, times: [], calls: 0, ...conn });
  };
  for (const sdk of ['v1', 'v2']) {
    const g = `stdio, SDK ${sdk} client`;
    await open(g, 'direct', null, echo, () => procs.stdioClient(sdk, tiny.command, tiny.args, opts));
    await open(g, 'serve --mode tools', 'direct', smartEcho, () => procs.stdioClient(sdk, node, smartArgs, opts));
    if (baseArgs)
      await open(g, 'serve --mode tools (base)', 'direct', smartEcho, () =>
        procs.stdioClient(sdk, node, baseArgs, opts),
      );
    await open(g, 'slop-mcp', 'direct', slopEcho, () => procs.stdioClient(sdk, SLOP, ['serve'], opts));
  }
  const g = 'HTTP, SDK v1 client';
  const http = (label, baseline, call, spec) =>
    open(g, label, baseline, call, () => procs.httpClient({ ...opts, ...spec }));
  await http('direct, Streamable HTTP', null, echo, {
    command: node,
    args: [join(REPO, 'bench', 'helpers', 'tiny-http-session.mjs'), tiny.args[1]],
    kind: 'streamable',
    printsUrl: true,
  });
  await http('direct, SSE', null, echo, {
    command: node,
    args: [...tiny.args, '--sse', '0'],
    kind: 'sse',
    printsUrl: true,
  });
  await http('serve --mode tools (Streamable HTTP)', 'direct, Streamable HTTP', smartEcho, {
    command: node,
    args: [...smartArgs, '--transport', 'http', '--port', '0'],
    kind: 'streamable',
    printsUrl: true,
  });
  if (baseArgs)
    await http('serve --mode tools (base, Streamable HTTP)', 'direct, Streamable HTTP', smartEcho, {
      command: node,
      args: [...baseArgs, '--transport', 'http', '--port', '0'],
      kind: 'streamable',
      printsUrl: true,
    });
  const slopPort = await freePort();
  await http('slop-mcp (SSE)', 'direct, SSE', slopEcho, {
    command: SLOP,
    args: ['serve', '--port', String(slopPort)],
    kind: 'sse',
    url: `http://127.0.0.1:${slopPort}/sse`,
  });
  if (PROXY) {
    const port = await freePort();
    await http('mcp-proxy (Streamable HTTP; one server)', 'direct, Streamable HTTP', echo, {
      command: node,
      args: [PROXY, '--port', String(port), '--server', 'stream', '--', tiny.command, ...tiny.args],
      kind: 'streamable',
      url: `http://127.0.0.1:${port}/mcp`,
    });
  }
  await http('mcp-hub (SSE)', 'direct, SSE', hubEcho, {
    command: node,
    args: [HUB, '--port', String(hubPort), '--config', c4.hub],
    kind: 'sse',
    url: `http://127.0.0.1:${hubPort}/mcp`,
  });
  const run = async (c, n, keep) => {
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const r = await c.invoke(c.call);
      const dt = performance.now() - t;
      if (r.isError || JSON.stringify(r.content).indexOf('hi') < 0)
        throw new Error(`${c.group} ${c.label}: echo failed: ${JSON.stringify(r).slice(0, 300)}`);
      if (keep) c.times.push(dt);
      c.calls++;
    }
  };
  for (const c of conns) await waitForTool(c);
  for (const c of conns) await run(c, 20, false); // warm-up
  for (let r = 0; r < CALLS / ROUND; r++) for (const c of conns) await run(c, ROUND, true);
  console.log('');
  console.log(`Load average after the calls: ${load()}`);
  console.log('');
  console.log(
    "| forwarded call (echo) | p50 | p99 | added p50 / p99 | × baseline p50 | × slop-mcp p50 (same client) | added p50 × slop-mcp's added |",
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const c of conns) {
    const [p50, p99] = [pct(c.times, 0.5), pct(c.times, 0.99)];
    const slop = conns.find((x) => x.group === c.group && x.label.startsWith('slop-mcp'));
    const vsSlop = `${(p50 / pct(slop.times, 0.5)).toFixed(2)}×`;
    if (!c.baseline) {
      console.log(`| ${c.group}: ${c.label} (baseline) | ${f(p50)} ms | ${f(p99)} ms | — | 1.00× | ${vsSlop} | — |`);
      continue;
    }
    const b = conns.find((x) => x.group === c.group && x.label === c.baseline);
    const [b50, b99] = [pct(b.times, 0.5), pct(b.times, 0.99)];
    // What each adds over its own baseline (slop-mcp over HTTP is SSE, its baseline the direct SSE connection).
    const slopBase = conns.find((x) => x.group === c.group && x.label === slop.baseline);
    const slopAdded = pct(slop.times, 0.5) - pct(slopBase.times, 0.5);
    console.log(
      `| ${c.group}: ${c.label} | ${f(p50)} ms | ${f(p99)} ms | ${signed(p50 - b50)} / ${signed(p99 - b99)} ms | ${(p50 / b50).toFixed(2)}× | ${vsSlop} | ${((p50 - b50) / slopAdded).toFixed(2)}× |`,
    );
  }

  // RSS after RSS_CALLS calls on one connection of each process (the SDK v2 stdio ones, and mcp-hub's SSE one).
  const rssOf = conns.filter(
    (c) =>
      c.group === 'stdio, SDK v2 client' ||
      c.label === 'mcp-hub (SSE)' ||
      c.label.startsWith('mcp-proxy') ||
      c.label.startsWith('serve --mode tools (S'),
  );
  for (const c of rssOf) await run(c, Math.max(0, RSS_CALLS - c.calls), false);
  const base = procs.rssMb(rssOf.find((c) => c.label === 'direct').pid);
  console.log('');
  console.log(
    `| RSS after ${RSS_CALLS.toLocaleString('en-US')} calls (the process itself, not its servers) | MB | × the fixture server's |`,
  );
  console.log('| --- | ---: | ---: |');
  for (const c of rssOf) {
    const mb = procs.rssMb(c.pid);
    console.log(
      `| ${c.label === 'direct' ? 'the fixture server, called directly (baseline)' : `${c.label}, ${c.group.startsWith('stdio') ? 'stdio' : 'HTTP'}`} | ${mb.toFixed(0)} | ${(mb / base).toFixed(2)}× |`,
    );
  }
  for (const c of conns) await c.close().catch(() => undefined);
}

function timeNode() {
  const t = performance.now();
  spawnSync(process.execPath, ['-e', '']);
  const first = performance.now() - t;
  return { first, count: 0, full: first };
}

/** Waits until the connection's target tool is listed (mcp-hub and slop-mcp start their servers after connecting). */
async function waitForTool(c) {
  for (let i = 0; i < 3000; i++) {
    const { tools } = await c.client.listTools(undefined, procs.LONG);
    if (tools.some((t) => t.name === c.call.name)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${c.group} ${c.label}: ${c.call.name} never listed`);
}
