// `serve --print-config <client>`: the snippet starts this copy of mcp-smart (or the same version from the registry)
// with every setup option carried over as absolute paths. The GUI clients cannot be driven here, so each snippet is
// checked against the format that client documents (URLs beside each entry); the CLI clients' commands are run for
// real in test/e2e/real-clients.test.ts.
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { splitCommandLine } from '../../src/core/config/shell-split.js';
import { installedFromRegistry, launchThis } from '../../src/app/services/launcher.js';
import { clientCommands, configSnippet, printConfig, shellQuote } from '../../src/app/services/print-config.js';
import { CODEX_STARTUP_KEYS } from '../../src/core/adopt/codex-startup.js';
import { DEFAULT_FIRST_LIST_WAIT_MS } from '../../src/serve/first-answer.js';
import { VERSION } from '../../src/process/version.js';
import { runCli } from '../helpers/fake-io.js';
import { REPO } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const BIN = join(realpathSync(REPO), 'bin', 'mcp-smart.js');

/** Where each GUI client documents its stdio entry: the top-level key and the keys an entry may hold. */
const DOCUMENTED: Record<string, { top: string; keys: string[]; type?: string }> = {
  // https://modelcontextprotocol.io/quickstart/user — claude_desktop_config.json: mcpServers.<name>.{command, args, env}
  'claude-desktop': { top: 'mcpServers', keys: ['command', 'args', 'env'] },
  // https://cursor.com/docs/mcp — .cursor/mcp.json: mcpServers.<name>.{command, args, env} for stdio
  cursor: { top: 'mcpServers', keys: ['command', 'args', 'env', 'envFile'] },
  // https://code.visualstudio.com/docs/copilot/reference/mcp-configuration — "servers"; stdio needs type "stdio" and a
  // command "available on your system path or [with] its full path"; args optional
  vscode: { top: 'servers', keys: ['type', 'command', 'args', 'env', 'envFile', 'cwd'], type: 'stdio' },
  // https://docs.windsurf.com/windsurf/cascade/mcp — ~/.codeium/windsurf/mcp_config.json: mcpServers.<name>.{command, args, env}
  windsurf: { top: 'mcpServers', keys: ['command', 'args', 'env', 'disabled'] },
  // https://docs.cline.bot/mcp/configuring-mcp-servers — cline_mcp_settings.json: {command, args, env, disabled, autoApprove}
  cline: { top: 'mcpServers', keys: ['command', 'args', 'env', 'disabled', 'autoApprove'] },
  // https://docs.roocode.com/features/mcp/using-mcp-in-roo — .roo/mcp.json or mcp_settings.json:
  // {command, args, cwd, env, alwaysAllow, disabled}
  roo: { top: 'mcpServers', keys: ['command', 'args', 'cwd', 'env', 'alwaysAllow', 'disabled'] },
};

/** The words `--demo -c conf.json --snapshot snap.json -s everything --client cursor` become, from `cwd`. */
const setupWords = (cwd: string): string[] => [
  '--demo',
  '--config',
  join(cwd, 'conf.json'),
  '--snapshot',
  join(cwd, 'snaps', 'snap.json'),
  '--server',
  'everything',
  '--client',
  'cursor',
];
/** A temporary folder holding conf.json, the -c file the flags name (print-config reads it for Codex and Gemini CLI). */
function printFolder(sub?: string): string {
  const cwd = sub === undefined ? tempDir('mcp-smart-print-') : join(tempDir('mcp-smart-print-'), sub);
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(cwd, 'conf.json'), JSON.stringify({ mcpServers: {} }));
  return cwd;
}

const SETUP_FLAGS = [
  '--demo',
  '-c',
  'conf.json',
  '--snapshot',
  'snaps/snap.json',
  '-s',
  'everything',
  '--client',
  'cursor',
];

describe('serve --print-config: GUI clients, checked against each documented format', () => {
  for (const [client, doc] of Object.entries(DOCUMENTED)) {
    it(`${client}: a ${doc.top} entry with the documented keys, starting this mcp-smart with the whole setup`, async () => {
      const cwd = printFolder();
      const run = await runCli([...SETUP_FLAGS, 'serve', '--print-config', client, '--max', '64000'], { cwd });
      expect(run.code).toBe(0);
      const json = JSON.parse(run.stdout.slice(run.stdout.indexOf('\n{') + 1)) as Record<
        string,
        Record<string, Record<string, unknown>>
      >;
      expect(Object.keys(json)).toEqual([doc.top]);
      const entry = json[doc.top]!['mcp-smart']!;
      for (const key of Object.keys(entry)) expect(doc.keys).toContain(key);
      if (doc.type) expect(entry.type).toBe(doc.type);
      // An absolute command: GUI apps often start servers with a PATH that has no node on it.
      expect(entry.command).toBe(process.execPath);
      const mode = client === 'vscode' ? 'tools' : 'auto';
      expect(entry.args).toEqual([BIN, ...setupWords(cwd), 'serve', '--mode', mode, '--max', '64000']);
      expect(run.stdout).toContain('# Starts this copy of mcp-smart by its path');
    });
  }

  it('codex: a [mcp_servers.<name>] table with command and args, required, a startup timeout (TOML)', async () => {
    const cwd = printFolder();
    const run = await runCli([...SETUP_FLAGS, 'serve', '--print-config', 'codex', '--key', 'smart'], { cwd });
    const toml = parseToml(run.stdout.slice(run.stdout.indexOf('[mcp_servers.'))) as {
      mcp_servers: Record<string, { command: string; args: string[] }>;
    };
    expect(toml.mcp_servers).toEqual({
      smart: {
        command: process.execPath,
        args: [BIN, ...setupWords(cwd), 'serve', '--mode', 'tools', '--key', 'smart'],
        // Codex waits for serve's tools before its first turn (test/e2e/serve-cold-codex.test.ts).
        ...CODEX_STARTUP_KEYS,
      },
    });
    // Codex's timeout covers serve's tools/list, which waits for slow servers up to serve's first-list wait: it
    // stays well above that, or a slow server behind serve would fail the whole Codex session.
    expect(CODEX_STARTUP_KEYS.startup_timeout_sec * 1000).toBeGreaterThanOrEqual(DEFAULT_FIRST_LIST_WAIT_MS + 10_000);
  });
});

describe('serve --print-config: the CLI clients write their own config', () => {
  const cases = [
    [
      'claude-code',
      'claude',
      ['claude', 'mcp', 'add', '--scope', 'local', 'mcp-smart', '--'],
      ['claude', 'mcp', 'remove', '--scope', 'local', 'mcp-smart'],
    ],
    [
      'gemini-cli',
      'gemini',
      ['gemini', 'mcp', 'add', '--scope', 'user', 'mcp-smart'],
      ['gemini', 'mcp', 'remove', '--scope', 'user', 'mcp-smart'],
    ],
    ['codex', 'codex', ['codex', 'mcp', 'add', 'mcp-smart', '--'], ['codex', 'mcp', 'remove', 'mcp-smart']],
  ] as const;
  for (const [client, bin, addHead, remove] of cases) {
    it(`${client}: the add command and the way back, which a shell splits back into the exact words`, async () => {
      const cwd = printFolder("it's a folder");
      const run = await runCli(['-c', 'conf.json', 'serve', '--print-config', client], { cwd });
      const lines = run.stdout.split('\n');
      const add = splitCommandLine(lines.find((l) => l.startsWith(`${bin} mcp add `))!);
      const mode = client === 'gemini-cli' ? 'auto' : 'tools';
      const launch = [process.execPath, BIN, '--config', join(cwd, 'conf.json'), 'serve', '--mode', mode];
      // Gemini's yargs takes `--` after the command, so options such as --config reach mcp-smart.
      const expected = bin === 'gemini' ? [...addHead, launch[0]!, '--', ...launch.slice(1)] : [...addHead, ...launch];
      expect(add).toEqual(expected);
      expect(splitCommandLine(lines[lines.indexOf('# Way back:') + 1]!)).toEqual(remove);
      expect(run.stdout).toContain('Printing this edits no file');
    });
  }
});

describe('variables the servers behind serve refer to', () => {
  const launch = { command: '/usr/bin/node', args: ['/m/bin/mcp-smart.js', 'serve'], via: 'path' as const };
  const req = { name: 'mcp-smart', launch, mode: 'tools' as const, modeAsked: false, envVars: ['NOTES_TOKEN', 'X'] };

  it('codex: its entry lists them as env_vars (Codex passes a server only a few variables of its own)', () => {
    const text = printConfig({ ...req, client: 'codex' });
    const toml = parseToml(text.slice(text.indexOf('[mcp_servers.'))) as { mcp_servers: Record<string, unknown> };
    expect(toml.mcp_servers['mcp-smart']).toEqual({
      command: launch.command,
      args: launch.args,
      ...CODEX_STARTUP_KEYS,
      env_vars: ['NOTES_TOKEN', 'X'],
    });
    // After the add command, the lines to add by hand, each said why: `codex mcp add` has no flag for them.
    const lines = text.split('\n');
    const add = lines.findIndex((l) => l.startsWith('codex mcp add '));
    expect(lines[add + 1]).toMatch(/^# Then add these lines .*codex mcp add has no flag for them/);
    expect(lines[add + 2]).toMatch(/^# required = true: Codex waits for serve's tools before its first turn/);
    expect(lines[add + 3]).toMatch(/^# Codex gives a server only HOME, PATH/);
    expect(lines.slice(add + 4, add + 7)).toEqual([
      'required = true',
      'startup_timeout_sec = 30',
      'env_vars = ["NOTES_TOKEN", "X"]',
    ]);
    expect(lines[add + 7]).toBe('# Way back:');
    // The argv arrays are the same commands.
    expect(clientCommands('codex', 'mcp-smart', launch)).toEqual({
      switch: ['codex', 'mcp', 'add', 'mcp-smart', '--', ...[launch.command, ...launch.args]],
      back: ['codex', 'mcp', 'remove', 'mcp-smart'],
    });
  });

  it('gemini-cli: its add command gives each with -e "NAME=$NAME" (it withholds secret-like variables)', () => {
    const lines = printConfig({ ...req, client: 'gemini-cli' }).split('\n');
    const add = lines.find((l) => l.startsWith('gemini mcp add '));
    expect(add).toBe(
      'gemini mcp add -e "NOTES_TOKEN=$NOTES_TOKEN" -e "X=$X" --scope user mcp-smart /usr/bin/node -- /m/bin/mcp-smart.js serve',
    );
    expect(lines[lines.indexOf(add!) - 1]).toMatch(/^# Gemini CLI withholds variables named like secrets/);
    // A shell splits the printed words back, the references left for it to fill in.
    expect(splitCommandLine(add!).slice(3, 7)).toEqual(['-e', 'NOTES_TOKEN=$NOTES_TOKEN', '-e', 'X=$X']);
    // The entry by hand refers to them as Gemini fills them in when it reads its settings: "$NAME", no value.
    const json = JSON.parse(lines.slice(lines.indexOf('{')).join('\n')) as {
      mcpServers: Record<string, { env?: Record<string, string> }>;
    };
    expect(json.mcpServers['mcp-smart']?.env).toEqual({ NOTES_TOKEN: '$NOTES_TOKEN', X: '$X' });
  });

  it('clients that pass their whole environment on get no such line; without variables Codex gets none either', () => {
    for (const client of ['claude-code', 'cursor'] as const)
      expect(printConfig({ ...req, client })).not.toContain('NOTES_TOKEN');
    expect(printConfig({ ...req, client: 'codex', envVars: [] })).not.toContain('env_vars');
    expect(configSnippet('codex', 'mcp-smart', launch)).not.toContain('env_vars');
    expect(clientCommands('cursor', 'mcp-smart', launch)).toBeUndefined();
  });
});

describe('which mcp-smart the snippet starts', () => {
  const lock = (entry: Record<string, unknown> | undefined): string =>
    JSON.stringify({ packages: entry ? { 'node_modules/mcp-smart': entry } : {} });
  const registry = (v: string): string => `https://registry.npmjs.org/mcp-smart/-/mcp-smart-${v}.tgz`;

  it('recognises a registry install by the install lockfile, and nothing else', () => {
    const read = (text: string) => (file: string) => {
      expect(file).toBe(join('/p', 'node_modules', '.package-lock.json'));
      return text;
    };
    const dir = join('/p', 'node_modules', 'mcp-smart');
    expect(installedFromRegistry(dir, '1.2.3', read(lock({ version: '1.2.3', resolved: registry('1.2.3') })))).toBe(
      true,
    );
    // A packed tarball, a link, another version, no entry, no lockfile at all:
    expect(
      installedFromRegistry(dir, '1.2.3', read(lock({ version: '1.2.3', resolved: 'file:../mcp-smart-1.2.3.tgz' }))),
    ).toBe(false);
    expect(installedFromRegistry(dir, '1.2.3', read(lock({ version: '1.2.3', link: true })))).toBe(false);
    expect(installedFromRegistry(dir, '1.2.3', read(lock({ version: '1.2.2', resolved: registry('1.2.2') })))).toBe(
      false,
    );
    expect(installedFromRegistry(dir, '1.2.3', read(lock(undefined)))).toBe(false);
    expect(
      installedFromRegistry(dir, '1.2.3', () => {
        throw new Error('ENOENT');
      }),
    ).toBe(false);
    // A checkout is not under node_modules.
    expect(
      installedFromRegistry('/src/mcp-smart', '1.2.3', read(lock({ version: '1.2.3', resolved: registry('1.2.3') }))),
    ).toBe(false);
  });

  it('a nested install is looked up under its path in the outermost lockfile', () => {
    const dir = join('/p', 'node_modules', 'tool', 'node_modules', 'mcp-smart');
    const text = JSON.stringify({
      packages: { 'node_modules/tool/node_modules/mcp-smart': { version: '2.0.0', resolved: registry('2.0.0') } },
    });
    expect(installedFromRegistry(dir, '2.0.0', () => text)).toBe(true);
  });

  it('starts a registry install as pinned npx, anything else by node and the real path of bin/mcp-smart.js', () => {
    const prefix = tempDir('mcp-smart-prefix-');
    const pkg = join(prefix, 'node_modules', 'mcp-smart');
    mkdirSync(join(pkg, 'bin'), { recursive: true });
    writeFileSync(
      join(prefix, 'node_modules', '.package-lock.json'),
      lock({ version: VERSION, resolved: registry(VERSION) }),
    );
    expect(launchThis(['serve'], { root: pkg })).toEqual({
      command: 'npx',
      args: ['-y', `mcp-smart@${VERSION}`, 'serve'],
      via: 'registry',
    });
    // A link to a checkout (npm link, a moved symlink) starts the checkout itself.
    const linked = join(tempDir('mcp-smart-link-'), 'mcp-smart');
    symlinkSync(REPO, linked, 'dir');
    expect(launchThis(['serve'], { root: linked, nodePath: '/opt/node' })).toEqual({
      command: '/opt/node',
      args: [BIN, 'serve'],
      via: 'path',
    });
  });

  it('refuses to print an ad-hoc URL that carries credentials, without echoing them', async () => {
    const run = await runCli([
      '--url',
      'https://me:hunter2@example.com/mcp?key=abc',
      'serve',
      '--print-config',
      'cursor',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Invalid value for --url: https://example.com/mcp.');
    expect(run.stderr).not.toContain('hunter2');
    expect(run.stderr).not.toContain('abc');
  });

  it('quotes only the words a shell would change', () => {
    for (const word of ['/usr/bin/node', "it's", 'a b', '', '$HOME', 'x"y', '--max=1']) {
      expect(splitCommandLine(shellQuote(word))).toEqual([word]);
    }
    expect(shellQuote('/usr/bin/node')).toBe('/usr/bin/node');
  });
});

describe("docs/serve-and-adopt.md's print-config sample", () => {
  it('is what `mcp-smart --demo serve --print-config claude-code` prints, with the two paths shortened', async () => {
    const readme = readFileSync(join(REPO, 'docs', 'serve-and-adopt.md'), 'utf8');
    const start = readme.indexOf('```text\n# Claude Code, mode tools');
    expect(start).toBeGreaterThan(0);
    const shown = readme.slice(start + '```text\n'.length, readme.indexOf('```\n', start + 8));
    const run = await runCli(['--demo', 'serve', '--print-config', 'claude-code']);
    const printed = run.stdout
      .split(process.execPath)
      .join('/usr/local/bin/node')
      .split(realpathSync(REPO))
      .join('/home/you/mcp-smart');
    expect(shown).toBe(printed);
  });
});
