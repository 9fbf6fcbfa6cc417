// bench/elicit-first-call.mjs — issue 40 (CI): the first bridged elicitation round trip of a 2026-07-28 client, as
// the conformance suite's server-stateless check HttpServerNoIndependentRequestsOnStream makes it. `serve --mode tools
// --transport http` in front of the conformance fixture over stdio (as scripts/conformance.mjs starts it, with its
// warm-up: one 2026-07-28 tools/list declaring nothing, then its summary line), then the suite's call: tools/call
// test_streaming_elicitation whose _meta declares elicitation. Prints per round the milliseconds from the request to
// the first byte of its answer (the suite reads the stream for 600 ms) for that first call and for a second one, and
// whether serve restarted the server behind in between (its "restarts to declare" line).
//   --declared-first  the warm-up declares elicitation too and waits until the server behind runs with it: the same
//                     call when the server needs no restart (what the first call costs without one)
//   --root DIR        the checkout whose bin/mcp-smart.js runs (default: this one; a base build copied aside)
//   --rounds N        fresh serve processes, one after another (default 3)
// Run with `for i in 1 2; do (while :; do :; done) & done` beside it for the CI case (kill the loops afterwards).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { 'declared-first': { type: 'boolean' }, root: { type: 'string' }, rounds: { type: 'string' } },
});
const root = resolve(values.root ?? REPO);
const rounds = Number(values.rounds ?? 3);
const FIXTURE = join(REPO, 'fixtures', 'servers', 'conformance-server.mjs');
const VERSION = '2026-07-28';

const meta = (caps) => ({
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'bench-elicit', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': caps,
});

/** A 2026-07-28 request; resolves with the milliseconds to the answer's first byte and its text. */
async function request(url, method, params) {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': method,
    ...(params.name ? { 'mcp-name': params.name } : {}),
  };
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const reader = res.body.getReader();
  const first = await reader.read();
  const ms = performance.now() - started;
  let text = new TextDecoder().decode(first.value ?? new Uint8Array());
  for (let r = first; !r.done;) if ((r = await reader.read()).value) text += new TextDecoder().decode(r.value);
  return { ms, text };
}

async function round(declaredFirst) {
  const tmp = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-elicit-'));
  const home = join(tmp, 'home');
  mkdirSync(home);
  const config = join(tmp, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { conformance: { command: process.execPath, args: [FIXTURE] } } }),
  );
  const args = ['serve', '--mode', 'tools', '--transport', 'http', '--port', '0', '-c', config];
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
  };
  const child = spawn(process.execPath, [join(root, 'bin', 'mcp-smart.js'), ...args], {
    env,
    cwd: tmp,
    detached: true,
  });
  let err = '';
  child.stdout.resume();
  child.stderr.on('data', (d) => (err += d));
  const until = async (re) => {
    while (!re.test(err)) {
      if (child.exitCode !== null) throw new Error(`serve ended: ${err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  try {
    await until(/listening on http:\/\/\S+/);
    const url = /listening on (http:\/\/\S+)/.exec(err)[1];
    const warmCaps = declaredFirst ? { elicitation: {} } : {};
    await request(url, 'tools/list', { _meta: meta(warmCaps) });
    await until(/tools\/list holds \d+ tools? \(/);
    // The server behind runs declaring elicitation once a call declaring it has gone through.
    if (declaredFirst)
      await request(url, 'tools/call', { name: 'test_simple_text', arguments: {}, _meta: meta(warmCaps) });
    const restartsBefore = err.split('restarts to declare').length - 1;
    const call = () =>
      request(url, 'tools/call', {
        name: 'test_streaming_elicitation',
        arguments: {},
        _meta: meta({ elicitation: {} }),
      });
    const first = await call();
    const second = await call();
    if (!/input_required/.test(first.text)) throw new Error(`not input_required: ${first.text.slice(0, 200)}`);
    return {
      firstMs: Math.round(first.ms),
      secondMs: Math.round(second.ms),
      restartedInCall: err.split('restarts to declare').length - 1 > restartsBefore,
    };
  } finally {
    process.kill(-child.pid, 'SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    rmSync(tmp, { recursive: true, force: true });
  }
}

console.log(
  `root ${root}${values['declared-first'] ? ' (declared first)' : ''}; load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (let i = 0; i < rounds; i++) console.log(JSON.stringify(await round(values['declared-first'] === true)));
