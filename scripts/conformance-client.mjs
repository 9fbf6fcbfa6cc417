// Runs the client scenarios of the official MCP conformance suite against mcp-smart.
//
//   node scripts/conformance-client.mjs [--all] [--scenario NAME ...] [--keep DIR]
//
// Installs node@22 and @modelcontextprotocol/conformance (pinned below) into a temporary folder (install
// scripts allowed for `node`, which fetches its binary), then runs each client scenario with
// `node bin/mcp-smart.js --no-cache dump --auth-open <headless browser> --url <url>` as the client under
// test, each in a fresh HOME and token store. Prints PASS / FAIL per scenario and compares with
// conformance/expected-client-failures.json ({scenario: reason}). Exit 1 on an unexpected failure or on an
// expected failure that now passes (a stale entry). Needs `npm run build` first.
//
// Default scenarios: those of the 2025-06-18 and 2025-11-25 specs; --all adds 2025-03-26, draft and extension.
// `--as-client <url>` is the mode the suite runs: it starts mcp-smart for one scenario (internal).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SUITE = '@modelcontextprotocol/conformance@0.1.16';
const NODE = 'node@22';
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(REPO, 'bin', 'mcp-smart.js');
const FOLLOWER = join(REPO, 'fixtures', 'oauth', 'follow-redirects.mjs');
const EXPECTED = join(REPO, 'conformance', 'expected-client-failures.json');
/** The client ID metadata document URL the suite's CIMD scenario expects a client to present. */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';
const DEFAULT_SPECS = ['2025-06-18', '2025-11-25'];

const args = process.argv.slice(2);

/** The suite's client command: one mcp-smart run against the scenario's server URL. */
function asClient(url) {
  const home = mkdtempSync(join(tmpdir(), 'mcp-smart-conformance-home-'));
  const env = {
    ...process.env,
    HOME: home,
    USERPROFILE: home,
    MCP_SMART_CONFIG_DIR: join(home, 'config'),
    MCP_SMART_CACHE_DIR: join(home, 'cache'),
    MCP_SMART_DATA_DIR: join(home, 'data'),
    MCP_SMART_OAUTH_CLIENT_METADATA_URL: CIMD_URL,
    NO_COLOR: '1',
  };
  const open = `"${process.execPath}" "${FOLLOWER}"`;
  let argv = ['--no-cache', 'dump', '--auth-open', open, '--url', url];
  // Pre-registered credentials reach mcp-smart the way users give them: an `oauth` block in a config file.
  const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
  if (context.client_id) {
    const config = join(home, 'mcp.json');
    const oauth = { clientId: context.client_id, ...(context.client_secret ? { clientSecret: '${CONF_SECRET}' } : {}) };
    writeFileSync(config, JSON.stringify({ mcpServers: { conformance: { url, type: 'http', oauth } } }));
    env.CONF_SECRET = context.client_secret ?? '';
    argv = ['--no-cache', '--config', config, 'dump', '--auth-open', open];
  }
  const child = spawn(process.execPath, [CLI, ...argv], { stdio: 'inherit', env, cwd: home });
  child.on('exit', (code, signal) => {
    rmSync(home, { recursive: true, force: true });
    process.exit(code ?? (signal ? 1 : 0));
  });
}

function install(dir) {
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'mcp-smart-conformance', private: true, allowScripts: { node: true } }, null, 2),
  );
  console.error(`Installing ${SUITE} and ${NODE} into ${dir} …`);
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', SUITE, NODE], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`npm install failed (exit ${r.status})`);
}

function listScenarios(node22, suiteCli, all) {
  const out = spawnSync(node22, [suiteCli, 'list'], { encoding: 'utf8' }).stdout;
  const section = out.slice(out.indexOf('Client scenarios'));
  const scenarios = [];
  for (const m of section.matchAll(/^\s+- (\S+) \[([^\]]*)\]/gm)) {
    const specs = m[2].split(',');
    if (all || specs.some((s) => DEFAULT_SPECS.includes(s))) scenarios.push({ name: m[1], specs: m[2] });
  }
  return scenarios;
}

function runScenario(node22, suiteCli, name, outDir) {
  const command = `"${process.execPath}" "${fileURLToPath(import.meta.url)}" --as-client`;
  const r = spawnSync(node22, [suiteCli, 'client', '--command', command, '--scenario', name, '-o', outDir], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  // Scenario names like auth/x put their results one folder deeper.
  const found = readdirSync(outDir, { recursive: true }).find((f) => String(f).endsWith('checks.json'));
  const checks = found ? JSON.parse(readFileSync(join(outDir, String(found)), 'utf8')) : [];
  const failed = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
  return { passed: r.status === 0, failed, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

function main() {
  const all = args.includes('--all');
  const only = args.flatMap((a, i) => (args[i - 1] === '--scenario' ? [a] : []));
  const keepAt = args.indexOf('--keep');
  const keep = keepAt >= 0 ? resolve(args[keepAt + 1]) : undefined;
  if (!existsSync(join(REPO, 'dist', 'cli.js'))) {
    console.error('dist/ is missing: run `npm run build` first.');
    process.exit(2);
  }
  const dir = keep ?? mkdtempSync(join(tmpdir(), 'mcp-smart-conformance-'));
  mkdirSync(dir, { recursive: true });
  try {
    const node22 = join(dir, 'node_modules', 'node', 'bin', 'node');
    const suiteCli = join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
    if (!existsSync(node22) || !existsSync(suiteCli)) install(dir);
    const expected = JSON.parse(readFileSync(EXPECTED, 'utf8'));
    let scenarios = listScenarios(node22, suiteCli, all);
    if (only.length > 0) scenarios = scenarios.filter((s) => only.includes(s.name));
    let bad = 0;
    const counts = { pass: 0, fail: 0, xfail: 0, stale: 0 };
    for (const { name, specs } of scenarios) {
      const outDir = mkdtempSync(join(dir, 'results-'));
      const { passed, failed, output } = runScenario(node22, suiteCli, name, outDir);
      const reason = expected[name];
      let label;
      if (passed && !reason) ((label = 'PASS'), counts.pass++);
      else if (passed) ((label = 'STALE (passes, but listed as expected failure)'), counts.stale++, bad++);
      else if (reason) ((label = `xfail (${reason})`), counts.xfail++);
      else ((label = 'FAIL'), counts.fail++, bad++);
      console.log(
        `${label.startsWith('PASS') ? 'PASS ' : label.startsWith('FAIL') ? 'FAIL ' : ''}${name} [${specs}]${label === 'PASS' || label === 'FAIL' ? '' : ` ${label}`}`,
      );
      for (const c of failed) console.log(`    ${c.status} ${c.id}: ${c.errorMessage ?? c.description}`);
      if (!passed && failed.length === 0)
        console.log(
          output
            .split('\n')
            .slice(-15)
            .map((l) => `    | ${l}`)
            .join('\n'),
        );
      rmSync(outDir, { recursive: true, force: true });
    }
    console.log(
      `\n${scenarios.length} scenarios: ${counts.pass} passed, ${counts.xfail} expected failures, ${counts.fail} unexpected failures, ${counts.stale} stale expectations`,
    );
    process.exitCode = bad > 0 ? 1 : 0;
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

if (args[0] === '--as-client') asClient(args[args.length - 1]);
else main();
