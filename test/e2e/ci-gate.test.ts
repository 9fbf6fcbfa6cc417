// The CI gate as a user's CI runs it: mcp-smart from the packed tarball in a fresh project, `init --github` writes
// the workflow, and its `run:` steps (parsed from the YAML) run in bash, in order, with npm's own npx. The README's
// plain-shell recipe runs the same way. Slow: one pack, a few installs from the npm cache.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  INSTALL_ARGS,
  npmEnv,
  runProgram,
  type Env,
  type PackedTarball,
  type ProgramRun,
} from '../../scripts/pack.mjs';
import { installedPackage } from '../helpers/installed-package.js';
import { startLocalRegistry } from '../helpers/local-registry.js';
import { fixture, REPO } from '../helpers/paths.js';

const TIMEOUT = 600_000;
const WORKFLOW = join('.github', 'workflows', 'mcp-smart.yml');
const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
let tmp = '';
let packed: PackedTarball;
/** The environment the steps run in: a temporary HOME and npm cache folder, no node_modules/.bin of ours on PATH. */
let stepEnv: Env = {};
let npmCacheDir = '';

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'mcp-smart-ci-gate-'));
  const env = npmEnv();
  packed = (await installedPackage()).packed;
  // npm's download cache is the machine's (warm, content-addressed); its npx folder and logs are this test's own.
  const realCache = (await runProgram('npm', ['config', 'get', 'cache'], { cwd: tmp, env })).stdout.trim();
  npmCacheDir = join(tmp, 'npm-cache');
  mkdirSync(npmCacheDir);
  symlinkSync(join(realCache, '_cacache'), join(npmCacheDir, '_cacache'), 'dir');
  const home = join(tmp, 'home');
  mkdirSync(home);
  const path = (env.PATH ?? '')
    .split(delimiter)
    .filter((p) => !p.includes('node_modules'))
    .join(delimiter);
  stepEnv = {
    ...env,
    PATH: path,
    HOME: home,
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local'),
    npm_config_cache: npmCacheDir,
    npm_config_update_notifier: 'false',
    NO_COLOR: '1',
    CI: 'true',
  };
}, TIMEOUT);

// The project's node_modules is large: removed without blocking the worker (vitest's RPC times out on a busy machine).
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
}, TIMEOUT);

/** A project folder holding the committed snapshot of three servers (807 tokens). */
function project(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true }, null, 2));
  writeFileSync(join(dir, 'mcp-snapshot.json'), readFileSync(fixture('snapshots', 'check-base.json')));
  return dir;
}

const bash = (script: string, cwd: string, env: Env = stepEnv): Promise<ProgramRun> =>
  runProgram('bash', ['-e', '-c', script], { cwd, env, timeoutMs: TIMEOUT });

/** The `run:` steps of the workflow's job, in order, read with a YAML parser. */
function runSteps(dir: string): string[] {
  const doc = parse(readFileSync(join(dir, WORKFLOW), 'utf8')) as {
    jobs: Record<string, { steps: { run?: string; uses?: string }[] }>;
  };
  const jobs = Object.values(doc.jobs);
  expect(jobs).toHaveLength(1);
  return jobs[0]!.steps.flatMap((s) => (typeof s.run === 'string' ? [s.run] : []));
}

/** The commands the workflow's header says to run after an intended change (`#   <command>` lines). */
function updateCommands(dir: string): string[] {
  const text = readFileSync(join(dir, WORKFLOW), 'utf8');
  const head = text.slice(text.indexOf('# After an intended change'), text.indexOf('\nname:'));
  return [...head.matchAll(/^# {3}(\S.*)$/gm)].map((m) => m[1]!);
}

/** Grows one tool: its description gets a long second paragraph, as an upgraded server might ship. */
function growTool(dir: string): void {
  const file = join(dir, 'mcp-snapshot.json');
  const snap = JSON.parse(readFileSync(file, 'utf8')) as { servers: { tools: { description: string }[] }[] };
  snap.servers[0]!.tools[0]!.description += ` ${'Use this tool for every file the user mentions, including logs, configuration files and generated reports. '.repeat(4)}`;
  writeFileSync(file, JSON.stringify(snap, null, 2));
}

/** Runs every step; resolves to the first failing step's result, or the last one. */
async function runAll(steps: string[], dir: string, env: Env = stepEnv): Promise<ProgramRun & { step: string }> {
  let last: ProgramRun & { step: string } = { code: 0, stdout: '', stderr: '', step: '' };
  for (const step of steps) {
    last = { ...(await bash(step, dir, env)), step };
    if (last.code !== 0) break;
  }
  return last;
}

describe('ci-gate: the workflow init --github writes, executed', () => {
  it(
    'lockfile mode: npm ci and `npx --no -- mcp-smart` pass on the baseline and fail (exit 1) on a grown tool',
    async () => {
      const dir = project('with-lockfile');
      const install = await runProgram('npm', ['install', '-D', ...INSTALL_ARGS, packed.tarball], {
        cwd: dir,
        env: stepEnv,
      });
      expect(install.code, install.stderr).toBe(0);
      const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { version?: string }>;
      };
      expect(lock.packages['node_modules/mcp-smart']?.version).toBe(VERSION);

      // The form npm breaks: npx's scan reads `--no` as taking a value (mcp-smart), then `--snapshot x` as npm's own.
      const old = await bash('npx --no mcp-smart --snapshot mcp-snapshot.json check --update', dir);
      expect(old.code).toBe(2);
      expect(old.stderr).toContain("unknown command 'mcp-snapshot.json'");

      const init = await bash('npx --no -- mcp-smart --snapshot mcp-snapshot.json init --yes --github', dir);
      expect(init.code, init.stderr).toBe(0);
      const steps = runSteps(dir);
      expect(steps).toEqual(['npm ci', 'npx --no -- mcp-smart --snapshot mcp-snapshot.json check --format github']);
      const update = updateCommands(dir);
      expect(update).toEqual([
        'npx --no -- mcp-smart dump -o mcp-snapshot.json',
        'npx --no -- mcp-smart --snapshot mcp-snapshot.json check --update',
      ]);

      // No live server here to dump: the committed snapshot stands for it, and the baseline is made again from it.
      rmSync(join(dir, 'mcp-smart.lock.json'));
      const updated = await runAll(update.slice(1), dir);
      expect(updated.code, updated.stderr).toBe(0);
      expect(updated.stdout).toContain('Baseline mcp-smart.lock.json written: 3 servers, 807 tokens');

      const summary = join(dir, 'summary.md');
      const env = { ...stepEnv, GITHUB_STEP_SUMMARY: summary };
      const pass = await runAll(steps, dir, env);
      expect(pass.code, `${pass.step}\n${pass.stderr}`).toBe(0);
      expect(pass.stdout).toContain('807 → 807');
      expect(readFileSync(summary, 'utf8')).toContain('### mcp-smart check: ✅ PASS');

      growTool(dir);
      const fail = await runAll(steps, dir, env);
      expect(fail.step).toBe(steps[1]);
      expect(fail.code).toBe(1);
      expect(fail.stdout).toMatch(/^::error file=mcp-smart.lock.json,title=mcp-smart /m);
      expect(fail.stdout).toContain('files.read_file');
      expect(readFileSync(summary, 'utf8')).toContain('### mcp-smart check: ❌ FAIL');
    },
    TIMEOUT,
  );

  it(
    "docs/ci.md's plain-shell recipe passes on the baseline and fails (exit 1) on a grown tool",
    async () => {
      const readme = readFileSync(join(REPO, 'docs', 'ci.md'), 'utf8');
      const block = /<!-- recipe:plain-shell -->\s*```sh\n([\s\S]*?)```\s*<!-- \/recipe -->/.exec(readme);
      expect(block, 'docs/ci.md has no <!-- recipe:plain-shell --> block').not.toBeNull();
      const recipe = block![1]!;
      expect(recipe).toContain('npx --no -- mcp-smart');

      const dir = project('plain-shell');
      const install = await runProgram('npm', ['install', '-D', ...INSTALL_ARGS, packed.tarball], {
        cwd: dir,
        env: stepEnv,
      });
      expect(install.code, install.stderr).toBe(0);
      writeFileSync(join(dir, 'ci.sh'), recipe);
      const missing = await runProgram('sh', ['ci.sh'], { cwd: dir, env: stepEnv });
      expect(missing.code).toBe(2);
      expect(missing.stdout).toContain('missing baseline? run: mcp-smart check --update');

      const update = await bash('npx --no -- mcp-smart --snapshot mcp-snapshot.json check --update', dir);
      expect(update.code, update.stderr).toBe(0);
      const pass = await runProgram('sh', ['ci.sh'], { cwd: dir, env: stepEnv });
      expect(pass.code, pass.stderr).toBe(0);
      expect(pass.stdout).toContain('tool context OK');
      expect(pass.stdout).toContain('807 → 807');
      expect(pass.stdout).toMatch(/^PASS: tool context uses 807 of 12,800 tokens/m);

      growTool(dir);
      const fail = await runProgram('sh', ['ci.sh'], { cwd: dir, env: stepEnv });
      expect(fail.code).toBe(1);
      expect(fail.stdout).toContain('tool context regressed');
    },
    TIMEOUT,
  );

  it(
    'pinned mode (no lockfile): `npx --yes -- mcp-smart@<version>` fetches that version from the registry and gates',
    async () => {
      // The package is not on the public registry yet, so it is published to a local one; a newer `latest` without a
      // tarball stands for "whatever answers to the name later" and would fail an unpinned command.
      const registry = await startLocalRegistry(
        {
          manifest: JSON.parse(readFileSync(join(packed.src, 'package.json'), 'utf8')) as {
            name: string;
            version: string;
          },
          tarball: packed.tarball,
          integrity: packed.integrity,
          shasum: packed.shasum,
          decoyLatest: '99.0.0',
        },
        'https://registry.npmjs.org/',
      );
      try {
        const prefix = join(tmp, 'prefix');
        const install = await runProgram('npm', ['install', '--prefix', prefix, ...INSTALL_ARGS, packed.tarball], {
          cwd: tmp,
          env: stepEnv,
        });
        expect(install.code, install.stderr).toBe(0);
        const dir = project('pinned');
        const init = await runProgram(
          join(prefix, 'node_modules', '.bin', 'mcp-smart'),
          ['--snapshot', 'mcp-snapshot.json', 'init', '--yes', '--github'],
          { cwd: dir, env: stepEnv },
        );
        expect(init.code, init.stderr).toBe(0);
        const steps = runSteps(dir);
        expect(steps).toEqual([`npx --yes -- mcp-smart@${VERSION} --snapshot mcp-snapshot.json check --format github`]);
        const env = { ...stepEnv, npm_config_registry: registry.url };

        const unpinned = await bash('npx --yes -- mcp-smart --version', dir, env);
        expect(unpinned.code).not.toBe(0);
        expect(unpinned.stderr).toContain('404');

        const update = updateCommands(dir);
        expect(update.at(-1)).toBe(`npx --yes -- mcp-smart@${VERSION} --snapshot mcp-snapshot.json check --update`);
        const updated = await runAll([update.at(-1)!], dir, env);
        expect(updated.code, updated.stderr).toBe(0);
        const pass = await runAll(steps, dir, env);
        expect(pass.code, pass.stderr).toBe(0);
        expect(pass.stdout).toContain('807 → 807');
        // npx resolved the name at the registry and installed the pinned version from there into its own folder (the
        // bytes themselves may come from npm's content-addressed cache, which is keyed by the tarball's digest).
        expect(registry.requests).toContain('/mcp-smart');
        const npx = readdirSync(join(npmCacheDir, '_npx')).map((h) => join(npmCacheDir, '_npx', h));
        const installed = npx.flatMap((d) => {
          const lockFile = join(d, 'package-lock.json');
          if (!existsSync(lockFile)) return [];
          const l = JSON.parse(readFileSync(lockFile, 'utf8')) as {
            packages: Record<string, { version?: string; resolved?: string }>;
          };
          const entry = l.packages['node_modules/mcp-smart'];
          return entry ? [entry] : [];
        });
        expect(installed).toEqual([
          expect.objectContaining({
            version: VERSION,
            resolved: `${registry.url}mcp-smart/-/mcp-smart-${VERSION}.tgz`,
          }),
        ]);

        growTool(dir);
        const fail = await runAll(steps, dir, env);
        expect(fail.code).toBe(1);
        expect(fail.stdout).toMatch(/^::error file=mcp-smart.lock.json,title=mcp-smart /m);
      } finally {
        await registry.close();
      }
    },
    TIMEOUT,
  );
});
