// The CI journey of issue 36, with real processes only: mcp-smart from the packed tarball installed into a fresh
// project whose .mcp.json nobody approved (no ~/.claude.json: every CI machine), a local MCP server that is a script
// of the project. `init --github` → the workflow's `run:` steps (parsed from the YAML, run in bash with CI=true) pass
// → the server's code changes (a tool description grows) → the printed refresh → the gate fails with exit 1 → the
// printed `check --update` → the gate passes. Only printed commands, run as printed. Slow: one pack, one install.
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
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
import { fixture } from '../helpers/paths.js';

const TIMEOUT = 600_000;
const WORKFLOW = join('.github', 'workflows', 'mcp-smart.yml');
let tmp = '';
let packed: PackedTarball;
/** A developer's shell: temporary HOME and npm cache, no node_modules/.bin of this repo on PATH, not CI. */
let devEnv: Env = {};
/** The runner's: the same with CI=true. */
let ciEnv: Env = {};

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'mcp-smart-journey-ci-'));
  const env = npmEnv();
  packed = (await installedPackage()).packed;
  const realCache = (await runProgram('npm', ['config', 'get', 'cache'], { cwd: tmp, env })).stdout.trim();
  const npmCache = join(tmp, 'npm-cache');
  mkdirSync(npmCache);
  symlinkSync(join(realCache, '_cacache'), join(npmCache, '_cacache'), 'dir');
  const home = join(tmp, 'home');
  mkdirSync(home);
  const path = (env.PATH ?? '')
    .split(delimiter)
    .filter((p) => !p.includes('node_modules'))
    .join(delimiter);
  const { CI: _ci, MCP_SMART_TRUST_PROJECT: _trust, ...rest } = env;
  devEnv = {
    ...rest,
    PATH: path,
    HOME: home,
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local'),
    npm_config_cache: npmCache,
    npm_config_update_notifier: 'false',
    NO_COLOR: '1',
  };
  ciEnv = { ...devEnv, CI: 'true' };
}, TIMEOUT);

// The project's node_modules is large: removed without blocking the worker (vitest's RPC times out on a busy machine).
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
}, TIMEOUT);

const bash = (script: string, cwd: string, env: Env): Promise<ProgramRun> =>
  runProgram('bash', ['-e', '-c', script], { cwd, env, timeoutMs: TIMEOUT });

/** The project's local server: a script of the project, serving one tool whose description is `description`. */
function writeServer(dir: string, description: string): void {
  const catalog = {
    serverInfo: { name: 'words', version: '1.0.0' },
    tools: [{ name: 'lookup', description, inputSchema: { type: 'object', properties: { word: { type: 'string' } } } }],
  };
  writeFileSync(
    join(dir, 'server.mjs'),
    `// The project's own MCP server.\nimport { createCatalogServer, serve } from ${JSON.stringify(fixture('servers', 'lib.mjs'))};\n` +
      `const catalog = ${JSON.stringify(catalog, null, 2)};\nawait serve(() => createCatalogServer(catalog, {}), {});\n`,
  );
}

/** The `run:` steps of the workflow's one job, in order, read with a YAML parser. */
function runSteps(dir: string): string[] {
  const doc = parse(readFileSync(join(dir, WORKFLOW), 'utf8')) as {
    jobs: Record<string, { steps: { run?: string }[] }>;
  };
  const jobs = Object.values(doc.jobs);
  expect(jobs).toHaveLength(1);
  return jobs[0]!.steps.flatMap((s) => (typeof s.run === 'string' ? [s.run] : []));
}

/** The commands the workflow's header says to run after an intended change (`#   <command>` lines). */
function refreshCommands(dir: string): string[] {
  const text = readFileSync(join(dir, WORKFLOW), 'utf8');
  const head = text.slice(text.indexOf('# After an intended change'), text.indexOf('\nname:'));
  return [...head.matchAll(/^# {3}(\S.*)$/gm)].map((m) => m[1]!);
}

/** Every step in order; the first failing step's result, or the last one's. */
async function runAll(steps: string[], dir: string, env: Env): Promise<ProgramRun & { step: string }> {
  let last: ProgramRun & { step: string } = { code: 0, stdout: '', stderr: '', step: '' };
  for (const step of steps) {
    last = { ...(await bash(step, dir, env)), step };
    if (last.code !== 0) break;
  }
  return last;
}

/** "before → after" tool tokens of a check's output. */
function figures(out: string): { before: number; after: number } {
  const m = /([\d,]+) → ([\d,]+)/.exec(out);
  expect(m, out).not.toBeNull();
  const n = (s: string): number => Number(s.replace(/,/g, ''));
  return { before: n(m![1]!), after: n(m![2]!) };
}

describe('journey-ci: init --github in a project nobody approved, a local server changes, the gate catches it', () => {
  it(
    'the workflow passes, fails with exit 1 after the code change and the printed refresh, passes after check --update',
    async () => {
      const dir = join(tmp, 'project');
      mkdirSync(dir);
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'journey', private: true }, null, 2));
      writeServer(dir, 'Looks up a word.');
      writeFileSync(
        join(dir, '.mcp.json'),
        JSON.stringify({ mcpServers: { words: { command: 'node', args: ['server.mjs'] } } }, null, 2),
      );
      const install = await runProgram('npm', ['install', '-D', ...INSTALL_ARGS, packed.tarball], {
        cwd: dir,
        env: devEnv,
      });
      expect(install.code, install.stderr).toBe(0);

      // Nobody approved .mcp.json: Claude Code holds it pending, mcp-smart waits for its own approval.
      const dump = await bash('npx --no -- mcp-smart dump', dir, devEnv);
      expect(dump.code).toBe(2);
      expect(dump.stderr).toContain('pending approval in Claude Code');
      const refused = await bash('npx --no -- mcp-smart init --yes --github --ci-snapshot', dir, devEnv);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('approve with `mcp-smart trust`');
      const trust = await bash('npx --no -- mcp-smart trust', dir, devEnv);
      expect(trust.code, trust.stderr).toBe(0);
      expect(trust.stdout).toContain('Still not loaded by their client: words (pending approval in Claude Code).');
      const init = await bash('npx --no -- mcp-smart init --yes --github --ci-snapshot', dir, devEnv);
      expect(init.code, init.stderr).toBe(0);

      const steps = runSteps(dir);
      expect(steps).toEqual([
        'npm ci',
        'npx --no -- mcp-smart --snapshot mcp-smart.snapshot.json check --format github',
      ]);
      const refresh = refreshCommands(dir);
      expect(refresh).toEqual([
        'npx --no -- mcp-smart --config .mcp.json dump -o mcp-smart.snapshot.json',
        'npx --no -- mcp-smart --snapshot mcp-smart.snapshot.json check --update',
      ]);

      const pass = await runAll(steps, dir, ciEnv);
      expect(pass.code, `${pass.step}\n${pass.stdout}\n${pass.stderr}`).toBe(0);
      const start = figures(pass.stdout);
      expect(start.after).toBe(start.before);

      // The developer looks at the server; its list is now in the one-hour tool-list cache.
      const audit = await bash('npx --no -- mcp-smart --config .mcp.json audit', dir, devEnv);
      expect(audit.code, audit.stderr).toBe(0);
      expect(audit.stderr).toContain('from cache');

      // The server's code changes: its tool description grows.
      writeServer(
        dir,
        `Looks up a word. ${'Returns every sense with examples, the etymology, rhymes and translations into every language the user names. '.repeat(4)}`,
      );
      const dumped = await bash(refresh[0]!, dir, devEnv);
      expect(dumped.code, dumped.stderr).toBe(0);
      expect(dumped.stderr).not.toContain('from cache');

      const fail = await runAll(steps, dir, ciEnv);
      expect(fail.step).toBe(steps[1]);
      expect(fail.code, fail.stdout).toBe(1);
      expect(fail.stdout).toMatch(/^::error file=mcp-smart.lock.json,title=mcp-smart TOTAL_GROWTH::/m);
      const grown = figures(fail.stdout);
      expect(grown.before).toBe(start.before);
      expect(grown.after).toBeGreaterThan(grown.before);

      // The ::error line's own hint, as printed, with the project's mcp-smart on PATH (npm exec does the same).
      const hint = /If intended, run: (mcp-smart [^:]*?) and commit/.exec(fail.stdout)?.[1];
      expect(hint).toBe('mcp-smart --snapshot mcp-smart.snapshot.json check --update');
      const update = await bash(hint!, dir, {
        ...devEnv,
        PATH: `${join(dir, 'node_modules', '.bin')}${delimiter}${devEnv.PATH ?? ''}`,
      });
      expect(update.code, update.stderr).toBe(0);
      // The header's printed update is the same command through npx: nothing left to write.
      const again = await bash(refresh[1]!, dir, devEnv);
      expect(again.code, again.stderr).toBe(0);

      const passed = await runAll(steps, dir, ciEnv);
      expect(passed.code, `${passed.step}\n${passed.stdout}\n${passed.stderr}`).toBe(0);
      const end = figures(passed.stdout);
      expect(end).toEqual({ before: grown.after, after: grown.after });
      console.log(
        `journey-ci: tool tokens ${start.before} at init; after the code change the gate saw ${grown.before} → ${grown.after} ` +
          `(+${grown.after - grown.before}) and failed with exit 1; after check --update ${end.before} → ${end.after}, exit 0`,
      );
    },
    TIMEOUT,
  );
});
