// bench:serve — what `mcp-smart serve` sends and what it costs, each beside a direct connection measured in the
// same run: served tokens per mode (demo servers, LiveMCPBench from a snapshot), spawn → tools/list with a warm
// cache and 10 servers configured, added latency per forwarded call, find_tool latency on LiveMCPBench, and RSS.
// Times are medians and p95 over many runs, interleaved with their baselines: `node -e ""` (the floor of any spawn),
// one of the same servers spawned and listed directly, and a direct SDK connection to the server a call goes to.
// Part 2 (bench/helpers/serve-eras-stores.mjs): start-up and added latency per call for a 2025 and a 2026-07-28
// client, and added latency per call with learning into a PostgreSQL store, a file store and no store.
// BENCH_SERVE_ROUNDS (default 30), BENCH_SERVE_CALLS (default 900, a multiple of 30) and BENCH_SERVE_ERA_CALLS
// (default 500, a multiple of 25) scale the runs; BENCH_SERVE_PART=2 runs part 2 alone; BENCH_SERVE_ALSO and
// BENCH_SERVE_ONLY are described in bench/helpers/serve-eras-stores.mjs. Part 3 (bench/helpers/serve-telemetry.mjs,
// BENCH_SERVE_PART=telemetry alone): added latency per call with OpenTelemetry off and on (BENCH_SERVE_BASE_BIN: a
// build from before it, measured in the same rounds). The call path (bench/helpers/serve-callpath.mjs,
// BENCH_SERVE_PART=callpath alone): added latency per call for SDK v1 and v2 clients over stdio and HTTP, and
// find_tool's round trip on 2,781 tools beside its ranking (BENCH_SERVE_BASE_BIN: a baseline build, same rounds).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import { REPO, loadLiveMcpBench } from './helpers/datasets.mjs';
import { erasAndStores } from './helpers/serve-eras-stores.mjs';
import { telemetryCalls } from './helpers/serve-telemetry.mjs';
import { callPath } from './helpers/serve-callpath.mjs';
import { INITIALIZE } from './helpers/raw-stdio.mjs';

const dist = (p) => import(join(REPO, 'dist', p));
const { buildServedView } = await dist('serve/served-view.js');
const { countingWith } = await dist('serve/deps.js');
const { ServeRuntime } = await dist('serve/runtime.js');
const { createTokenCounter, countToolTokens } = await dist('core/tokens/index.js');
const { connectServers } = await dist('core/connect/index.js');
const { buildDiscoverIndex, loadShippedWordVectors, rankTools } = await dist('core/discover/index.js');

const BIN = join(REPO, 'bin', 'mcp-smart.js');
const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-serve-'));
const env = {
  ...process.env,
  NO_COLOR: '1',
  HOME: dir,
  MCP_SMART_CACHE_DIR: join(dir, 'cache'),
  MCP_SMART_DATA_DIR: join(dir, 'data'),
};
/** Nearest-rank percentile. */
const pct = (xs, q) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
};
const stats = (xs) => ({ p50: pct(xs, 0.5), p95: pct(xs, 0.95), n: xs.length });
const ms = (x) => `${x.toFixed(Math.abs(x) < 10 ? 2 : 0)} ms`;
const span = (st) => `${ms(st.p50)} / ${ms(st.p95)}`;
const out = [];
const say = (line) => {
  out.push(line);
  console.log(line);
};

try {
  if (process.env.BENCH_SERVE_PART === 'callpath') {
    say('| measure | serve | baselines (same run) | goal |');
    say('| --- | ---: | --- | --- |');
    await callPath({ REPO, BIN, env, dir, stats, span, ms }, say);
  } else if (process.env.BENCH_SERVE_PART === 'telemetry') {
    say('| measure | serve | baselines (same run) | goal |');
    say('| --- | ---: | --- | --- |');
    await telemetryCalls({ REPO, BIN, env, dir, stats, span, ms }, say);
  } else if (process.env.BENCH_SERVE_PART === '2') {
    say('| measure | serve | baselines (same run) | goal |');
    say('| --- | ---: | --- | --- |');
    await erasAndStores({ REPO, BIN, env, dir, stats, span, ms }, say);
  } else await partOne();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

async function partOne() {
  const counter = await createTokenCounter('o200k_base');
  const counting = countingWith(counter);

  // 1. Served tokens per mode.
  const demoSnap = join(dir, 'demo.json');
  execFileSync(process.execPath, [BIN, '--demo', '--no-cache', 'dump', '-o', demoSnap], { env, stdio: 'ignore' });
  const demo = JSON.parse(readFileSync(demoSnap, 'utf8')).servers;
  const live = loadLiveMcpBench();
  const byServer = new Map();
  for (const t of live.tools) byServer.set(t.server, [...(byServer.get(t.server) ?? []), t.tool]);
  const liveServers = [...byServer].map(([name, tools]) => ({ name, transport: 'stdio', status: 'ok', tools }));
  const liveSnap = join(dir, 'live.json');
  writeFileSync(
    liveSnap,
    JSON.stringify({ format: 'mcp-smart/snapshot@1', createdAt: '2025-01-01T00:00:00.000Z', servers: liveServers }),
  );
  say('### Served tokens (o200k_base, tool definitions as `budget` counts them)');
  say('');
  say(
    '| catalogue | direct connection (every tool, full) | tools (lossless) | meta | auto, limit 20,000 | auto, limit 2,000 |',
  );
  say('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [label, servers] of [
    [`demo servers (${demo.reduce((n, s) => n + s.tools.length, 0)} tools)`, demo],
    [`LiveMCPBench (${live.tools.length} tools, ${liveServers.length} servers)`, liveServers],
  ]) {
    const direct = servers.reduce((n, s) => n + s.tools.reduce((m, t) => m + countToolTokens(t, counter), 0), 0);
    const view = (mode, limit) =>
      buildServedView({
        servers,
        mode,
        level: 'lossless',
        config: {},
        rules: { filters: new Map() },
        limit,
        activated: [],
        key: 'mcp-smart',
        deps: counting.deps,
      });
    const cell = (v) => `${v.tokens.toLocaleString('en-US')} (${v.tools.length} tools)`;
    say(
      `| ${label} | ${direct.toLocaleString('en-US')} | ${cell(view('tools', 0))} | ${cell(view('meta', 0))} | ${cell(view('auto', 20000))} | ${cell(view('auto', 2000))} |`,
    );
  }
  say('');

  // 2. Spawn → tools/list answered, warm cache, 10 servers configured; beside starting and listing them directly.
  const config = join(dir, 'ten.json');
  const servers = {};
  for (let i = 1; i <= 10; i++)
    servers[`s${i}`] = {
      command: process.execPath,
      args: [
        join(REPO, 'fixtures', 'servers', 'catalog-server.mjs'),
        join(REPO, 'fixtures', 'servers', 'catalogs', 'tiny.json'),
        '--tag',
        `s${i}`,
      ],
    };
  writeFileSync(config, JSON.stringify({ servers }));
  const initialize = INITIALIZE;
  // Spawn → initialize → initialized → tools/list answered, raw JSON-RPC over stdio (no client library on the clock),
  // for any command; the number of children the process has at that moment is recorded too.
  const spawnToList = (cmd, args) =>
    new Promise((resolve, reject) => {
      const t0 = performance.now();
      const child = spawn(cmd, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
      let buf = '';
      let children = -1;
      child.stdout.on('data', (d) => {
        buf += String(d);
        if (buf.includes('"id":1') && !buf.includes('"id":2')) {
          child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
          child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) + '\n');
        } else if (buf.includes('"id":2')) {
          const wall = performance.now() - t0;
          const ps = spawnSync('ps', ['-o', 'pid=', '--ppid', String(child.pid)], { encoding: 'utf8' });
          children = ps.stdout.split('\n').filter((l) => l.trim() !== '').length;
          child.stdin.end();
          child.once('exit', () => resolve({ wall, children }));
          buf = '';
        }
      });
      child.once('error', reject);
      child.stdin.write(JSON.stringify(initialize) + '\n');
    });
  const serveArgs = [BIN, '-c', config, 'serve', '--mode', 'tools', '--no-learn'];
  await spawnToList(process.execPath, serveArgs); // lists live once and fills the tool-list cache
  const serveWalls = [];
  const childCounts = [];
  const backendWalls = [];
  const nodeWalls = [];
  const directWalls = [];
  const versionWalls = [];
  const defs = Object.entries(servers).map(([name, s]) => ({
    name,
    transport: 'stdio',
    command: s.command,
    args: s.args,
    enabled: true,
    source: config,
    scope: 'explicit',
  }));
  // Interleaved, so that load on the machine falls on every measure alike.
  const ROUNDS = Number(process.env.BENCH_SERVE_ROUNDS ?? 30);
  for (let i = 0; i < ROUNDS; i++) {
    const r = await spawnToList(process.execPath, serveArgs);
    serveWalls.push(r.wall);
    childCounts.push(r.children);
    backendWalls.push((await spawnToList(servers.s1.command, servers.s1.args)).wall);
    const n = performance.now();
    spawnSync(process.execPath, ['-e', ''], { env });
    nodeWalls.push(performance.now() - n);
    const v = performance.now();
    spawnSync(process.execPath, [BIN, '--version'], { env });
    versionWalls.push(performance.now() - v);
    if (i % 3 === 0) {
      const t = performance.now();
      await connectServers(defs, { timeoutMs: 30000, cache: null });
      directWalls.push(performance.now() - t);
    }
  }
  const serveStart = stats(serveWalls);
  const nodeStart = stats(nodeWalls);
  const backendStart = stats(backendWalls);
  say('### Start-up and latency');
  say('');
  say(`Median and p95 (\`p50 / p95\`); every measure interleaved with its baselines in the same run.`);
  say('');
  say('| measure | serve | baselines (same run) | goal |');
  say('| --- | ---: | --- | --- |');
  say(
    `| spawn → tools/list answered, 10 servers configured, warm cache (${ROUNDS} runs) | ${span(serveStart)}; servers started: ${Math.max(...childCounts)} | \`node -e ""\` spawn → exit: ${span(nodeStart)} (serve adds ${ms(serveStart.p50 - nodeStart.p50)} at p50); one of those servers directly, spawn → tools/list: ${span(backendStart)}; \`mcp-smart --version\`: ${span(stats(versionWalls))}; starting + listing all 10 directly (in-process, ${directWalls.length} runs): ${span(stats(directWalls))} | < 300 ms, none started |`,
  );

  // 3. Added latency per forwarded call: everything's echo, directly and through serve (tools mode).
  const echoTimes = async (client, name, args, n) => {
    const times = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await client.callTool({ name, arguments: args });
      times.push(performance.now() - t);
    }
    return times;
  };
  const everythingPath = join(REPO, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
  const directClient = new Client({ name: 'bench', version: '1' });
  await directClient.connect(
    new StdioClientTransport({ command: process.execPath, args: [everythingPath, 'stdio'], stderr: 'ignore' }),
  );
  const viaClient = new Client({ name: 'bench', version: '1' });
  await viaClient.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '--demo', '-s', 'everything', 'serve', '--mode', 'tools', '--no-learn'],
      env,
      stderr: 'ignore',
    }),
  );
  const viaMeta = new Client({ name: 'bench', version: '1' });
  await viaMeta.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '--demo', '-s', 'everything', 'serve', '--mode', 'meta', '--no-learn'],
      env,
      stderr: 'ignore',
    }),
  );
  const N = Number(process.env.BENCH_SERVE_CALLS ?? 900);
  await echoTimes(directClient, 'echo', { message: 'hi' }, 20);
  await echoTimes(viaClient, 'echo', { message: 'hi' }, 20);
  await echoTimes(viaMeta, 'call_tool', { name: 'everything.echo', arguments: { message: 'hi' } }, 20);
  const direct = [];
  const via = [];
  const meta = [];
  const ROUND = 30;
  for (let round = 0; round < N / ROUND; round++) {
    direct.push(...(await echoTimes(directClient, 'echo', { message: 'hi' }, ROUND)));
    via.push(...(await echoTimes(viaClient, 'echo', { message: 'hi' }, ROUND)));
    meta.push(
      ...(await echoTimes(viaMeta, 'call_tool', { name: 'everything.echo', arguments: { message: 'hi' } }, ROUND)),
    );
  }
  await Promise.all([directClient.close(), viaClient.close(), viaMeta.close()]);
  const [d, v, m] = [stats(direct), stats(via), stats(meta)];
  const added = (x) => `+${ms(x.p50 - d.p50)} / +${ms(x.p95 - d.p95)}`;
  say(
    `| forwarded call (everything.echo, ${N} calls each, interleaved in rounds) | tools mode ${span(v)} (added ${added(v)}); call_tool ${span(m)} (added ${added(m)}) | direct connection to the same server: ${span(d)} | added p50 < 1 ms |`,
  );

  // 4. find_tool on LiveMCPBench, in-process, beside rankTools alone on the same index inputs.
  const runtime = new ServeRuntime({
    setup: {
      definitions: [],
      known: new Map(liveServers.map((s) => [s.name, s])),
      config: {},
      warnings: [],
      cache: null,
      usageStore: join(dir, 'u.json'),
    },
    mode: 'meta',
    level: 'lossless',
    limit: 20000,
    key: 'mcp-smart',
    activate: false,
    counting,
    usage: { tools: {} },
    learn: false,
    spawnTimeoutMs: 1000,
    callTimeoutMs: 1000,
    log: () => undefined,
    now: () => Date.now(),
    clock: () => performance.now(),
  });
  await runtime.init();
  await runtime.warm();
  const intents = live.cases.map((c) => c.intent);
  for (const intent of intents.slice(0, 10)) await runtime.findTool({ intent });
  const findTimes = [];
  for (const intent of intents) {
    const t = performance.now();
    await runtime.findTool({ intent, k: 5 });
    findTimes.push(performance.now() - t);
  }
  const index = buildDiscoverIndex(live.tools, { vectors: await loadShippedWordVectors() });
  const rankTimes = [];
  for (const intent of intents) {
    const t = performance.now();
    rankTools(index, intent, { engine: 'hybrid', k: 5 });
    rankTimes.push(performance.now() - t);
  }
  say(
    `| find_tool on LiveMCPBench (${intents.length} intents, 527 tools) | ${span(stats(findTimes))} | rankTools alone on the same intents: ${span(stats(rankTimes))} | p50 < 5 ms |`,
  );

  // 5. RSS of serve with the 527 LiveMCPBench tools (meta mode, after one find_tool).
  const rssClient = new Client({ name: 'bench', version: '1' });
  const rssTransport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--snapshot', liveSnap, 'serve', '--mode', 'meta', '--no-learn'],
    env,
    stderr: 'ignore',
  });
  await rssClient.connect(rssTransport);
  await rssClient.listTools();
  await rssClient.callTool({ name: 'find_tool', arguments: { intent: 'search academic papers' } });
  const status = readFileSync(`/proc/${rssTransport.pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  await rssClient.close();
  say(`| RSS of serve with 527 tools (meta, after a find_tool) | ${(rssKb / 1024).toFixed(0)} MB | — | < 150 MB |`);
  await erasAndStores({ REPO, BIN, env, dir, stats, span, ms }, say);
  await telemetryCalls({ REPO, BIN, env, dir, stats, span, ms }, say);
  await callPath({ REPO, BIN, env, dir, stats, span, ms }, say);
}
