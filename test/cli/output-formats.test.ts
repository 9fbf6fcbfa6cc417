// The bytes every command prints in every --format (table, markdown, github, json) and, for the table, with colour
// on: one snapshot per command and format over the fixture snapshots, so that a change to a reporter shows up as a
// changed document, table or annotation. Temp folders, the repo path and the version are normalised.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { trustedHome } from '../helpers/config-request.js';
import { runCli } from '../helpers/fake-io.js';
import { REPO, fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';
import { VERSION } from '../../src/process/version.js';

const FORMATS = ['table', 'markdown', 'github', 'json'] as const;
type Variant = (typeof FORMATS)[number] | 'table-color';
const VARIANTS: readonly Variant[] = [...FORMATS, 'table-color'];

const snap = (name: string): string => fixture('snapshots', name);
const CONFIGS = (...p: string[]): string => fixture('configs', ...p);
const TRUSTED_HOMES: string[] = [];
afterAll(() => {
  for (const d of TRUSTED_HOMES) rmSync(d, { recursive: true, force: true });
});

/** Each run gets its own home (cache, usage store), so no run sees what another one learned or cached. */
function envFor(variant: Variant, home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...(variant === 'table-color' ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' }),
    HOME: home,
    MCP_SMART_CACHE_DIR: join(home, 'cache'),
    MCP_SMART_DATA_DIR: join(home, 'data'),
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(home, 'no-system', 'settings.json'),
    GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(home, 'no-system', 'system-defaults.json'),
    ...extra,
  };
}

function formatArgs(variant: Variant): string[] {
  return variant === 'table-color' ? ['--format', 'table'] : ['--format', variant];
}

interface Case {
  /** Global options and the command with its options, before the format flag is added. */
  argv: string[];
  /** The folder the command runs in; a fresh temp folder when not given. */
  cwd?: string;
  env?: Record<string, string>;
  /** Run before the command in the same folder (a baseline for check). */
  before?: string[];
  /** Snapshot stderr too (dump's summary is its report). */
  stderr?: boolean;
}

const CASES: Record<string, Case> = {
  'servers (project-all + home-linux)': {
    argv: ['servers'],
    cwd: CONFIGS('project-all'),
    env: {
      // home-linux, whose clients trust project-all (Claude Code's dialog, Codex, Gemini), as after their dialogs.
      HOME: trustedHome(CONFIGS('project-all'), CONFIGS('home-linux'), TRUSTED_HOMES),
      GEMINI_CLI_SYSTEM_SETTINGS_PATH: CONFIGS('system-empty', 'settings.json'),
      GEMINI_CLI_SYSTEM_DEFAULTS_PATH: CONFIGS('system-empty', 'system-defaults.json'),
    },
  },
  'servers (none found)': { argv: ['servers'], cwd: CONFIGS('project-empty') },
  'dump -o': { argv: ['--snapshot', snap('audit-failed.json'), 'dump', '-o', 'out.json'], stderr: true },
  'audit (findings)': { argv: ['--snapshot', snap('audit-findings.json'), 'audit', '--top', '3'] },
  'audit (a failed server)': { argv: ['--snapshot', snap('audit-failed.json'), 'audit'] },
  'audit (many tools, grouped findings)': { argv: ['--snapshot', snap('many-tools.json'), 'audit'] },
  'audit --client codex (hidden tools)': {
    argv: ['--no-cache', '--client', 'codex', 'audit'],
    cwd: CONFIGS('codex-tool-filter'),
    // Codex reads the project's .codex/config.toml only in a trusted project.
    env: { CODEX_HOME: join(trustedHome(CONFIGS('codex-tool-filter'), undefined, TRUSTED_HOMES), '.codex') },
  },
  condense: { argv: ['--snapshot', snap('check-base.json'), 'condense', '--level', 'compact'] },
  'condense -o': { argv: ['--snapshot', snap('check-base.json'), 'condense', '-o', 'condensed.json'] },
  'discover --explain': { argv: ['--snapshot', snap('discover-ok.json'), 'discover', 'read a file', '--explain'] },
  'discover (no match, fallback)': {
    argv: ['--snapshot', snap('discover-ok.json'), 'discover', 'zzzz qqqq', '--engine', 'keyword'],
  },
  'discover --queries': {
    argv: ['--snapshot', snap('discover-tools.json'), 'discover', '--queries', snap('discover-intents.jsonl')],
  },
  'budget (over, with a plan)': { argv: ['--snapshot', snap('check-base.json'), 'budget', '--max', '2000'] },
  'budget (fits)': { argv: ['--snapshot', snap('check-base.json'), 'budget', '--max', '200000'] },
  'budget --intent -o --apply': {
    argv: [
      '--snapshot',
      snap('check-base.json'),
      'budget',
      '--max',
      '3000',
      '--intent',
      'read a file',
      '-o',
      'defs.json',
      '--apply',
    ],
  },
  'check --update': { argv: ['--snapshot', snap('check-base.json'), 'check', '--update'] },
  'check (grown: fail)': {
    argv: ['--snapshot', snap('check-grown.json'), 'check'],
    before: ['--snapshot', snap('check-base.json'), 'check', '--update'],
  },
  'check (shrunk: pass)': {
    argv: ['--snapshot', snap('check-shrunk.json'), 'check'],
    before: ['--snapshot', snap('check-base.json'), 'check', '--update'],
  },
  'check (a server unreachable)': {
    argv: ['--snapshot', snap('check-grown-unreachable.json'), 'check'],
    before: ['--snapshot', snap('check-base.json'), 'check', '--update'],
  },
  'check --queries --min-recall': {
    argv: [
      '--snapshot',
      snap('check-base.json'),
      'check',
      '--queries',
      snap('discover-intents.jsonl'),
      '--min-recall',
      '0.9',
    ],
    before: ['--snapshot', snap('check-base.json'), 'check', '--update'],
  },
  replay: {
    argv: ['--snapshot', snap('replay-demo.json'), 'replay', fixture('sessions'), '--min-recall', '0.5'],
  },
  'replay --tune --learn': {
    argv: [
      '--snapshot',
      snap('replay-demo.json'),
      'replay',
      fixture('sessions', 'intents', 'labelled.jsonl'),
      '--tune',
      '--folds',
      '2',
      '--learn',
    ],
  },
  'init --github': {
    argv: ['--snapshot', snap('check-base.json'), 'init', '--yes', '--github'],
  },
  'init --no-baseline -s': {
    argv: ['--snapshot', snap('check-base.json'), 'init', '--yes', '--no-baseline', '--servers', 'files'],
  },
};

function normalise(text: string, dir: string, home: string): string {
  // A trusted copy of a fixture home stands for that fixture home.
  const trusted = TRUSTED_HOMES.reduce((t, h) => t.split(h).join('<trusted-home>'), text);
  return trusted
    .split(dir)
    .join('<cwd>')
    .split(home)
    .join('<home>')
    .split(REPO)
    .join('<repo>')
    .split(VERSION)
    .join('<version>');
}

describe('output of every command in every format', () => {
  for (const [name, c] of Object.entries(CASES)) {
    for (const variant of VARIANTS) {
      it(`${name} --format ${variant}`, async () => {
        const dir = c.cwd ?? tempDir('mcp-smart-formats-');
        const home = tempDir('mcp-smart-formats-home-');
        try {
          const env = envFor(variant, home, c.env);
          if (c.before) expect((await runCli(c.before, { cwd: dir, env })).code).toBe(0);
          const r = await runCli([...c.argv, ...formatArgs(variant)], { cwd: dir, env });
          const shown = { code: r.code, stdout: normalise(r.stdout, dir, home) };
          expect(c.stderr ? { ...shown, stderr: normalise(r.stderr, dir, home) } : shown).toMatchSnapshot();
        } finally {
          await rm(home, { recursive: true, force: true });
          if (c.cwd === undefined) await rm(dir, { recursive: true, force: true });
        }
      });
    }
  }
});

describe('markdown and github output never carry ANSI escapes, even with colour forced on', () => {
  // dump -o writes no document on stdout: its summary on stderr is a terminal status, coloured when asked.
  for (const [name, c] of Object.entries(CASES).filter(([, c]) => !c.stderr)) {
    for (const format of ['markdown', 'github'] as const) {
      it(`${name} --format ${format} with FORCE_COLOR=1`, async () => {
        const dir = c.cwd ?? tempDir('mcp-smart-formats-');
        const home = tempDir('mcp-smart-formats-home-');
        try {
          const env = { ...envFor('table-color', home, c.env), FORCE_COLOR: '1' };
          if (c.before) expect((await runCli(c.before, { cwd: dir, env })).code).toBe(0);
          const r = await runCli([...c.argv, '--format', format], { cwd: dir, env });
          expect(r.stdout.length).toBeGreaterThan(0);
          expect(r.stdout).not.toContain('\u001b[');
        } finally {
          await rm(home, { recursive: true, force: true });
          if (c.cwd === undefined) await rm(dir, { recursive: true, force: true });
        }
      });
    }
  }
});
