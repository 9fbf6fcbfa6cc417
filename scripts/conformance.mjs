#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned) against mcp-smart in three parts
// and compares each scenario's outcome with conformance/expected-failures.json (one section per part, a reason per
// entry). Two requirement sets, each with its own pinned suite (both devDependencies):
//   2025-11-25  conformance 0.1.16, every scenario of the server, serve and client parts
//   2026-07-28  the prerelease conformance 0.2.0-alpha.12 (devDependency alias mcp-conformance-2026-07-28), exactly
//               the scenarios that revision requires, at its wire: the serve and client parts (the fixture of the
//               server part is a 2025 server; serve in front of it is what answers 2026-07-28 clients). Its expected
//               failures are the file's "2026-07-28" section, again one section per part.
// The parts:
//   server  the server scenarios against fixtures/servers/conformance-server.mjs over Streamable HTTP (the fixture
//           the serve part stands in front of: it shows what the fixture itself passes)
//   serve   the server scenarios against `mcp-smart serve --mode tools --transport http` in front of that fixture
//           over stdio
//   client  the client scenarios with mcp-smart as the client under test: this script's --as-client mode, which
//           runs `mcp-smart --no-cache dump --auth-open <follower> --url <url>` (the OAuth client; the follower,
//           fixtures/oauth/follow-redirects.mjs, follows the test server's redirects: its authorization endpoint
//           approves at once), then `mcp-smart serve --mode tools` with that server as its only one, driven by an
//           SDK client that lists the tools and calls each one with the arguments the suite's context gives for it
//           (toolCalls), else those it can fill from the input schema alone, accepts elicitation forms as prefilled with their defaults, and when a call
//           answers "run `mcp-smart login <server>`" runs that login and calls once more. No scenario is named.
// The suite needs Node 22: --node PATH, else this script's own Node when it is 22+, else the pinned npm package
// `node@22` installed by `npm run conformance:setup` (this script's --install-node; CI's .ci/run does it) into
// node_modules/.cache/mcp-smart-node22. Nothing is downloaded by a run itself. The install's folder has a
// package.json that allows the package's install script (that script fetches the binary; npm 11 warns about, or under
// strict-allow-scripts refuses, scripts that allowScripts does not cover, and ignore-scripts would skip it: no binary
// would arrive). Everything temporary is removed at the end. The serve and client parts run the build: `npm run
// build` first.
//
// Usage: node scripts/conformance.mjs [--server] [--serve] [--client] [--scenario NAME]... [--suite all|active|pending]
//                                     [--requirements 2025-11-25|2026-07-28]... [--target <url | "command with {port}">]
//                                     [--node PATH] [--expected FILE] [--jobs N] [--verbose] [--keep]
//        node scripts/conformance.mjs --install-node
//   (no part named)  all three parts
//   --server         the server part; --serve the serve part; --client the client part (any combination)
//   --scenario NAME  only that scenario, in the named parts where it is one (repeatable)
//   --suite          2025-11-25 server and serve parts: all scenarios (default), or the suite's active or pending ones
//   --requirements R only that requirement set (repeatable; default both)
//   --jobs N         parts run at a time (default 1; each part has its own target, port and folder, and the
//                    output stays in part order). The client parts take most of the time; all five at once on 2
//                    busy CPUs (load ~22) failed 8 + 9 client scenarios (token requests not made in time) that
//                    passed one part at a time: see bench/RESULTS.md, "CI speed"
//   --install-node   install the pinned node@22 into node_modules/.cache/mcp-smart-node22 (npm registry) and exit
//   --target URL     the server part against an already running server instead of the fixture;
//                    --target "cmd … {port} …" starts one ({port} = a free port; run from the repository root, split
//                    on spaces, no shell). Only with the server part.
// Prints one line per scenario and a summary line per part. Exit codes: 0 every scenario as expected; 1 an
// unexpected failure or an unexpected pass (a listed scenario that passes: remove its entry); 2 usage or setup error.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The requirement sets: each one's pinned suite (its folder in node_modules) and the parts that run it. */
const SUITES = {
  '2025-11-25': { version: '0.1.16', dir: '@modelcontextprotocol/conformance', parts: ['server', 'serve', 'client'] },
  '2026-07-28': { version: '0.2.0-alpha.12', dir: 'mcp-conformance-2026-07-28', parts: ['serve', 'client'] },
};
const REQUIREMENTS = Object.keys(SUITES);
/** The Node 22 that `--install-node` installs (pinned) and where; npm ci empties node_modules, so CI installs after it. */
const NODE22_VERSION = '22.23.3';
const NODE22_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.cache', 'mcp-smart-node22');
const EXPECTED_DEFAULT = join(REPO, 'conformance', 'expected-failures.json');
let EXPECTED_FILE = EXPECTED_DEFAULT;
const FIXTURE = join(REPO, 'fixtures', 'servers', 'conformance-server.mjs');
const SCRIPT = fileURLToPath(import.meta.url);
const CLI = join(REPO, 'bin', 'mcp-smart.js');
/** The "browser" of the client part: follows the test server's redirects (its authorization endpoint approves at once). */
const FOLLOWER = join(REPO, 'fixtures', 'oauth', 'follow-redirects.mjs');
/** The client ID metadata document URL the suite's auth/basic-cimd scenario expects a client to present. */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';
/** Where --as-client makes its scratch homes (the run's temp folder, passed through the suite's environment). */
const CLIENT_TMP_ENV = 'MCP_SMART_CONFORMANCE_CLIENT_TMP';

class SetupError extends Error {}

const PARTS = ['server', 'serve', 'client'];

function parseCli(argv) {
  const opts = { scenarios: [], suite: 'all', parts: [], requirements: [], verbose: false, keep: false, jobs: 1 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new SetupError(`${a} needs a value`);
      return v;
    };
    if (a === '--target') opts.target = value();
    else if (a === '--scenario') opts.scenarios.push(value());
    else if (a === '--suite') opts.suite = value();
    else if (a === '--requirements') opts.requirements.push(value());
    else if (a === '--install-node') opts.installNode = true;
    else if (a === '--node') opts.node = value();
    else if (a === '--jobs') {
      opts.jobs = Number(value());
      if (!Number.isInteger(opts.jobs) || opts.jobs < 1)
        throw new SetupError('--jobs must be a whole number, 1 or more');
    } else if (a === '--expected') EXPECTED_FILE = value();
    else if (PARTS.includes(a.slice(2)) && a.startsWith('--')) opts.parts.push(a.slice(2));
    else if (a === '--verbose') opts.verbose = true;
    else if (a === '--keep') opts.keep = true;
    else if (a === '--help' || a === '-h') opts.help = true;
    else throw new SetupError(`unknown option ${a} (see the usage at the top of scripts/conformance.mjs)`);
  }
  if (opts.target && opts.parts.some((p) => p !== 'server'))
    throw new SetupError('--target replaces the fixture of the server part: use it with --server alone');
  if (opts.target) opts.parts = ['server'];
  for (const r of opts.requirements) {
    if (!REQUIREMENTS.includes(r)) throw new SetupError(`--requirements must be ${REQUIREMENTS.join(' or ')}`);
  }
  if (opts.requirements.length === 0) opts.requirements = opts.target ? ['2025-11-25'] : [...REQUIREMENTS];
  opts.requirements = REQUIREMENTS.filter((r) => opts.requirements.includes(r));
  if (opts.parts.length === 0) opts.parts = [...PARTS];
  opts.parts = PARTS.filter((p) => opts.parts.includes(p));
  if (!['all', 'active', 'pending'].includes(opts.suite))
    throw new SetupError(`--suite must be all, active or pending`);
  return opts;
}

/** Runs a program (never through a shell); resolves with its exit code and output. */
function run(cmd, args, { cwd, env, timeoutMs = 600_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => reject(new SetupError(`could not run ${cmd}: ${e.message}`)));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), out, err });
    });
  });
}

const lastLines = (text, n = 8) => text.trim().split('\n').slice(-n).join('\n');

const NODE22_BIN = join(NODE22_DIR, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');

/** A Node 22+ binary: --node, this process when it is 22+, or the one `--install-node` put in NODE22_DIR. */
async function node22(opts) {
  const major = (v) => Number(/^v(\d+)/.exec(v)?.[1] ?? 0);
  if (opts.node) {
    const v = await run(opts.node, ['--version']);
    if (major(v.out.trim()) < 22)
      throw new SetupError(`--node ${opts.node} is ${v.out.trim()}; the suite needs Node 22+`);
    return opts.node;
  }
  if (major(process.version) >= 22) return process.execPath;
  if (existsSync(NODE22_BIN)) return NODE22_BIN;
  throw new SetupError(
    `the suite needs Node 22 and this is ${process.version}: run \`npm run conformance:setup\` once (installs the ` +
      `pinned node@${NODE22_VERSION} from the npm registry into node_modules/.cache/mcp-smart-node22), ` +
      'or pass --node <path to a Node 22+>',
  );
}

/** --install-node: the pinned node@22 into NODE22_DIR (the only step that downloads; CI runs it after npm ci). */
async function installNode22() {
  rmSync(NODE22_DIR, { recursive: true, force: true });
  mkdirSync(NODE22_DIR, { recursive: true });
  // allowScripts: npm 11 runs a dependency's install script only when this field covers it.
  writeFileSync(
    join(NODE22_DIR, 'package.json'),
    JSON.stringify({ name: 'mcp-smart-conformance-node22', private: true, allowScripts: { node: true } }),
  );
  process.stderr.write(`installing node@${NODE22_VERSION} into ${NODE22_DIR} (npm registry) …\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = await run(
    npm,
    ['install', '--no-audit', '--no-fund', '--ignore-scripts=false', '--save-exact', `node@${NODE22_VERSION}`],
    { cwd: NODE22_DIR },
  );
  if (r.code !== 0)
    throw new SetupError(`npm install node@${NODE22_VERSION} failed (exit ${r.code}):\n${lastLines(r.err)}`);
  if (!existsSync(NODE22_BIN)) {
    throw new SetupError(
      `npm installed node@${NODE22_VERSION} but no binary arrived: its install script did not run ` +
        '(is ignore-scripts set in an .npmrc, or does npm deny install scripts?)',
    );
  }
  const v = await run(NODE22_BIN, ['--version']);
  process.stdout.write(`${NODE22_BIN}: ${v.out.trim()}\n`);
}

/** The pinned suite of a requirement set: its devDependency, which must be the pinned version. */
function suiteEntry(requirements) {
  const { version, dir } = SUITES[requirements];
  const local = join(REPO, 'node_modules', ...dir.split('/'));
  let found;
  try {
    found = JSON.parse(readFileSync(join(local, 'package.json'), 'utf8')).version;
  } catch {
    found = undefined;
  }
  if (found !== version) {
    throw new SetupError(
      `the ${requirements} suite is conformance ${version} in node_modules/${dir}, found ${found ?? 'nothing'}: run \`npm ci\``,
    );
  }
  return join(local, 'dist', 'index.js');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const portOpen = (port) =>
  new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => s.end(() => resolve(true)));
    s.once('error', () => resolve(false));
  });

/** The `serve` target: an mcp-smart config naming the fixture over stdio, in the temporary folder. */
function serveTarget(tmp) {
  const config = join(tmp, 'mcp-smart-serve.json');
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { conformance: { command: process.execPath, args: [FIXTURE] } } }, null, 2),
  );
  return {
    label: 'mcp-smart serve (mode tools) in front of the conformance fixture over stdio',
    command: [process.execPath, join(REPO, 'bin', 'mcp-smart.js'), 'serve', '--mode', 'tools'],
    args: ['--transport', 'http', '--port', '{port}', '-c', config],
    isServe: true,
  };
}

/** The environment of a process the runner starts: its HOME, config and caches inside the run's temp folder. */
function scratchEnv(tmp) {
  const home = join(tmp, 'home');
  mkdirSync(home, { recursive: true });
  return { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache') };
}

/**
 * Starts the target and resolves its URL once it accepts connections. The child runs in its own process group so
 * that the whole tree can be ended. A target that exits first is a setup error quoting its last stderr lines.
 */
async function startTarget(target, tmp) {
  const port = await freePort();
  const argv = [...target.command, ...target.args].map((a) => a.replaceAll('{port}', String(port)));
  const env = scratchEnv(tmp);
  const child = spawn(argv[0], argv.slice(1), {
    cwd: target.cwd ?? tmp,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  let exited;
  child.once('exit', (code, signal) => (exited = { code, signal }));
  child.once('error', (e) => (exited = { error: e }));
  // Resolves once the target has exited (it may write its last files after SIGTERM: serve flushes what it
  // learned), so that the temporary folder is removed after it; SIGKILL to the group after 10 s.
  const stop = async () => {
    if (exited || !child.pid) return;
    const gone = new Promise((r) => child.once('exit', r));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const late = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, 10_000);
    await gone;
    clearTimeout(late);
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (exited) {
      const why = exited.error ? exited.error.message : `exit ${exited.code ?? exited.signal}`;
      const hint = target.isServe
        ? '\n`mcp-smart serve` did not start: run `npm run build` first; if the build has no serve command yet ' +
          '(issue 15), --serve cannot run until it lands.'
        : '';
      throw new SetupError(`the target (${argv.join(' ')}) ended before listening (${why}):\n${lastLines(err)}${hint}`);
    }
    const announced = /listening (?:on )?(https?:\/\/\S+)/.exec(out + err)?.[1];
    const url = announced ?? ((await portOpen(port)) ? `http://127.0.0.1:${port}/mcp` : undefined);
    if (url && target.isServe) await warmServe(url, () => err);
    if (url) return { url, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new SetupError(`the target (${argv.join(' ')}) did not listen on 127.0.0.1:${port} within 30 s`);
}

/**
 * serve starts its servers on a client's first message and answers the first tools/list before its token counts
 * (issue 40.1): the tokenizer then loads beside the next requests. The 2026 suite's stream checks read a tools/call's
 * frames for 600 ms only, which that load can outlast on a busy machine; so the suite meets a serve a client has
 * already listed from: one 2026-07-28 tools/list, then its summary line (the counts taken), at most 30 s.
 *
 * Then one tools/call declaring elicitation, as a client that can answer one would send. serve declares to the
 * stdio server behind it what its clients declared, and a stdio server fixes that at initialize, so the first
 * request declaring elicitation restarts the fixture inside that request (bench/elicit-first-call.mjs measures it:
 * 1.3–4.8 s on a busy machine, a node start). The suite's first such request is its 600 ms streaming-elicitation
 * check; after this call it meets the fixture already running with the declaration, as after any such client.
 */
async function warmServe(url, stderr) {
  await warmRequest(url, 0, 'tools/list', {}, {});
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && !/tools\/list holds \d+ tools? \(/.test(stderr()))
    await new Promise((r) => setTimeout(r, 100));
  await warmRequest(url, 1, 'tools/call', { name: 'test_simple_text', arguments: {} }, { elicitation: {} });
}

/** One 2026-07-28 request of the warm-up; its answer is read and not checked (the suite checks serve). */
function warmRequest(url, id, method, params, clientCapabilities) {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
  };
  if (params.name) headers['mcp-name'] = params.name;
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'conformance-warm-up', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': clientCapabilities,
  };
  return fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta } }),
    signal: AbortSignal.timeout(60_000),
  })
    .then((r) => r.text())
    .catch(() => undefined);
}

/**
 * Scenario names: `conformance list --server|--client`, or for a requirement set past 2025-11-25 the scenarios
 * `list --requirements` names under the mode's heading (it lists both modes whatever the flag).
 */
async function listScenarios(node, entry, mode, requirements) {
  const args = requirements === '2025-11-25' ? [] : ['--requirements', requirements];
  const r = await run(node, [entry, 'list', mode === 'server' ? '--server' : '--client', ...args]);
  if (r.code !== 0) throw new SetupError(`conformance list failed:\n${lastLines(r.err || r.out)}`);
  let text = r.out;
  if (args.length > 0) {
    const heading = mode === 'server' ? 'Server scenarios' : 'Client scenarios';
    const start = text.indexOf(heading);
    if (start < 0) throw new SetupError(`conformance list --requirements ${requirements} printed no ${heading}`);
    text = text.slice(start).split(/\n\s*\n/)[0];
  }
  return [...text.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
}

/** Reads `<results>/server-<scenario>-<timestamp>/checks.json` into scenario → checks. */
function readResults(dir, prefix) {
  const byScenario = new Map();
  if (!existsSync(dir)) return byScenario;
  for (const name of readdirSync(dir)) {
    const m = new RegExp(`^${prefix}-(.+)-\\d{4}-\\d{2}-\\d{2}T[\\d-]+Z$`).exec(name);
    if (!m) continue;
    const file = join(dir, name, 'checks.json');
    // A scenario that crashed the runner leaves its folder without checks; report() counts it as failed.
    byScenario.set(m[1], existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
  }
  return byScenario;
}

/**
 * conformance/expected-failures.json: { server: {…}, serve: {…}, client: {…}, "2026-07-28": { serve: {…}, client: {…} } },
 * each scenario → reason; the top-level parts are the 2025-11-25 set.
 */
function loadExpected(part, known, requirements) {
  const doc = JSON.parse(readFileSync(EXPECTED_FILE, 'utf8'));
  const later = REQUIREMENTS.filter((r) => r !== '2025-11-25');
  for (const key of Object.keys(doc)) {
    if (key !== '$comment' && !PARTS.includes(key) && !later.includes(key))
      throw new SetupError(
        `${EXPECTED_FILE}: unknown section ${key} (the parts are ${PARTS.join(', ')}; the later sets ${later.join(', ')})`,
      );
  }
  const section = requirements === '2025-11-25' ? doc : (doc[requirements] ?? {});
  const where = requirements === '2025-11-25' ? part : `${requirements}.${part}`;
  for (const key of Object.keys(section)) {
    if (section !== doc && key !== '$comment' && !SUITES[requirements].parts.includes(key))
      throw new SetupError(
        `${EXPECTED_FILE}: unknown section ${requirements}.${key} (that set runs ${SUITES[requirements].parts.join(', ')})`,
      );
  }
  const entries = section[part] ?? {};
  for (const [scenario, reason] of Object.entries(entries)) {
    if (typeof reason !== 'string' || reason.trim().length < 10) {
      throw new SetupError(`${EXPECTED_FILE}: ${where}.${scenario} needs a reason (a sentence saying why it fails)`);
    }
    if (!known.includes(scenario)) {
      throw new SetupError(
        `${EXPECTED_FILE}: ${where}.${scenario} is not a ${requirements} scenario of conformance ${SUITES[requirements].version}`,
      );
    }
  }
  return new Map(Object.entries(entries));
}

/** One line per scenario and the part's summary line; returns the tally (fail and xpass are the surprises). */
function report(part, scenarios, results, expected, out) {
  const tally = { pass: 0, fail: 0, xfail: 0, xpass: 0 };
  for (const scenario of scenarios) {
    const checks = results.get(scenario);
    const count = (s) => (checks ?? []).filter((c) => c.status === s).length;
    const failed = checks ? count('FAILURE') : 1;
    const detail = checks
      ? `${count('SUCCESS')} ok, ${count('FAILURE')} failed, ${count('WARNING')} warnings`
      : 'no result written (the scenario crashed the runner)';
    const reason = expected.get(scenario);
    let word;
    if (failed === 0 && reason === undefined) word = 'pass';
    else if (failed > 0 && reason !== undefined) word = 'xfail';
    else if (failed > 0) word = 'fail';
    else word = 'xpass';
    tally[word]++;
    const label = { pass: 'PASS ', fail: 'FAIL ', xfail: 'XFAIL', xpass: 'XPASS' }[word];
    out(`${label} ${scenario.padEnd(40)} ${detail}\n`);
    if (word === 'fail') {
      for (const c of (checks ?? []).filter((c) => c.status === 'FAILURE')) {
        out(`        ${c.name}: ${c.errorMessage ?? c.description}\n`);
      }
    }
    if (word === 'pass') {
      for (const c of (checks ?? []).filter((c) => c.status === 'WARNING')) {
        out(`        warning: ${c.name}: ${c.errorMessage ?? c.description}\n`);
      }
    }
    if (word === 'xfail') out(`        expected: ${reason}\n`);
    if (word === 'xpass')
      out(
        `        listed as an expected failure but passed: remove ${part.split(' ').reverse().join('.')}.${scenario} from ${EXPECTED_FILE}\n`,
      );
  }
  const line = summaryLine(part, scenarios.length, tally);
  out(`\n${line}\n\n`);
  return { line, surprises: tally.fail + tally.xpass };
}

const summaryLine = (part, n, t) =>
  `${part}: ${n} scenarios: ${t.pass} passed, ${t.xfail} failed as expected, ` +
  `${t.fail} failed unexpectedly, ${t.xpass} passed unexpectedly`;

const needBuild = (part) => {
  if (!existsSync(join(REPO, 'dist', 'cli.js')))
    throw new SetupError(`the ${part} part runs the built CLI: run \`npm run build\` first`);
};

/** The server part (the fixture, or --target) and the serve part (serve in front of the fixture). */
async function serverPart(part, opts, suite, tmp, out) {
  const { node, entry, known, requirements } = suite;
  const expected = loadExpected(part, known, requirements);
  const label = requirements === '2025-11-25' ? part : `${part} ${requirements}`;
  let target;
  // Each serve part starts in its own folder (HOME, caches): the 2026-07-28 part must not meet the catalogue cache the
  // 2025 part left, where serve starts a server only at its first call, a start the suite's 600 ms stream reads
  // (server-stateless) do not wait for.
  const home = part === 'serve' ? join(tmp, `serve-${requirements}`) : tmp;
  mkdirSync(home, { recursive: true });
  if (part === 'serve') {
    needBuild(part);
    target = serveTarget(home);
  } else if (opts.target && /^https?:\/\//.test(opts.target)) target = { url: opts.target, label: opts.target };
  else if (opts.target) {
    const words = opts.target.split(/\s+/).filter(Boolean);
    if (!words.some((w) => w.includes('{port}'))) throw new SetupError('--target "<command>" must contain {port}');
    target = { label: opts.target, command: words.slice(0, 1), args: words.slice(1), cwd: REPO };
  } else {
    target = {
      label: 'the conformance fixture server',
      command: [process.execPath, FIXTURE],
      args: ['--http', '--port', '{port}'],
    };
  }

  const started = target.url ? { url: target.url, stop: async () => {} } : await startTarget(target, home);
  try {
    const results = join(tmp, `results-${part}-${requirements}`);
    const scenarios = opts.scenarios.length > 0 ? opts.scenarios.filter((s) => known.includes(s)) : undefined;
    out(
      `== ${label}: conformance ${SUITES[requirements].version} server scenarios against ${target.label}: ${started.url}\n\n`,
    );
    // A requirement set runs exactly its scenarios at its wire; one scenario of it runs at that spec version.
    const wire = requirements === '2025-11-25' ? [] : ['--spec-version', requirements];
    const whole = requirements === '2025-11-25' ? ['--suite', opts.suite] : ['--requirements', requirements];
    const runs = scenarios ? scenarios.map((s) => ['--scenario', s, ...wire]) : [whole];
    for (const args of runs) {
      const r = await run(node, [entry, 'server', '--url', started.url, ...args, '-o', results], { cwd: tmp });
      if (opts.verbose) out(r.out + r.err);
    }
    const got = readResults(results, 'server');
    // `all` must show every listed scenario; `active`/`pending` are whatever the runner started (it makes a
    // folder per scenario before running it, so one that crashed is still seen, as failed).
    const ran =
      scenarios ?? (opts.suite === 'all' || requirements !== '2025-11-25' ? known : known.filter((s) => got.has(s)));
    if (ran.length === 0) throw new SetupError(`the suite ran no scenario; rerun with --verbose to see its output`);
    return report(label, ran, got, expected, out);
  } finally {
    await started.stop();
  }
}

/** The checks.json under `dir` (the client runner nests scenario folders by the "/" in names like auth/…). */
function findChecks(dir) {
  if (!existsSync(dir)) return undefined;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === 'checks.json') {
      return JSON.parse(readFileSync(join(entry.parentPath ?? entry.path, entry.name), 'utf8'));
    }
  }
  return undefined;
}

/**
 * The client part: the suite starts a test server per scenario and runs the client under test with the server's
 * URL appended (it splits the command on spaces and runs it through a shell: the paths are quoted). The client
 * under test is this script's --as-client mode (see the top of the file). Two scenarios run at a time.
 */
async function clientPart(opts, suite, tmp, out) {
  const { node, entry, known, requirements } = suite;
  needBuild('client');
  const expected = loadExpected('client', known, requirements);
  const label = requirements === '2025-11-25' ? 'client' : `client ${requirements}`;
  const wire = requirements === '2025-11-25' ? [] : ['--spec-version', requirements];
  const command = `"${process.execPath}" "${SCRIPT}" --as-client`;
  // The suite passes its environment on to the client: the client's homes go into the run's temp folder.
  const env = { ...scratchEnv(tmp), [CLIENT_TMP_ENV]: join(tmp, `clients-${requirements}`) };
  mkdirSync(env[CLIENT_TMP_ENV]);
  const scenarios = opts.scenarios.length > 0 ? opts.scenarios.filter((s) => known.includes(s)) : known;
  out(
    `== ${label}: conformance ${SUITES[requirements].version} client scenarios with mcp-smart as the client (dump, then serve driven by an SDK client)\n\n`,
  );
  const results = new Map();
  let next = 0;
  const worker = async () => {
    while (next < scenarios.length) {
      const i = next++;
      const scenario = scenarios[i];
      const out = join(tmp, `client-${requirements}`, String(i));
      const args = [entry, 'client', '--command', command, '--scenario', scenario, ...wire];
      args.push('--timeout', '60000', '-o', out);
      const r = await run(node, args, { cwd: tmp, env, timeoutMs: 180_000 });
      if (opts.verbose) out(`--- ${scenario}\n${r.out}${r.err}`);
      results.set(scenario, findChecks(out));
    }
  };
  await Promise.all([worker(), worker()]);
  return report(label, scenarios, results, expected, out);
}

// ---- the client under test (--as-client <url>), run by the suite once per client scenario ----

/** A value for one property from its schema alone (default, const, first enum member, else a plain one by type). */
function valueFor(schema) {
  if (!schema || typeof schema !== 'object') return undefined;
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'number':
    case 'integer':
      return Math.min(Math.max(1, schema.minimum ?? 1), schema.maximum ?? 1);
    case 'boolean':
      return true;
    case 'string':
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'null':
      return null;
    case 'array':
      return (schema.minItems ?? 0) === 0 ? [] : undefined;
    case 'object':
      return argumentsFor(schema);
    default:
      return undefined;
  }
}

/** Arguments for a tool from its input schema alone: its required properties only; undefined when one can't be. */
function argumentsFor(schema) {
  const args = {};
  for (const name of schema?.required ?? []) {
    const value = valueFor(schema.properties?.[name]);
    if (value === undefined) return undefined;
    args[name] = value;
  }
  return args;
}

const LOGIN_HINT = /run `mcp-smart login ([^`\s]+)`/;

async function asClient(url) {
  const { Client } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const log = (text) => process.stderr.write(`as-client: ${text}\n`);
  const home = mkdtempSync(join(process.env[CLIENT_TMP_ENV] ?? tmpdir(), 'mcp-smart-client-'));
  const env = {
    ...process.env,
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    MCP_SMART_CONFIG_DIR: join(home, 'config'),
    MCP_SMART_CACHE_DIR: join(home, 'cache'),
    MCP_SMART_DATA_DIR: join(home, 'data'),
    MCP_SMART_OAUTH_CLIENT_METADATA_URL: CIMD_URL,
    NO_COLOR: '1',
  };
  // The scenario's server is the only one, in a config file; pre-registered credentials (the suite's context)
  // reach mcp-smart the way users give them: an `oauth` block whose secret comes from the environment.
  const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
  const oauth = context.client_id
    ? { clientId: context.client_id, ...(context.client_secret ? { clientSecret: '${CONFORMANCE_SECRET}' } : {}) }
    : undefined;
  if (context.client_secret) env.CONFORMANCE_SECRET = context.client_secret;
  const config = join(home, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { conformance: { url, type: 'http', ...(oauth ? { oauth } : {}) } } }),
  );
  const open = `"${process.execPath}" "${FOLLOWER}"`;
  const cli = async (...args) => {
    const r = await run(process.execPath, [CLI, '--no-cache', '-c', config, ...args], {
      cwd: home,
      env,
      timeoutMs: 120_000,
    });
    log(`mcp-smart ${args[args.length - 1] === 'dump' ? 'dump' : args.slice(2).join(' ')}: exit ${r.code}\n${r.err}`);
    return r.code;
  };
  let failures = 0;
  try {
    if ((await cli('--auth-open', open, 'dump')) !== 0) failures++;
    const client = new Client(
      { name: 'mcp-smart-conformance-driver', version: '1.0.0' },
      { capabilities: { elicitation: { form: { applyDefaults: true } } } },
    );
    // A user who accepts the form as presented: the SDK fills in the defaults of the requested schema.
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: {} }));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '-c', config, 'serve', '--mode', 'tools'],
      env,
      cwd: home,
      stderr: 'inherit',
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      log(`serve lists ${tools.length} tools: ${tools.map((t) => t.name).join(', ')}`);
      for (const tool of tools) {
        // The calls the suite's context asks for (toolCalls: name + arguments), else one from the schema alone.
        const asked = (context.toolCalls ?? []).filter((c) => c?.name === tool.name).map((c) => c.arguments ?? {});
        const calls = asked.length > 0 ? asked : [argumentsFor(tool.inputSchema)];
        for (const args of calls) {
          if (args === undefined) {
            log(`${tool.name}: not called (a required argument its schema alone does not give)`);
            continue;
          }
          let result = await client.callTool({ name: tool.name, arguments: args });
          const login = result.isError ? LOGIN_HINT.exec(JSON.stringify(result.content)) : null;
          if (login) {
            log(`${tool.name}: the call asks for a login; running it and calling once more`);
            await cli('--auth-open', open, 'login', login[1]);
            result = await client.callTool({ name: tool.name, arguments: args });
          }
          log(`${tool.name}: ${result.isError ? 'error' : 'ok'}`);
          if (result.isError) failures++;
        }
      }
    } finally {
      await client.close();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return failures > 0 ? 1 : 0;
}

/**
 * Runs the parts, `jobs` at a time (they share no port or file: each has its own target on a free port and its own
 * folder). The output stays in the parts' order: the first unfinished part's lines go out as they come, a later
 * part's once those before it are done. A part's error is thrown after the running parts have ended.
 */
async function runParts(jobs, limit) {
  const texts = jobs.map(() => []);
  const finished = jobs.map(() => false);
  let head = 0;
  const flush = () => {
    while (head < jobs.length) {
      process.stdout.write(texts[head].join(''));
      texts[head] = [];
      if (!finished[head]) break;
      head++;
    }
  };
  const results = [];
  const errors = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length && errors.length === 0) {
      const i = next++;
      try {
        results[i] = await jobs[i]((text) => {
          texts[i].push(text);
          if (i === head) flush();
        });
      } catch (e) {
        errors.push(e);
      } finally {
        finished[i] = true;
        flush();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, jobs.length)) }, worker));
  if (errors.length > 0) throw errors[0];
  return results;
}

async function main() {
  let opts;
  try {
    opts = parseCli(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`conformance: ${e.message}\n`);
    return 2;
  }
  if (opts.help) {
    const lines = readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('\n')
      .slice(1);
    const head = lines.slice(
      0,
      lines.findIndex((l) => !l.startsWith('//')),
    );
    process.stdout.write(head.map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
    return 0;
  }
  if (opts.installNode) {
    try {
      await installNode22();
      return 0;
    } catch (e) {
      process.stderr.write(`conformance: ${e instanceof SetupError ? e.message : e.stack}\n`);
      return 2;
    }
  }
  const tmp = mkdtempSync(join(tmpdir(), 'mcp-smart-conformance-'));
  const cleanup = () => {
    if (!opts.keep) rmSync(tmp, { recursive: true, force: true });
  };
  process.once('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  process.once('SIGTERM', () => {
    cleanup();
    process.exit(143);
  });
  try {
    const node = await node22(opts);
    const sets = [];
    for (const requirements of opts.requirements) {
      const parts = opts.parts.filter((p) => SUITES[requirements].parts.includes(p));
      if (parts.length === 0) continue;
      const entry = suiteEntry(requirements);
      const known = {
        server: await listScenarios(node, entry, 'server', requirements),
        client: parts.includes('client') ? await listScenarios(node, entry, 'client', requirements) : [],
      };
      sets.push({ requirements, parts, entry, known });
    }
    for (const s of opts.scenarios) {
      if (
        !sets.some((set) => set.parts.some((p) => (p === 'client' ? set.known.client : set.known.server).includes(s)))
      )
        throw new SetupError(`unknown scenario ${s} (not one of the ${opts.parts.join(', ')} part)`);
    }
    const jobs = [];
    for (const { requirements, parts, entry, known } of sets) {
      for (const part of parts) {
        const suite = { node, entry, requirements, known: part === 'client' ? known.client : known.server };
        if (opts.scenarios.length > 0 && !opts.scenarios.some((s) => suite.known.includes(s))) continue;
        jobs.push((out) => {
          // Each part in its own folder (its HOME, caches, results): parts running at once share no file.
          const own = join(tmp, `${part}-${requirements}`);
          mkdirSync(own);
          return part === 'client' ? clientPart(opts, suite, own, out) : serverPart(part, opts, suite, own, out);
        });
      }
    }
    const done = await runParts(jobs, opts.jobs);
    const lines = done.map((r) => r.line);
    const surprises = done.reduce((n, r) => n + r.surprises, 0);
    if (lines.length > 1) process.stdout.write(`${lines.join('\n')}\n`);
    return surprises > 0 ? 1 : 0;
  } catch (e) {
    process.stderr.write(`conformance: ${e instanceof SetupError ? e.message : e.stack}\n`);
    return 2;
  } finally {
    if (opts.keep) process.stderr.write(`kept ${tmp}\n`);
    cleanup();
  }
}

if (process.argv[2] === '--as-client') {
  const url = process.argv[process.argv.length - 1];
  process.exitCode = await asClient(url).catch((e) => {
    process.stderr.write(`as-client: ${e.stack ?? e}\n`);
    return 1;
  });
} else process.exitCode = await main();
