// bench:serve, part 2 — both protocol eras and each usage store, every measure beside a direct connection to the
// same backend in the same run. The backend is fixtures/servers/modern-server.mjs with `--legacy serve` (an SDK v2
// server that answers 2025 and 2026-07-28 clients alike), so one server is the baseline for both eras. Clients are
// SDK v2 clients: `versionNegotiation: {mode: 'legacy'}` (2025-11-25) and `{mode: {pin: '2026-07-28'}}`, as in
// test/e2e/serve-eras.test.ts.
//   - start-up: spawn → connected → first tools/list answered, serve (tools mode, warm tool-list cache) against the
//     backend spawned directly, per era (BENCH_SERVE_ROUNDS runs each, interleaved);
//   - added latency per forwarded call (echo), per era (BENCH_SERVE_ERA_CALLS calls each, interleaved in rounds);
//   - added latency per forwarded call with learning on a PostgreSQL store (a real server started here), a file
//     store, and no store (`--no-learn`), beside the direct connection; afterwards each store is read back with
//     `store export` to show every call was learned.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { PG_PASSWORD, startPostgresIn } from '../../test/helpers/postgres-server.mjs';

const ERAS = [
  ['2025-11-25 client', { mode: 'legacy' }],
  ['2026-07-28 client', { mode: { pin: '2026-07-28' } }],
];

/** A connected SDK v2 client of the given era, over stdio to `command args`. */
async function connect(negotiation, command, args, env) {
  const client = new Client({ name: 'bench-eras', version: '1' }, { versionNegotiation: negotiation });
  await client.connect(new StdioClientTransport({ command, args, env, stderr: 'ignore' }));
  return client;
}

/** Times for `n` echo calls on `client`. */
async function echoTimes(client, name, n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = await client.callTool({ name, arguments: { message: `m${i}` } });
    times.push(performance.now() - t);
    if (r.isError) throw new Error(`echo failed: ${JSON.stringify(r.content)}`);
  }
  return times;
}

/**
 * Runs part 2 and reports it through `say` (markdown table rows). `m` holds the shared helpers of bench/serve.mjs:
 * { REPO, BIN, env, dir, stats, span, ms }.
 */
export async function erasAndStores(m, say) {
  const { REPO, env, dir, stats, span, ms } = m;
  // BENCH_SERVE_BIN: another build's bin/mcp-smart.js (e.g. a copy of the previous commit's) measured the same way.
  const BIN = process.env.BENCH_SERVE_BIN ?? m.BIN;
  const signed = (x) => `${x < 0 ? '−' : '+'}${ms(Math.abs(x))}`;
  const backend = [join(REPO, 'fixtures', 'servers', 'modern-server.mjs'), '--legacy', 'serve'];
  const config = join(dir, 'modern.json');
  writeFileSync(config, JSON.stringify({ servers: { m: { command: process.execPath, args: backend } } }));
  const serveArgs = (extra) => [BIN, '-c', config, 'serve', '--mode', 'tools', ...extra];
  const ROUNDS = Number(process.env.BENCH_SERVE_ROUNDS ?? 30);
  const CALLS = Number(process.env.BENCH_SERVE_ERA_CALLS ?? 500);
  const ROUND = 25;

  // BENCH_SERVE_ALSO="label=path/to/bin/mcp-smart.js,…": other builds of serve whose forwarded calls are measured
  // in the same rounds (a baseline build beside this one, in the same run); a build that cannot serve an era (one
  // from before 2026-07-28 support, for that client) is left out of that era's rows.
  const also = (process.env.BENCH_SERVE_ALSO ?? '')
    .split(',')
    .filter(Boolean)
    .map((entry) => {
      const at = entry.indexOf('=');
      return { label: entry.slice(0, at), bin: entry.slice(at + 1) };
    });
  const argsWith = (bin, extra) => [bin, '-c', config, 'serve', '--mode', 'tools', ...extra];

  // BENCH_SERVE_ONLY=stores skips the era measures; BENCH_SERVE_ONLY=calls measures only the forwarded calls.
  if (process.env.BENCH_SERVE_ONLY !== 'stores') await eras();
  if (process.env.BENCH_SERVE_ONLY === 'calls') return;
  async function eras() {
    // Start-up, per era: spawn → connect → tools/list, serve (warm cache) and the backend directly, interleaved.
    for (const [, negotiation] of ERAS) {
      const c = await connect(negotiation, process.execPath, serveArgs(['--no-learn']), env); // fills the cache
      await c.listTools();
      await c.close();
    }
    const startup = async (negotiation, args) => {
      const t = performance.now();
      const c = await connect(negotiation, process.execPath, args, env);
      const { tools } = await c.listTools();
      const wall = performance.now() - t;
      await c.close();
      if (!tools.some((x) => x.name === 'echo')) throw new Error('no echo tool listed');
      return wall;
    };
    const starts = ERAS.map(() => ({ serve: [], direct: [] }));
    for (let i = 0; process.env.BENCH_SERVE_ONLY !== 'calls' && i < ROUNDS; i++)
      for (const [e, [, negotiation]] of ERAS.entries()) {
        starts[e].serve.push(await startup(negotiation, serveArgs(['--no-learn'])));
        starts[e].direct.push(await startup(negotiation, backend));
      }
    for (const [e, [label]] of ERAS.entries()) {
      if (starts[e].serve.length === 0) continue;
      const s = stats(starts[e].serve);
      const d = stats(starts[e].direct);
      say(
        `| spawn → connected → first tools/list answered, ${label} (SDK v2; ${ROUNDS} runs, warm cache) | ${span(s)} (${signed(s.p50 - d.p50)} at p50) | the backend spawned and listed directly by the same client: ${span(d)} | — |`,
      );
    }

    // Added latency per forwarded call, per era.
    const pairs = [];
    for (const [label, negotiation] of ERAS) {
      const direct = await connect(negotiation, process.execPath, backend, env);
      const via = await connect(negotiation, process.execPath, serveArgs(['--no-learn']), env);
      const others = [];
      for (const o of also) {
        const client = await connect(negotiation, process.execPath, argsWith(o.bin, ['--no-learn']), env).catch(
          () => undefined,
        );
        // A build that connects but cannot answer this era's call is left out too.
        if (
          client &&
          (await echoTimes(client, 'echo', 1).then(
            () => true,
            () => false,
          ))
        )
          others.push({ ...o, client, t: [] });
        else await client?.close();
      }
      pairs.push({ label, direct, via, others, d: [], v: [] });
    }
    for (const p of pairs) {
      await echoTimes(p.direct, 'echo', 20);
      await echoTimes(p.via, 'echo', 20);
      for (const o of p.others) await echoTimes(o.client, 'echo', 20);
    }
    // The serve builds take turns going first after the direct block, round by round (no build always follows it).
    for (let r = 0; r < CALLS / ROUND; r++)
      for (const p of pairs) {
        p.d.push(...(await echoTimes(p.direct, 'echo', ROUND)));
        const builds = [{ client: p.via, t: p.v }, ...p.others];
        for (let i = 0; i < builds.length; i++) {
          const b = builds[(i + r) % builds.length];
          b.t.push(...(await echoTimes(b.client, 'echo', ROUND)));
        }
      }
    for (const p of pairs) {
      await Promise.all([p.direct.close(), p.via.close(), ...p.others.map((o) => o.client.close())]);
      const [d, v] = [stats(p.d), stats(p.v)];
      say(
        `| forwarded call, ${p.label} (echo, ${CALLS} calls each, interleaved in rounds of ${ROUND}) | ${span(v)} (added ${signed(v.p50 - d.p50)} / ${signed(v.p95 - d.p95)}) | direct connection to the same backend, same era: ${span(d)} | added p50 < 1 ms |`,
      );
      for (const o of p.others) {
        const st = stats(o.t);
        say(
          `| forwarded call, ${p.label}, serve built from ${o.label} (same rounds) | ${span(st)} (added ${signed(st.p50 - d.p50)} / ${signed(st.p95 - d.p95)}; this build against it ${signed(v.p50 - st.p50)} at p50) | direct, as above | — |`,
        );
      }
    }
  }

  // Added latency per forwarded call with learning into each store (2025 client), beside no store and direct.
  const pgServer = await startPostgresIn(mkdtempSync(join(tmpdir(), 'mcp-smart-bench-serve-pg-')));
  try {
    const url = await pgServer.createDatabase('serve_bench');
    const storeEnv = { ...env, PGPASSWORD: PG_PASSWORD };
    const fileStore = join(dir, 'usage-bench.json');
    const legacy = ERAS[0][1];
    const cases = [
      { label: 'no store (`--no-learn`)', args: ['--no-learn'] },
      { label: 'learning into a file store', args: ['--store', fileStore], store: fileStore },
      { label: 'learning into a PostgreSQL store', args: ['--store', url], store: url },
    ];
    const direct = await connect(legacy, process.execPath, backend, storeEnv);
    for (const c of cases) {
      c.client = await connect(legacy, process.execPath, serveArgs(c.args), storeEnv);
      c.times = [];
    }
    await echoTimes(direct, 'echo', 20);
    for (const c of cases) await echoTimes(c.client, 'echo', 20);
    const d = [];
    for (let r = 0; r < CALLS / ROUND; r++) {
      d.push(...(await echoTimes(direct, 'echo', ROUND)));
      for (const c of cases) c.times.push(...(await echoTimes(c.client, 'echo', ROUND)));
    }
    await direct.close();
    // Closing the client ends serve, which writes what is still pending before it exits.
    for (const c of cases) await c.client.close();
    const dst = stats(d);
    const noStore = stats(cases[0].times);
    for (const c of cases) {
      const st = stats(c.times);
      let learned = '';
      if (c.store) {
        const out = join(dir, `export-${cases.indexOf(c)}.json`);
        execFileSync(process.execPath, [BIN, 'store', 'export', out, '--store', c.store], {
          env: storeEnv,
          stdio: 'ignore',
        });
        const tool = JSON.parse(readFileSync(out, 'utf8')).tools['m.echo'];
        learned = `; calls learned, read back: ${tool?.success ?? 0} of ${CALLS + 20}`;
      }
      const against = c.store
        ? `; against no store ${signed(st.p50 - noStore.p50)} / ${signed(st.p95 - noStore.p95)}`
        : '';
      say(
        `| forwarded call, ${c.label} (2025 client, echo, ${CALLS} calls, interleaved in rounds of ${ROUND}) | ${span(st)} (added ${signed(st.p50 - dst.p50)} / ${signed(st.p95 - dst.p95)}${against})${learned} | direct connection to the same backend: ${span(dst)} | ${c.store ? "no store's figure" : 'added p50 < 1 ms'} |`,
      );
    }
  } finally {
    await pgServer.stop();
  }
}
