// Keeps the documentation honest about the command line: every option `--help` prints must be documented in
// README.md or docs/*.md, each option's row must carry the help text verbatim in its command's section, and the help
// output itself is pinned by a snapshot (so a changed option shows up here and reminds whoever changed it to update
// the docs).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command, Option } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/commands/program.js';
import { fakeIo, runCli } from '../helpers/fake-io.js';
import { REPO } from '../helpers/paths.js';

/** README.md and every page of docs/, one after the other. */
const README = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]
  .map((f) => readFileSync(join(REPO, f), 'utf8'))
  .join('\n');
const COMMANDS = [
  'servers',
  'dump',
  'audit',
  'condense',
  'discover',
  'budget',
  'check',
  'replay',
  'serve',
  'init',
  'adopt',
  'login',
  'logout',
  'trust',
];
/** [label, argv] for the program and every command. */
const HELP_RUNS: [string, string[]][] = [
  ['mcp-smart', ['--help']],
  ...COMMANDS.map((c): [string, string[]] => [c, [c, '--help']]),
];

// Commander wraps help at the terminal width when stdout is a TTY; pin it to its 80-column default and no colour.
let savedTTY: PropertyDescriptor | undefined;
const savedNoColor = process.env.NO_COLOR;
beforeAll(() => {
  savedTTY = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
  Object.defineProperty(process.stdout, 'isTTY', { value: false, configurable: true, writable: true });
  process.env.NO_COLOR = '1';
});
afterAll(() => {
  if (savedTTY) Object.defineProperty(process.stdout, 'isTTY', savedTTY);
  else delete (process.stdout as { isTTY?: boolean }).isTTY;
  if (savedNoColor === undefined) delete process.env.NO_COLOR;
  else process.env.NO_COLOR = savedNoColor;
});

/** Every `--long-option` named anywhere in a help text (flag column, descriptions and examples). */
function longOptions(help: string): string[] {
  return [...new Set(help.match(/(?<![\w-])--[a-z][a-z0-9-]*/g) ?? [])].sort();
}

/** The section of the docs that documents one command: from its `## \`command\`` heading to the next `#`/`##`. */
function readmeSection(command: string): string {
  const start = README.indexOf(`\n## \`${command}\`\n`);
  if (start < 0) return '';
  const ends = [README.indexOf('\n## ', start + 1), README.indexOf('\n# ', start + 1)].filter((i) => i > 0);
  return README.slice(start, ends.length ? Math.min(...ends) : undefined);
}

function program(): Command {
  return buildProgram(fakeIo(), [], { exitCode: 0, json: false, debug: false });
}

/** The README row for an option: `| \`<flags>\` | <help description, unwrapped> |`. */
function optionRow(cmd: Command, opt: Option): string {
  const help = cmd.createHelp();
  return `| \`${help.optionTerm(opt)}\` | ${help.optionDescription(opt)} |`;
}

describe('--help is documented in README.md and docs/', () => {
  it('the program help lists every command', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const c of COMMANDS) expect(stdout).toMatch(new RegExp(`^  ${c}\\b`, 'm'));
  });

  it.each(HELP_RUNS)('every long option of "%s --help" appears in README.md or docs/', async (_label, argv) => {
    const { code, stdout } = await runCli(argv);
    expect(code).toBe(0);
    const options = longOptions(stdout);
    expect(options.length).toBeGreaterThan(0);
    const missing = options.filter((o) => !new RegExp(`(?<![\\w-])${o}(?![\\w-])`).test(README));
    expect(missing).toEqual([]);
  });

  it('the global options table has one row per program option, with the help text verbatim', () => {
    const p = program();
    const rows = p
      .createHelp()
      .visibleOptions(p)
      .map((o) => optionRow(p, o));
    const missing = rows.filter((r) => !README.includes(r));
    expect(missing).toEqual([]);
  });

  it.each(COMMANDS.map((c) => [c]))(
    'the docs section of "%s" has a row per option, with the help text verbatim',
    (name) => {
      const p = program();
      const cmd = p.commands.find((c) => c.name() === name);
      expect(cmd).toBeDefined();
      const section = readmeSection(name);
      expect(section).not.toBe('');
      const help = cmd!.createHelp();
      const rows = help
        .visibleOptions(cmd!)
        .filter((o) => o.long !== '--help')
        .map((o) => optionRow(cmd!, o));
      const missing = rows.filter((r) => !section.includes(r));
      expect(missing).toEqual([]);
    },
  );
});

describe('help output snapshots', () => {
  it.each(HELP_RUNS)('help of "%s"', async (_label, argv) => {
    const { code, stdout, stderr } = await runCli(argv);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).not.toMatch(/\u001b\[/);
    expect(stdout).toMatchSnapshot();
  });

  it.each(COMMANDS.map((c) => [c]))('the examples in "%s --help" appear in its docs section', async (command) => {
    const { stdout } = await runCli([command, '--help']);
    const after = stdout.split('\nExamples:\n')[1] ?? '';
    const examples = after
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('mcp-smart '))
      .map((l) => l.slice('mcp-smart '.length));
    expect(examples.length).toBeGreaterThan(0);
    const section = readmeSection(command);
    const missing = examples.filter((e) => !section.includes(`mcp-smart ${e}`));
    expect(missing).toEqual([]);
  });
});
