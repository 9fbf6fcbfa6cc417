// bench:serve, telemetry (issue 38.4) — added latency per forwarded call with OpenTelemetry off and on, beside a
// direct connection to the same backend and, when BENCH_SERVE_BASE_BIN names one, a build from before telemetry
// (e.g. main's bin/mcp-smart.js): the proof that the off hook costs nothing. Backend: fixtures/servers/modern-server.mjs
// `--legacy serve`, 2025-11-25 SDK v2 clients, tools mode, `--no-learn`. "On" exports to a test collector in this
// process (OTLP/HTTP JSON, answered at once); every span it received is counted against the calls made.
// BENCH_SERVE_TELEMETRY_CALLS (default 1000, a multiple of 25) calls per build, interleaved in rounds of 25 with the
// builds taking turns going first after the direct block.
import { createServer } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { writeFileSync } from 'node:fs';
import { processCpuMs } from './proc-cpu.mjs';

const ROUND = 25;

async function connect(command, args, env) {
  const client = new Client({ name: 'bench-telemetry', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  const transport = new StdioClientTransport({ command, args, env, stderr: 'ignore' });
  await client.connect(transport);
  client.pid = transport.pid;
  return client;
}

async function echoTimes(client, n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = await client.callTool({ name: 'echo', arguments: { message: `m${i}` } });
    times.push(performance.now() - t);
    if (r.isError) throw new Error(`echo failed: ${JSON.stringify(r.content)}`);
  }
  return times;
}

/** A collector that counts the spans it receives. */
async function collector() {
  let spans = 0;
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      if (req.url === '/v1/traces')
        for (const rs of JSON.parse(text).resourceSpans ?? [])
          for (const ss of rs.scopeSpans ?? []) spans += (ss.spans ?? []).length;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, spans: () => spans, close: () => server.close() };
}

/** Runs the telemetry measures and reports them through `say`; `m` as in serve-eras-stores.mjs. */
export async function telemetryCalls(m, say) {
  const { REPO, BIN, env, dir, stats, span, ms } = m;
  const signed = (x) => `${x < 0 ? '−' : '+'}${ms(Math.abs(x))}`;
  const CALLS = Number(process.env.BENCH_SERVE_TELEMETRY_CALLS ?? 1000);
  const backend = [join(REPO, 'fixtures', 'servers', 'modern-server.mjs'), '--legacy', 'serve'];
  const config = join(dir, 'telemetry.json');
  writeFileSync(config, JSON.stringify({ servers: { m: { command: process.execPath, args: backend } } }));
  const serveArgs = (bin, extra) => [bin, '-c', config, 'serve', '--mode', 'tools', '--no-learn', ...extra];
  const sink = await collector();
  const builds = [
    { label: 'telemetry off (this build)', args: serveArgs(BIN, []) },
    { label: 'telemetry on, `--otlp` to a local collector', args: serveArgs(BIN, ['--otlp', sink.url]) },
  ];
  const base = process.env.BENCH_SERVE_BASE_BIN;
  if (base)
    builds.push({
      label: `build before telemetry (${process.env.BENCH_SERVE_BASE_LABEL ?? base})`,
      args: serveArgs(base, []),
    });
  const direct = await connect(process.execPath, backend, env);
  for (const b of builds) {
    b.client = await connect(process.execPath, b.args, env);
    b.times = [];
  }
  await echoTimes(direct, 20);
  for (const b of builds) await echoTimes(b.client, 20);
  for (const b of builds) b.cpu0 = processCpuMs(b.client.pid);
  const d = [];
  for (let r = 0; r < CALLS / ROUND; r++) {
    d.push(...(await echoTimes(direct, ROUND)));
    for (let i = 0; i < builds.length; i++) {
      const b = builds[(i + r) % builds.length];
      b.times.push(...(await echoTimes(b.client, ROUND)));
    }
  }
  for (const b of builds) b.cpuPerCall = (processCpuMs(b.client.pid) - b.cpu0) / CALLS;
  await direct.close();
  for (const b of builds) await b.client.close();
  // serve flushes its spans at shutdown (bounded): wait for them to arrive.
  for (let i = 0; i < 100 && sink.spans() < CALLS + 20; i++) await new Promise((r) => setTimeout(r, 50));
  sink.close();
  const dst = stats(d);
  const off = stats(builds[0].times);
  for (const b of builds) {
    const st = stats(b.times);
    const note =
      b === builds[1]
        ? `; spans the collector received: ${sink.spans()} of ${CALLS + 20} calls`
        : b === builds[0]
          ? ''
          : `; telemetry off against it: ${signed(off.p50 - st.p50)} at p50`;
    say(
      `| forwarded call, ${b.label} (echo, 2025-11-25 client, ${CALLS} calls each, interleaved in rounds of ${ROUND}) | ${span(st)} (added ${signed(st.p50 - dst.p50)} / ${signed(st.p95 - dst.p95)}${b === builds[1] ? `; against off ${signed(st.p50 - off.p50)} at p50` : ''}${note}; serve's CPU per call ${ms(b.cpuPerCall)}) | direct connection to the same backend: ${span(dst)} | off: within noise of the build before |`,
    );
  }
}
