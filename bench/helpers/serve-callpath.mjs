// bench:serve, the call path (issue 40 item 2; BENCH_SERVE_PART=callpath alone) — added latency per forwarded
// `tools/call` for a 2025 client on SDK v1 (`@modelcontextprotocol/sdk` 1.32.2) and on SDK v2
// (`@modelcontextprotocol/client`, legacy negotiation), over stdio and over Streamable HTTP, each beside a direct
// stdio connection of the same client library to the same server (server-everything's `echo`) in the same rounds;
// and find_tool's round trip on the 2,781 tools of servers-111 (`serve --mode meta --snapshot`, SDK v1 and v2
// clients over stdio) beside the ranking it runs (rankTools in process on the same index inputs) and a trivial meta-tool call
// on the same connection (the transport's floor). BENCH_SERVE_BASE_BIN: another build's bin/mcp-smart.js measured
// in the same rounds (each build taking its turn first in alternate rounds). BENCH_SERVE_CALLS (default 900, a
// multiple of 30; 0: find_tool's rows alone) and BENCH_SERVE_FINDS (default 400; 0: the call rows alone) scale it.
// Beside each time, the CPU time spent (serve's threads from /proc/<pid>/task/*/schedstat, ns, or process.cpuUsage
// in process): the figure the load moves least.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { DATA, loadServers111 } from './datasets.mjs';
import { liveThreadsCpuMs } from './proc-cpu.mjs';

/** What Claude Code declares (src/core/declared-capabilities.ts): a client that may be asked. */
const CLAUDE_LIKE = { roots: { listChanged: true }, elicitation: {} };

const LIBS = {
  'SDK v1': {
    client: (capabilities = {}) => new ClientV1({ name: 'bench-callpath', version: '1' }, { capabilities }),
    stdio: (o) => new StdioV1(o),
    http: (url) => new HttpV1(new URL(url)),
  },
  'SDK v2': {
    client: (capabilities = {}) =>
      new ClientV2({ name: 'bench-callpath', version: '1' }, { capabilities, versionNegotiation: { mode: 'legacy' } }),
    stdio: (o) => new StdioV2(o),
    http: (url) => new HttpV2(new URL(url)),
  },
};

/** process.cpuUsage's difference in ms (user + system; µs resolution, unmoved by the time the process waits). */
const cpuOf = (d) => (d.user + d.system) / 1000;

/** Times of `n` calls, and the CPU time process `pid` spent meanwhile added to `x.cpu`. */
async function timedBlock(x, name, args, n) {
  const before = liveThreadsCpuMs(x.pid);
  const times = await callTimes(x.client, name, args, n);
  x.cpu += liveThreadsCpuMs(x.pid) - before;
  return times;
}

/** `serve --transport http` started from `bin`: its URL (from stderr), pid and a stop. */
async function startHttp(bin, args, env) {
  const child = spawn(process.execPath, [bin, ...args, '--transport', 'http', '--port', '0'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const url = await new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += String(d);
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve --transport http exited ${code}: ${err}`)));
  });
  return { url, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

/** Times of `n` calls of `name` on `client`; a failed call stops the bench. */
async function callTimes(client, name, args, n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = await client.callTool({ name, arguments: typeof args === 'function' ? args(i) : args });
    times.push(performance.now() - t);
    if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  }
  return times;
}

/** Runs the call-path measures and reports them through `say`; `m` holds bench/serve.mjs's shared helpers. */
export async function callPath(m, say) {
  const { REPO, env, stats, span, ms } = m;
  const builds = [{ label: 'this build', bin: m.BIN }];
  if (process.env.BENCH_SERVE_BASE_BIN) builds.push({ label: 'base', bin: process.env.BENCH_SERVE_BASE_BIN });
  // The ranking reads its word vectors, WordNet and glossary from data/ beside dist/ (../../../data from each module):
  // a build copied without it ranks without them, faster and differently, and its figures mean nothing.
  for (const b of builds) {
    const vectors = join(dirname(dirname(b.bin)), 'data', 'word-vectors.bin');
    if (!existsSync(vectors))
      throw new Error(
        `${b.label} build at ${dirname(dirname(b.bin))} has no data/ (${vectors}): copy or link it there`,
      );
  }
  const N = Number(process.env.BENCH_SERVE_CALLS ?? 900);
  if (N === 0) {
    // BENCH_SERVE_CALLS=0: find_tool's rows alone.
    await findInProcess({ ...m, builds }, say);
    return findRoundTrip({ ...m, builds }, say);
  }
  const ROUND = 30;
  const everything = join(REPO, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
  const serveArgs = ['--demo', '-s', 'everything', 'serve', '--mode', 'tools', '--no-learn'];
  const echo = (i) => ({ message: `m${i}` });
  const stops = [];
  const closing = [];
  try {
    // Every connection: per library, direct stdio, and each build over stdio and over HTTP.
    const rows = [];
    for (const [lib, L] of Object.entries(LIBS)) {
      const open = async (transport, capabilities) => {
        const c = L.client(capabilities);
        await c.connect(transport);
        closing.push(c);
        return c;
      };
      const direct = await open(L.stdio({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }));
      const via = [];
      for (const b of builds) {
        const transport = L.stdio({ command: process.execPath, args: [b.bin, ...serveArgs], env, stderr: 'ignore' });
        const stdio = await open(transport);
        const http = await startHttp(b.bin, serveArgs, env);
        stops.push(http.stop);
        via.push({ label: `${b.label}, stdio`, client: stdio, pid: transport.pid, times: [], cpu: 0 });
        via.push({ label: `${b.label}, HTTP`, client: await open(L.http(http.url)), pid: http.pid, times: [], cpu: 0 });
        // A client that may be asked (Claude Code's declaration), on a serve of its own (serve declares what its
        // clients declare to the servers behind).
        const asked = await startHttp(b.bin, serveArgs, env);
        stops.push(asked.stop);
        const client = await open(L.http(asked.url), CLAUDE_LIKE);
        via.push({ label: `${b.label}, HTTP`, declaring: true, client, pid: asked.pid, times: [], cpu: 0 });
      }
      rows.push({ lib, direct: { client: direct, times: [] }, via });
    }
    for (const r of rows) for (const c of [r.direct, ...r.via]) await callTimes(c.client, 'echo', echo, 50);
    for (let round = 0; round < N / ROUND; round++)
      for (const r of rows) {
        r.direct.times.push(...(await callTimes(r.direct.client, 'echo', echo, ROUND)));
        const order = round % 2 === 0 ? r.via : [...r.via].reverse();
        for (const c of order) c.times.push(...(await timedBlock(c, 'echo', echo, ROUND)));
      }
    for (const r of rows) {
      const d = stats(r.direct.times);
      const cells = (declaring) =>
        r.via
          .filter((c) => (c.declaring === true) === declaring)
          .map((c) => {
            const s = stats(c.times);
            const cpu = ((c.cpu / c.times.length) * 1000).toFixed(0);
            return `${c.label}: ${span(s)} (added +${ms(s.p50 - d.p50)} / +${ms(s.p95 - d.p95)}; serve's CPU ${cpu} µs per call)`;
          })
          .join('; ');
      const what = `(everything.echo, ${N} calls each, interleaved in rounds of ${ROUND})`;
      const baseline = `direct stdio connection, same client library, same server: ${span(d)}`;
      say(
        `| forwarded call, 2025 client on ${r.lib} ${what} | ${cells(false)} | ${baseline} | added p50 ≤ 1.2× slop-mcp's (stdio), ≤ 1.5× (HTTP) |`,
      );
      say(
        `| forwarded call, 2025 client on ${r.lib} declaring roots + elicitation (Claude Code's declaration) ${what} | ${cells(true)} | ${baseline} (the client declaring nothing) | added p50 ≤ 1.5× slop-mcp's (HTTP) |`,
      );
    }
    await Promise.all(closing.splice(0).map((c) => c.close()));
    if (process.env.BENCH_SERVE_FINDS === '0') return;
    await findInProcess({ ...m, builds }, say);
    await findRoundTrip({ ...m, builds }, say);
  } finally {
    await Promise.all(closing.map((c) => c.close().catch(() => undefined)));
    for (const stop of stops) stop();
  }
}

/** find_tool's round trip on servers-111 per build, beside rankTools alone and a trivial meta-tool call. */
async function findRoundTrip(m, say) {
  const { REPO, env, stats, span, ms, builds } = m;
  const { buildDiscoverIndex, loadShippedWordVectors, rankTools } = await import(
    join(REPO, 'dist', 'core', 'discover', 'index.js')
  );
  const snapshot = join(DATA, 'servers-111', 'catalog.snapshot.json');
  const s = loadServers111();
  const intents = [
    ...loadServers111('servers-111-questions.jsonl').cases,
    ...loadServers111('servers-111-commands.jsonl').cases,
  ].map((c) => c.intent);
  const FINDS = Number(process.env.BENCH_SERVE_FINDS ?? 400);
  const index = buildDiscoverIndex(s.tools, { vectors: await loadShippedWordVectors() });
  const clients = [];
  try {
    for (const b of builds)
      for (const [lib, L] of Object.entries(LIBS)) {
        const c = L.client();
        const transport = L.stdio({
          command: process.execPath,
          args: [b.bin, '--snapshot', snapshot, 'serve', '--mode', 'meta', '--no-learn'],
          env,
          stderr: 'ignore',
        });
        await c.connect(transport);
        clients.push({ label: b.label, lib, c, client: c, pid: transport.pid, find: [], floor: [], cpu: 0 });
      }
    const rank = [];
    const intent = (i) => intents[i % intents.length];
    for (const x of clients) await callTimes(x.c, 'find_tool', (i) => ({ intent: intent(i) }), intents.length);
    for (let i = 0; i < intents.length; i++) rankTools(index, intent(i), { engine: 'hybrid', k: 5 });
    for (let i = 0; i < FINDS; i++) {
      const order = i % 2 === 0 ? clients : [...clients].reverse();
      for (const x of order) {
        x.find.push(...(await timedBlock(x, 'find_tool', { intent: intent(i) }, 1)));
        x.floor.push(...(await callTimes(x.c, 'list_tools', { server: 'airbnb' }, 1)));
      }
      const t = performance.now();
      rankTools(index, intent(i), { engine: 'hybrid', k: 5 });
      rank.push(performance.now() - t);
    }
    const r = stats(rank);
    for (const x of clients) {
      const f = stats(x.find);
      const cpu = x.cpu / x.find.length;
      say(
        `| find_tool round trip on servers-111 (2,781 tools, ${FINDS} intents, 2025 client on ${x.lib}, stdio), ${x.label} | ${span(f)}: ${(f.p50 / r.p50).toFixed(2)}× the ranking; serve's CPU ${ms(cpu)} per find (${(cpu / r.p50).toFixed(2)}× the ranking's p50) | rankTools alone (hybrid, k 5), same intents, in process: ${span(r)}; list_tools of one server on the same connection: ${span(stats(x.floor))} | ≤ 2× the ranking |`,
      );
    }
  } finally {
    await Promise.all(clients.map((x) => x.c.close()));
  }
}

/**
 * find_tool in process on servers-111 (meta mode, no store), each build's ServeRuntime.findTool beside rankTools
 * alone on the same intents, alternating per intent: CPU-bound in one process, so the machine's load moves it least.
 */
async function findInProcess(m, say) {
  const { REPO, dir, stats, span } = m;
  const snapshot = JSON.parse(readFileSync(join(DATA, 'servers-111', 'catalog.snapshot.json'), 'utf8'));
  const intents = [
    ...loadServers111('servers-111-questions.jsonl').cases,
    ...loadServers111('servers-111-commands.jsonl').cases,
  ].map((c) => c.intent);
  const runs = [];
  for (const b of m.builds) {
    const dist = join(dirname(dirname(b.bin)), 'dist');
    const load = (p) => import(join(dist, p));
    const { countingWith } = await load('serve/deps.js');
    const { ServeRuntime } = await load('serve/runtime.js');
    const { createTokenCounter } = await load('core/tokens/index.js');
    const runtime = new ServeRuntime({
      setup: {
        definitions: [],
        known: new Map(snapshot.servers.map((s) => [s.name, s])),
        config: {},
        warnings: [],
        cache: null,
        usageStore: join(dir, `callpath-${runs.length}.json`),
      },
      mode: 'meta',
      level: 'lossless',
      limit: 20000,
      key: 'mcp-smart',
      activate: false,
      counting: countingWith(await createTokenCounter('o200k_base')),
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
    const { buildDiscoverIndex, loadShippedWordVectors, rankTools } = await load('core/discover/index.js');
    const index = buildDiscoverIndex(loadServers111().tools, { vectors: await loadShippedWordVectors() });
    for (const q of intents) {
      await runtime.findTool({ intent: q });
      rankTools(index, q, { engine: 'hybrid', k: 5 });
    }
    runs.push({ label: b.label, runtime, index, rankTools, find: [], rank: [], findCpu: [], rankCpu: [] });
  }
  for (let pass = 0; pass < 3; pass++)
    for (const q of intents)
      for (const r of pass % 2 === 0 ? runs : [...runs].reverse()) {
        let t = performance.now();
        let c = process.cpuUsage();
        await r.runtime.findTool({ intent: q });
        r.find.push(performance.now() - t);
        r.findCpu.push(cpuOf(process.cpuUsage(c)));
        t = performance.now();
        c = process.cpuUsage();
        r.rankTools(r.index, q, { engine: 'hybrid', k: 5 });
        r.rank.push(performance.now() - t);
        r.rankCpu.push(cpuOf(process.cpuUsage(c)));
      }
  for (const r of runs) {
    const [f, k, fc, kc] = [r.find, r.rank, r.findCpu, r.rankCpu].map(stats);
    say(
      `| find_tool in process on servers-111 (2,781 tools, ${intents.length} intents × 3, ServeRuntime.findTool), ${r.label} | wall ${span(f)}: ${(f.p50 / k.p50).toFixed(2)}× the ranking; CPU ${span(fc)}: ${(fc.p50 / kc.p50).toFixed(2)}× | rankTools alone (hybrid, k 5), same build, same intents, alternating: wall ${span(k)}, CPU ${span(kc)} | ≤ 2× the ranking |`,
    );
    await r.runtime.close();
  }
}
