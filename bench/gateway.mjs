// bench:gateway — a team's gateway (issue 38.2): 3 `serve --transport http` replicas behind a real HAProxy
// (Debian's /usr/sbin/haproxy, the README's config) sharing a real PostgreSQL store and one state key, every request
// carrying a bearer token of a real OpenID provider (oidc-provider in-process, BENCH_GATEWAY_USERS subjects, default
// one per client; serve --issuer --audience <the HAProxy URL>), against the same load on one replica alone (its own URL the
// audience). BENCH_GATEWAY_CLIENTS concurrent clients (default 100): half 2025-11-25 SDK
// clients with a session (stuck to one replica by HAProxy), half 2026-07-28 clients on the wire (each request to
// any replica). BENCH_GATEWAY_CALLS calls in all (default 20,000): every 10th is `sign_up` on a 2025 server that
// asks its client three times mid-call (input_required rounds for a 2026-07-28 client, whose retries round-robin to
// other replicas than the one holding the call), the rest `echo` on a server that does not ask. Reports p50/p99 per kind for the gateway and for
// one replica alone (added latency = the difference), how many rounds were forwarded between replicas, and — with
// the gateway run — one replica SIGKILLed half-way: what ended how, and the store's learned calls against the calls
// that succeeded. Every call is bounded (BENCH_GATEWAY_CALL_MS, default 30 s): one that overruns counts as hung.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { PG_PASSWORD, startPostgresIn } from '../test/helpers/postgres-server.mjs';
import { haproxyConfig } from '../test/helpers/haproxy-config.mjs';
import { freePort } from '../test/helpers/free-port.mjs';
import { postModernCall } from '../test/helpers/modern-call.mjs';
import { startIssuer } from '../test/helpers/oidc-issuer.mjs';
import { REPO } from './helpers/datasets.mjs';
import { scratchEnv } from './helpers/scratch.mjs';

const BIN = join(REPO, 'bin', 'mcp-smart.js');
const CLIENTS = Number(process.env.BENCH_GATEWAY_CLIENTS ?? 100);
const CALLS = Number(process.env.BENCH_GATEWAY_CALLS ?? 20_000);
const CALL_MS = Number(process.env.BENCH_GATEWAY_CALL_MS ?? 30_000);
// One subject per client by default: serve bounds calls per client by the token's subject (client-key.ts), so the
// one replica alone and the gateway bound each client alike, as a team's members each with their own token.
const USERS = Array.from({ length: Number(process.env.BENCH_GATEWAY_USERS ?? CLIENTS) }, (_, i) => ({
  id: `user${i}`,
  secret: `bench-user-secret-${i}-0123456789abcdef`,
  ttlS: 4 * 3600,
}));
/**
 * Asking servers behind each replica: a 2025 server's request mid-call does not say which call it belongs to, and
 * concurrent 2026-07-28 calls held between rounds on one server are not told apart yet (README, "How the bridge
 * attributes a 2025 server's questions"): each 2026-07-28 client w asks through server asks<w % ASKERS>.
 */
const ASKERS = Number(process.env.BENCH_GATEWAY_ASKERS ?? 5);
const HAPROXY = '/usr/sbin/haproxy';
const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-gateway-'));
const env = scratchEnv(dir, { PGPASSWORD: PG_PASSWORD });
const ALL = { roots: {}, elicitation: {}, sampling: {} };
const ANSWERS = {
  'roots-1': { roots: [{ uri: 'file:///bench', name: 'bench' }] },
  'elicitation-2': { action: 'accept', content: { username: 'alice' } },
  'sampling-3': { model: 'bench-model', role: 'assistant', content: { type: 'text', text: 'Hi' } },
};
const EXPECTED = 'roots: file:///bench\nelicitation: accept {"username":"alice"}\nsampling: bench-model said Hi';
const pct = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] : NaN;
};
const textOf = (r) => (r?.content ?? []).map((c) => c.text ?? '').join('\n');

function startServe(args) {
  const child = spawn(process.execPath, [BIN, 'serve', '--transport', 'http', ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on (http:\/\/[\d.:]+\/mcp)/.exec(err);
      if (m) {
        clearInterval(timer);
        const exited = new Promise((r) => child.once('exit', r));
        resolve({ child, url: m[1], stderr: () => err, stop: () => (child.kill('SIGTERM'), exited) });
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`serve exited: ${err}`));
      }
    }, 50);
  });
}

async function startHaproxy(replicas, port) {
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(
    file,
    haproxyConfig(
      `127.0.0.1:${port}`,
      replicas.map((r) => new URL(r.url).host),
    ),
  );
  const child = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((r) => child.once('exit', r));
  await new Promise((r) => setTimeout(r, 1500));
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => (child.kill('SIGTERM'), exited) };
}

/** A 2026-07-28 tools/call on the wire (test/helpers/modern-call.mjs); its result, or a JSON-RPC error thrown. */
async function post(url, params, signal, token) {
  const headers = { authorization: `Bearer ${token}` };
  const m = await postModernCall(url, params, { client: 'bench', capabilities: ALL, signal, headers });
  if (m.error) throw new Error(`JSON-RPC ${m.error.code}: ${m.error.message}`);
  return m.result;
}

async function modernCall(url, name, args, signal, token) {
  const call = { name, arguments: args };
  let r = await post(url, call, signal, token);
  let rounds = 0;
  while (r.resultType === 'input_required') {
    const inputResponses = Object.fromEntries(Object.keys(r.inputRequests).map((k) => [k, ANSWERS[k]]));
    r = await post(url, { ...call, requestState: r.requestState, inputResponses }, signal, token);
    rounds++;
  }
  return { r, rounds };
}

async function legacyClient(url, token) {
  const client = new Client(
    { name: 'bench', version: '1' },
    { capabilities: ALL, versionNegotiation: { mode: 'legacy' } },
  );
  client.setRequestHandler('roots/list', () => ANSWERS['roots-1']);
  client.setRequestHandler('elicitation/create', () => ANSWERS['elicitation-2']);
  client.setRequestHandler('sampling/createMessage', () => ANSWERS['sampling-3']);
  const requestInit = { headers: { authorization: `Bearer ${token}` } };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
  return client;
}

/**
 * Runs CALLS calls from CLIENTS clients against `url`, client w with `tokens[w % tokens.length]`; `midway` runs once
 * half of them were made.
 */
async function load(url, tokens, midway) {
  const lat = { echo: [], sign_up: [] };
  const outcome = { ok: 0, wrong: 0, errorResult: 0, thrown: 0, hung: 0, reconnected: 0 };
  const errors = new Map();
  const succeeded = { echo: 0, sign_up: 0 };
  let next = 0;
  let rounds = 0;
  let half = false;
  const note = (key) => errors.set(key, (errors.get(key) ?? 0) + 1);
  const worker = async (w) => {
    const legacy = w % 2 === 0;
    const token = tokens[w % tokens.length];
    let client = legacy ? await legacyClient(url, token) : undefined;
    for (;;) {
      const i = next++;
      if (i >= CALLS) break;
      if (!half && i >= CALLS / 2 && midway) {
        half = true;
        midway();
      }
      // sign_up from 2026-07-28 clients only, each on its own asking server (below); 2025 clients call echo.
      const tool = !legacy && i % 10 === 0 ? 'sign_up' : 'echo';
      const name = tool === 'echo' ? 'tiny_echo' : `asks${w % ASKERS}_sign_up`;
      const args = tool === 'echo' ? { message: `m${i}` } : { team: 'bench' };
      const t0 = performance.now();
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), CALL_MS);
      try {
        let r;
        if (legacy) {
          if (!client) {
            client = await legacyClient(url, token);
            outcome.reconnected++;
          }
          r = await client.callTool({ name, arguments: args }, undefined, { signal: abort.signal, timeout: CALL_MS });
        } else {
          const res = await modernCall(url, name, args, abort.signal, token);
          r = res.r;
          rounds += res.rounds;
        }
        const want = tool === 'echo' ? args.message : EXPECTED;
        if (r.isError) {
          outcome.errorResult++;
          note(
            `error result: ${textOf(r)
              .replace(/\([0-9a-f-]{36}\)/, '(…)')
              .slice(0, 140)}`,
          );
        } else if (textOf(r) !== want) {
          outcome.wrong++;
          succeeded[tool]++;
        } else {
          outcome.ok++;
          succeeded[tool]++;
          lat[tool].push(performance.now() - t0);
        }
      } catch (e) {
        if (abort.signal.aborted) outcome.hung++;
        else outcome.thrown++;
        note(`${legacy ? '2025' : '2026'} thrown: ${String(e?.message ?? e).slice(0, 120)}`);
        // A 2025 session lost with its replica: initialize again (HAProxy sends it to a live one).
        if (legacy) {
          await client?.close().catch(() => undefined);
          client = undefined;
        }
      } finally {
        clearTimeout(timer);
      }
    }
    await client?.close().catch(() => undefined);
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, (_, w) => worker(w)));
  return { lat, outcome, errors, succeeded, rounds, seconds: (performance.now() - t0) / 1000 };
}

async function learned(pg, db) {
  const rows = await pg.query(db, 'SELECT tool_id, success FROM mcp_smart_tools');
  const of = (t) => rows.filter((r) => r.tool_id.endsWith(t)).reduce((n, r) => n + Number(r.success), 0);
  return { echo: of('echo'), sign_up: of('sign_up') };
}

const line = (label, res) => {
  const f = (xs) => `p50 ${pct(xs, 0.5).toFixed(1)} ms, p99 ${pct(xs, 0.99).toFixed(1)} ms`;
  return `${label}: ${res.seconds.toFixed(1)} s, ${Math.round(CALLS / res.seconds)} calls/s; echo ${f(res.lat.echo)}; sign_up (3 rounds) ${f(res.lat.sign_up)}`;
};

const pg = await startPostgresIn(mkdtempSync(join(dir, 'pg-')));
const issuer = await startIssuer(USERS);
const tokensFor = (audience) => Promise.all(USERS.map((u) => issuer.token(u, audience, 'mcp')));
const identity = ['--issuer', issuer.url, '--scope', 'mcp'];
const keyFile = join(dir, 'state.keys');
writeFileSync(keyFile, 'bench-state-key-0123456789abcdefghijklmnopqrstuvwxyz\n');
const config = join(dir, 'servers.json');
const asks = { command: process.execPath, args: [join(REPO, 'fixtures', 'servers', 'asks-client.mjs')] };
const tinyArgs = ['catalog-server.mjs', join('catalogs', 'tiny.json')].map((f) => join(REPO, 'fixtures', 'servers', f));
const servers = { tiny: { command: process.execPath, args: tinyArgs } };
for (let k = 0; k < ASKERS; k++) servers[`asks${k}`] = asks;
writeFileSync(config, JSON.stringify({ mcpServers: servers }));
const started = new Date().toISOString();
const load0 = loadavg()[0].toFixed(1);
const running = [];
try {
  // One replica alone: the baseline.
  const aloneDb = await pg.createDatabase('alone');
  const alone = await startServe(['--config', config, '--mode', 'tools', '--store', aloneDb, ...identity]);
  running.push(alone);
  const base = await load(alone.url, await tokensFor(alone.url));
  await alone.stop();
  running.length = 0;

  // Three replicas behind HAProxy; one SIGKILLed half-way.
  const db = await pg.createDatabase('gateway');
  const port = await freePort();
  const lbUrl = `http://127.0.0.1:${port}/mcp`;
  const args = ['--config', config, '--mode', 'tools', '--store', db, '--state-key-file', keyFile, '--debug'];
  for (let i = 0; i < 3; i++) running.push(await startServe([...args, ...identity, '--audience', lbUrl]));
  const lb = await startHaproxy(running, port);
  let killedAt;
  const gw = await load(lb.url, await tokensFor(lbUrl), () => {
    killedAt = new Date().toISOString();
    running[2].child.kill('SIGKILL');
  });
  const forwarded = running.reduce((n, r) => n + (r.stderr().match(/forwarded to replica/g) ?? []).length, 0);
  // Answers that went before their learned call was committed (the store slower than the wait's bound, or failing).
  const unwaited = running.filter((r) => /took over \d+ ms to commit|answers no longer wait/.test(r.stderr())).length;
  await lb.stop();
  await running[0].stop();
  await running[1].stop();
  running.length = 0;
  const store = await learned(pg, 'gateway');

  console.log(`bench:gateway — ${started}, node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? '?'}`);
  console.log(
    `load average at start ${load0}, at end ${loadavg()[0].toFixed(1)} (a shared machine: other work runs beside)`,
  );
  console.log(
    `${CLIENTS} clients (half 2025-11-25 with sessions calling echo, half 2026-07-28 calling echo and, 1 call in 10, sign_up on one of ${ASKERS} asking servers), ${CALLS} calls each run; bearer tokens of ${USERS.length} subjects from a real OpenID provider`,
  );
  console.log(line('one replica alone', base));
  console.log(`  outcomes: ${JSON.stringify(base.outcome)}`);
  for (const [k, n] of [...base.errors].sort((x, y) => y[1] - x[1]).slice(0, 5)) console.log(`    ${n} × ${k}`);
  console.log(line('3 replicas + HAProxy', gw));
  console.log(
    `  added latency: echo p50 ${(pct(gw.lat.echo, 0.5) - pct(base.lat.echo, 0.5)).toFixed(1)} ms, p99 ${(pct(gw.lat.echo, 0.99) - pct(base.lat.echo, 0.99)).toFixed(1)} ms; sign_up p50 ${(pct(gw.lat.sign_up, 0.5) - pct(base.lat.sign_up, 0.5)).toFixed(1)} ms, p99 ${(pct(gw.lat.sign_up, 0.99) - pct(base.lat.sign_up, 0.99)).toFixed(1)} ms`,
  );
  console.log(`  2026-07-28 retries: ${gw.rounds}; forwarded to the replica holding the call: ${forwarded}`);
  console.log(`  replica 3 SIGKILLed at ${killedAt}; outcomes: ${JSON.stringify(gw.outcome)}`);
  for (const [k, n] of [...gw.errors].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`    ${n} × ${k}`);
  console.log(
    `  learned in PostgreSQL: ${JSON.stringify(store)}; succeeded at the clients: ${JSON.stringify(gw.succeeded)}`,
  );
  console.log(`  replicas that answered some call before its learned row was committed: ${unwaited} of 3`);
} finally {
  for (const r of running) r.child.kill('SIGKILL');
  await issuer.close();
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
