#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned) against a server and compares
// each scenario's outcome with conformance/expected-failures.json. The suite needs Node 22: a Node 22 already on the
// machine is used when given (--node, or when this script itself runs on 22+); otherwise the npm package `node@22` is
// installed into a temporary folder whose package.json allows its install script (that script fetches the binary;
// npm 11 warns about, or under strict-allow-scripts refuses, scripts that allowScripts does not cover, and
// ignore-scripts would skip it: no binary would arrive). Everything temporary is removed at the end.
//
// Usage: node scripts/conformance.mjs [--target <url | "command with {port}">] [--serve] [--scenario NAME]...
//                                     [--suite all|active|pending] [--node PATH] [--expected FILE] [--verbose] [--keep]
//   default target  fixtures/servers/conformance-server.mjs over Streamable HTTP on a free loopback port
//   --serve         `mcp-smart serve --mode tools --transport http` in front of that fixture over stdio (needs
//                   `npm run build` and the serve command)
//   --target URL    an already running server; --target "cmd … {port} …" starts one ({port} = a free port;
//                   run from the repository root, split on spaces, no shell)
//   --client        client scenarios instead, with `mcp-smart --no-cache dump --url` (the build) as the client under
//                   test; --target "<client command>" names another client (the suite appends the server URL)
// Exit codes: 0 every scenario as expected; 1 an unexpected failure or an unexpected pass; 2 usage or setup error.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const SUITE_VERSION = '0.1.16';
const EXPECTED_DEFAULT = join(REPO, 'conformance', 'expected-failures.json');
let EXPECTED_FILE = EXPECTED_DEFAULT;
const FIXTURE = join(REPO, 'fixtures', 'servers', 'conformance-server.mjs');

class SetupError extends Error {}

function parseCli(argv) {
  const opts = { scenarios: [], suite: 'all', serve: false, client: false, verbose: false, keep: false };
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
    else if (a === '--node') opts.node = value();
    else if (a === '--expected') EXPECTED_FILE = value();
    else if (a === '--serve') opts.serve = true;
    else if (a === '--client') opts.client = true;
    else if (a === '--verbose') opts.verbose = true;
    else if (a === '--keep') opts.keep = true;
    else if (a === '--help' || a === '-h') opts.help = true;
    else throw new SetupError(`unknown option ${a} (see the usage at the top of scripts/conformance.mjs)`);
  }
  if (opts.serve && opts.target) throw new SetupError('--serve and --target exclude each other');
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

/** A Node 22+ binary: --node, this process when it is 22+, or the `node@22` npm package in `tmp`. */
async function node22(opts, tmp) {
  const major = (v) => Number(/^v(\d+)/.exec(v)?.[1] ?? 0);
  if (opts.node) {
    const v = await run(opts.node, ['--version']);
    if (major(v.out.trim()) < 22)
      throw new SetupError(`--node ${opts.node} is ${v.out.trim()}; the suite needs Node 22+`);
    return opts.node;
  }
  if (major(process.version) >= 22) return process.execPath;
  const dir = join(tmp, 'node22');
  mkdirSync(dir);
  // allowScripts: npm 11 runs a dependency's install script only when this field covers it.
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'mcp-smart-conformance-runner', private: true, allowScripts: { node: true } }),
  );
  process.stderr.write('installing node@22 into a temporary folder (npm registry) …\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = await run(npm, ['install', '--no-audit', '--no-fund', '--ignore-scripts=false', 'node@22'], { cwd: dir });
  if (r.code !== 0) throw new SetupError(`npm install node@22 failed (exit ${r.code}):\n${lastLines(r.err)}`);
  const bin = join(dir, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!existsSync(bin)) {
    throw new SetupError(
      'npm installed node@22 but no binary arrived: its install script did not run ' +
        '(is ignore-scripts set in an .npmrc, or does npm deny install scripts?)',
    );
  }
  return bin;
}

/** The pinned suite: the devDependency when it is the pinned version, else installed into `tmp`. */
async function suiteEntry(tmp) {
  const local = join(REPO, 'node_modules', '@modelcontextprotocol', 'conformance');
  const version = (dir) => {
    try {
      return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
    } catch {
      return undefined;
    }
  };
  if (version(local) === SUITE_VERSION) return join(local, 'dist', 'index.js');
  const dir = join(tmp, 'suite');
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'mcp-smart-conformance-suite', private: true }));
  process.stderr.write(`installing @modelcontextprotocol/conformance@${SUITE_VERSION} into a temporary folder …\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = await run(
    npm,
    ['install', '--no-audit', '--no-fund', `@modelcontextprotocol/conformance@${SUITE_VERSION}`],
    {
      cwd: dir,
    },
  );
  if (r.code !== 0) throw new SetupError(`npm install of the conformance suite failed:\n${lastLines(r.err)}`);
  return join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
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
  const stop = () => {
    if (exited || !child.pid) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
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
    if (announced) return { url: announced, stop };
    if (await portOpen(port)) return { url: `http://127.0.0.1:${port}/mcp`, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new SetupError(`the target (${argv.join(' ')}) did not listen on 127.0.0.1:${port} within 30 s`);
}

/** `conformance list --server` → scenario names. */
async function listScenarios(node, entry, mode) {
  const r = await run(node, [entry, 'list', mode === 'server' ? '--server' : '--client']);
  if (r.code !== 0) throw new SetupError(`conformance list failed:\n${lastLines(r.err || r.out)}`);
  return [...r.out.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
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

/** conformance/expected-failures.json: { server: { scenario: reason }, client: { scenario: reason } }. */
function loadExpected(mode, known) {
  const doc = JSON.parse(readFileSync(EXPECTED_FILE, 'utf8'));
  const entries = doc[mode] ?? {};
  for (const [scenario, reason] of Object.entries(entries)) {
    if (typeof reason !== 'string' || reason.trim().length < 10) {
      throw new SetupError(`${EXPECTED_FILE}: ${mode}.${scenario} needs a reason (a sentence saying why it fails)`);
    }
    if (!known.includes(scenario)) {
      throw new SetupError(`${EXPECTED_FILE}: ${mode}.${scenario} is not a scenario of conformance ${SUITE_VERSION}`);
    }
  }
  return new Map(Object.entries(entries));
}

/** One line per scenario; returns the number of surprises (unexpected failures and unexpected passes). */
function report(scenarios, results, expected) {
  let surprises = 0;
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
    if (word === 'fail' || word === 'xpass') surprises++;
    const label = { pass: 'PASS ', fail: 'FAIL ', xfail: 'XFAIL', xpass: 'XPASS' }[word];
    process.stdout.write(`${label} ${scenario.padEnd(34)} ${detail}\n`);
    if (word === 'fail') {
      for (const c of (checks ?? []).filter((c) => c.status === 'FAILURE')) {
        process.stdout.write(`        ${c.name}: ${c.errorMessage ?? c.description}\n`);
      }
    }
    if (word === 'xfail') process.stdout.write(`        expected: ${reason}\n`);
    if (word === 'xpass')
      process.stdout.write(`        listed as an expected failure but passed: remove it from ${EXPECTED_FILE}\n`);
  }
  process.stdout.write(
    `\n${scenarios.length} scenarios: ${tally.pass} passed, ${tally.xfail} failed as expected, ` +
      `${tally.fail} failed unexpectedly, ${tally.xpass} passed unexpectedly\n`,
  );
  return surprises;
}

async function serverMode(opts, tmp) {
  const node = await node22(opts, tmp);
  const entry = await suiteEntry(tmp);
  const known = await listScenarios(node, entry, 'server');
  const expected = loadExpected('server', known);
  for (const s of opts.scenarios) if (!known.includes(s)) throw new SetupError(`unknown scenario ${s}`);

  let target;
  if (opts.serve) target = serveTarget(tmp);
  else if (opts.target && /^https?:\/\//.test(opts.target)) target = { url: opts.target, label: opts.target };
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

  const started = target.url ? { url: target.url, stop: () => {} } : await startTarget(target, tmp);
  try {
    const results = join(tmp, 'results');
    const scenarios = opts.scenarios.length > 0 ? opts.scenarios : undefined;
    process.stdout.write(`conformance ${SUITE_VERSION} (server scenarios) against ${target.label}: ${started.url}\n\n`);
    const runs = scenarios ? scenarios.map((s) => ['--scenario', s]) : [['--suite', opts.suite]];
    for (const args of runs) {
      const r = await run(node, [entry, 'server', '--url', started.url, ...args, '-o', results], { cwd: tmp });
      if (opts.verbose) process.stdout.write(r.out + r.err);
    }
    const got = readResults(results, 'server');
    // `all` must show every listed scenario; `active`/`pending` are whatever the runner started (it makes a
    // folder per scenario before running it, so one that crashed is still seen, as failed).
    const ran = scenarios ?? (opts.suite === 'all' ? known : known.filter((s) => got.has(s)));
    if (ran.length === 0) throw new SetupError(`the suite ran no scenario; rerun with --verbose to see its output`);
    return report(ran, got, expected);
  } finally {
    started.stop();
  }
}

/** Every checks.json under `dir` (the client runner nests scenario folders by the "/" in names like auth/…). */
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
 * Client scenarios: the suite starts a test server per scenario and runs the client under test with the server's
 * URL appended (it splits the command on spaces and runs it through a shell, so the command must not contain
 * paths with spaces). Default client: `mcp-smart --no-cache dump --url`, the built CLI.
 */
async function clientMode(opts, tmp) {
  if (opts.suite !== 'all') throw new SetupError('--client runs every client scenario, or those named with --scenario');
  const node = await node22(opts, tmp);
  const entry = await suiteEntry(tmp);
  const known = await listScenarios(node, entry, 'client');
  const expected = loadExpected('client', known);
  for (const s of opts.scenarios) if (!known.includes(s)) throw new SetupError(`unknown client scenario ${s}`);
  const bin = join(REPO, 'bin', 'mcp-smart.js');
  if (!opts.target && !existsSync(join(REPO, 'dist', 'cli.js'))) {
    throw new SetupError('the client under test is the built CLI: run `npm run build` first');
  }
  const command = opts.target ?? `${process.execPath} ${bin} --no-cache dump --url`;
  if (/^https?:\/\//.test(command)) throw new SetupError('--client --target takes a client command, not a URL');
  // The runner passes its environment on to the client: keep the client's config, caches and tokens in tmp.
  const env = scratchEnv(tmp);
  const scenarios = opts.scenarios.length > 0 ? opts.scenarios : known;
  process.stdout.write(`conformance ${SUITE_VERSION} (client scenarios) with the client: ${command} <url>\n\n`);
  const results = new Map();
  let next = 0;
  const worker = async () => {
    while (next < scenarios.length) {
      const i = next++;
      const scenario = scenarios[i];
      const out = join(tmp, 'client', String(i));
      const args = [entry, 'client', '--command', command, '--scenario', scenario, '--timeout', '30000', '-o', out];
      const r = await run(node, args, { cwd: tmp, env, timeoutMs: 120_000 });
      if (opts.verbose) process.stdout.write(`--- ${scenario}\n${r.out}${r.err}`);
      results.set(scenario, findChecks(out));
    }
  };
  await Promise.all([worker(), worker()]);
  return report(scenarios, results, expected);
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
    const surprises = opts.client ? await clientMode(opts, tmp) : await serverMode(opts, tmp);
    return surprises > 0 ? 1 : 0;
  } catch (e) {
    process.stderr.write(`conformance: ${e instanceof SetupError ? e.message : e.stack}\n`);
    return 2;
  } finally {
    if (opts.keep) process.stderr.write(`kept ${tmp}\n`);
    cleanup();
  }
}

process.exitCode = await main();
