import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { trustedHome } from '../helpers/config-request.js';
import { fixture } from '../helpers/paths.js';

const CONFIGS = (...p: string[]): string => fixture('configs', ...p);
const PROJECT = CONFIGS('project-all');
const temps: string[] = [];
// home-linux, with each client trusting project-all as a user who accepted their dialogs would have.
const HOME = trustedHome(PROJECT, CONFIGS('home-linux'), temps);
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});
const env = (extra: Record<string, string> = {}): Record<string, string> => ({
  HOME,
  NO_COLOR: '1',
  // Gemini's machine-wide settings: a path that does not exist instead of /etc/gemini-cli.
  GEMINI_CLI_SYSTEM_SETTINGS_PATH: CONFIGS('system-empty', 'settings.json'),
  GEMINI_CLI_SYSTEM_DEFAULTS_PATH: CONFIGS('system-empty', 'system-defaults.json'),
  ...extra,
});

interface ServersJson {
  schemaVersion: number;
  command: string;
  servers: { name: string; transport: string; source: string; enabled: boolean; scope: string; shadowed?: string[] }[];
  shadowings: { name: string; winner: string; loser: string }[];
  searched: { file: string; found: boolean }[];
}

describe('mcp-smart servers', () => {
  it('prints a table with transport, source, enabled and shadowing (project-all + home-linux)', async () => {
    const r = await runCli(['servers'], { env: env(), cwd: PROJECT });
    expect(r.code).toBe(0);
    const row = (name: string): string => r.stdout.split('\n').find((l) => l.includes(`│ ${name} `)) ?? '';
    expect(row('fetch')).toMatch(
      /│ fetch\s+│ stdio\s+│ \.mcp\.json\s+│ yes\s+│ shadows \.cursor\/mcp\.json, ~\/\.claude\.json, ~\/\.cursor\/mcp\.json/,
    );
    expect(row('cursor-db')).toMatch(/│ stdio\s+│ \.cursor\/mcp\.json\s+│ no \(disabled\)/);
    expect(row('cursor-remote')).toContain('http (sse fallback)');
    expect(row('gemini-sse')).toMatch(/│ http \(sse fallback\)\s+│ ~\/\.gemini\/settings\.json/);
    expect(row('codex-off')).toContain('no (disabled)');
    expect(r.stdout).toContain('23 servers, 20 enabled.');
    expect(r.stdout).toContain('"fetch" in ~/.claude.json is shadowed by .mcp.json.');
    expect(r.stderr).toContain('warning: server "github"');
    expect(r.stderr).toContain('${GITHUB_TOKEN} is not set');
  });

  it('--json gives the CONTRACT document', async () => {
    const r = await runCli(['servers', '--json'], { env: env(), cwd: PROJECT });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as ServersJson;
    expect(doc.schemaVersion).toBe(1);
    expect(doc.command).toBe('servers');
    expect(doc.servers).toHaveLength(23);
    for (const s of doc.servers) {
      expect(Object.keys(s).slice(0, 4)).toEqual(['name', 'transport', 'source', 'enabled']);
      expect(['stdio', 'http', 'sse']).toContain(s.transport);
    }
    expect(doc.servers.find((s) => s.name === 'cursor-db')).toEqual({
      name: 'cursor-db',
      transport: 'stdio',
      source: join(PROJECT, '.cursor', 'mcp.json'),
      enabled: false,
      scope: 'project',
    });
    expect(doc.shadowings.map((s) => s.loser)).toEqual([
      join(PROJECT, '.cursor', 'mcp.json'),
      join(HOME, '.claude.json'),
      join(HOME, '.cursor', 'mcp.json'),
    ]);
    // 20 server locations, then Claude Code's three approval settings files (read because .mcp.json has servers),
    // then Gemini's trusted folders file (read because Gemini servers are listed).
    expect(doc.searched).toHaveLength(24);
    expect(doc.searched.slice(20).map((x) => x.file)).toEqual([
      join(PROJECT, '.claude', 'settings.local.json'),
      join(PROJECT, '.claude', 'settings.json'),
      join(HOME, '.claude', 'settings.json'),
      join(HOME, '.gemini', 'trustedFolders.json'),
    ]);
  });

  it('--format markdown gives a table and shadowing notes', async () => {
    const r = await runCli(['servers', '--format', 'markdown'], { env: env(), cwd: PROJECT });
    expect(r.code).toBe(0);
    expect(
      r.stdout.startsWith('| name | transport | source | enabled | notes |\n| --- | --- | --- | --- | --- |\n'),
    ).toBe(true);
    expect(r.stdout).toContain('| hub-weather | stdio | mcp-settings.json | yes |  |');
    expect(r.stdout).toContain(
      `- "fetch" in .cursor/mcp.json is shadowed by .mcp.json in mcp-smart's merged list; Cursor still loads its own (--client cursor).`,
    );
    expect(r.stdout).toContain('- "fetch" in ~/.claude.json is shadowed by .mcp.json.\n');
  });

  it("another client's definition of a name is not called shadowed for that client: Cursor loads its own memory", async () => {
    const root = mkdtempSync(join(tmpdir(), 'mcp-smart-servers-shadow-'));
    try {
      const home = join(root, 'home');
      const project = join(root, 'project');
      mkdirSync(join(home, '.cursor'), { recursive: true });
      mkdirSync(project);
      const memory = {
        mcpServers: { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } },
      };
      writeFileSync(join(home, '.claude.json'), JSON.stringify(memory));
      writeFileSync(join(home, '.cursor', 'mcp.json'), JSON.stringify(memory));
      const r = await runCli(['servers'], { env: env({ HOME: home }), cwd: project });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(
        `"memory" in ~/.cursor/mcp.json is shadowed by ~/.claude.json in mcp-smart's merged list; Cursor still loads its own (--client cursor).`,
      );
      const cursor = await runCli(['--client', 'cursor', 'servers', '--json'], {
        env: env({ HOME: home }),
        cwd: project,
      });
      const doc = JSON.parse(cursor.stdout) as ServersJson;
      expect(doc.servers.map((s) => [s.name, s.source])).toEqual([['memory', join(home, '.cursor', 'mcp.json')]]);
      expect(doc.shadowings).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('one file given twice with --config is read once, and said so: its servers do not shadow themselves', async () => {
    const file = join(PROJECT, '.mcp.json');
    const r = await runCli(['-c', file, '-c', file, 'servers', '--json'], { env: env(), cwd: PROJECT });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as ServersJson;
    expect(doc.servers.length).toBeGreaterThan(0);
    expect(doc.servers.some((s) => (s.shadowed ?? []).length > 0)).toBe(false);
    expect(r.stderr).toContain(`${file} is given more than once with --config; it is read once.`);
  });

  it('with no servers anywhere: an empty list and where it looked (home-empty, project-empty)', async () => {
    const o = { env: env({ HOME: CONFIGS('home-empty') }), cwd: CONFIGS('project-empty') };
    const table = await runCli(['servers'], o);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(
      'No MCP servers found. Searched 20 locations (0 files present; --debug lists them).',
    );
    const json = await runCli(['servers', '--json'], o);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as ServersJson).servers).toEqual([]);
    const debug = await runCli(['servers', '--debug'], o);
    expect(debug.stderr).toContain(`missing ${join(CONFIGS('home-empty'), '.claude.json')}`);
  });

  it('--server selects servers; an unknown name is exit 2', async () => {
    const one = await runCli(['servers', '--json', '-s', 'roo-stream'], { env: env(), cwd: PROJECT });
    expect((JSON.parse(one.stdout) as ServersJson).servers.map((s) => s.name)).toEqual(['roo-stream']);
    const bad = await runCli(['servers', '-s', 'nope'], { env: env(), cwd: PROJECT });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('No server named "nope"');
  });

  it('ad-hoc --stdio/--url servers are listed without reading client configs', async () => {
    const r = await runCli(
      ['servers', '--json', '--stdio', 'node "my server.js"', '--name', 'mine', '--url', 'http://127.0.0.1:9/mcp'],
      {
        env: env(),
        cwd: PROJECT,
      },
    );
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as ServersJson;
    expect(doc.servers.map((s) => [s.name, s.transport, s.source, s.scope])).toEqual([
      ['mine', 'stdio', '--stdio', 'adhoc'],
      ['url-1', 'http', '--url', 'adhoc'],
    ]);
  });

  it('one --name for two ad-hoc servers, or two for one, is a usage error: no server hidden, no name dropped', async () => {
    // Two servers named alike listed one ("shadows --stdio"); a second --name replaced the first.
    for (const argv of [
      ['--stdio', 'node a.js', '--name', 'mine', '--url', 'http://127.0.0.1:9/mcp', '--name', 'mine'],
      ['--stdio', 'node a.js', '--name', 'mine', '--name', 'other'],
    ]) {
      const r = await runCli(['servers', '--json', ...argv], { env: env(), cwd: PROJECT });
      expect(r.code, argv.join(' ')).toBe(2);
      expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe('BAD_FLAG');
    }
  });

  it('an unbalanced quote in --stdio is a usage error naming the flag', async () => {
    const r = await runCli(['servers', '--stdio', 'node "x.js'], { env: env(), cwd: PROJECT });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--stdio');
    expect(r.stderr).toContain('Unbalanced double quote');
  });

  // --demo prepares its scratch folder os.tmpdir()/mcp-smart-demo (the run's own TMPDIR under the test runner).
  afterAll(() => rmSync(join(tmpdir(), 'mcp-smart-demo'), { recursive: true, force: true }));
  it('--demo lists the four bundled servers', async () => {
    const r = await runCli(['servers', '--demo', '--json'], { env: env(), cwd: CONFIGS('project-empty') });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as ServersJson;
    expect(doc.servers.map((s) => [s.name, s.source, s.scope])).toEqual([
      ['everything', 'demo', 'demo'],
      ['filesystem', 'demo', 'demo'],
      ['memory', 'demo', 'demo'],
      ['sequential-thinking', 'demo', 'demo'],
    ]);
  });
});

describe('config errors (exit 2, file and key path)', () => {
  it.each([
    ['bad-args', '.mcp.json', 'mcpServers.github.args[1]'],
    ['unknown-key', 'mcp-smart.config.json', 'treshold: unknown key "treshold". Did you mean "thresholds"?'],
    ['bad-json', '.mcp.json', 'is not valid JSON: line 4, column 5'],
  ])('%s', async (dir, file, text) => {
    const r = await runCli(['servers'], { env: { HOME: CONFIGS('home-empty'), NO_COLOR: '1' }, cwd: CONFIGS(dir) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(join(CONFIGS(dir), file));
    expect(r.stderr).toContain(text);
    expect(r.stdout).toBe('');
  });

  it('under --json the error is a JSON document', async () => {
    const r = await runCli(['servers', '--json'], {
      env: { HOME: CONFIGS('home-empty'), NO_COLOR: '1' },
      cwd: CONFIGS('bad-budget'),
    });
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout) as { schemaVersion: number; error: { code: string; message: string } };
    expect(doc.error.code).toBe('CONFIG_INVALID');
    expect(doc.error.message).toContain('budget.share');
  });
});

describe('secrets are never printed (secrets fixture)', () => {
  const SECRETS = [
    'sk-LITERAL-ENV-SECRET-111',
    'LITERAL-HEADER-SECRET-222',
    'ARG-TOKEN-VALUE-333',
    'ENV-TOKEN-VALUE-444',
    'URL-KEY-VALUE-555',
    'HEADER-TOKEN-VALUE-666',
  ];
  const secretEnv = env({
    SECRET_ARG_TOKEN: 'ARG-TOKEN-VALUE-333',
    SECRET_ENV_TOKEN: 'ENV-TOKEN-VALUE-444',
    SECRET_URL_KEY: 'URL-KEY-VALUE-555',
    SECRET_HEADER_TOKEN: 'HEADER-TOKEN-VALUE-666',
  });

  it.each([
    [['servers']],
    [['servers', '--json']],
    [['servers', '--format', 'markdown']],
    [['servers', '--debug']],
    [['servers', '--debug', '--json']],
    [['servers', '--debug', '--config', '.mcp.json']],
  ])('%j', async (argv) => {
    const r = await runCli(argv, { env: secretEnv, cwd: CONFIGS('secrets') });
    expect(r.code).toBe(0);
    const all = r.stdout + r.stderr;
    expect(all).toContain('secretive');
    for (const secret of SECRETS) expect(all).not.toContain(secret);
  });

  it('--debug shows keys with "<redacted>" values and variables by name', async () => {
    const r = await runCli(['servers', '--debug'], { env: secretEnv, cwd: CONFIGS('secrets') });
    expect(r.stderr).toContain('"API_KEY": "<redacted>"');
    expect(r.stderr).toContain('"X-Api-Key": "<redacted>"');
    expect(r.stderr).toContain('"${SECRET_ARG_TOKEN}"');
    expect(r.stderr).toContain(`found   ${join(CONFIGS('secrets'), '.mcp.json')}`);
    expect(r.stderr).toContain('Resolved config (env and header values redacted):');
  });
});

describe('servers shows project servers pending approval', () => {
  it('table and JSON: not enabled, pendingApproval, the command to approve; `trust` then lists them as enabled', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-pending-'));
    temps.push(dir);
    const project = join(dir, 'project');
    mkdirSync(join(project, '.vscode'), { recursive: true });
    writeFileSync(
      join(project, '.vscode', 'mcp.json'),
      JSON.stringify({ servers: { repo: { command: 'node', args: ['./server.js'] } } }),
    );
    const o = {
      env: env({ HOME: join(dir, 'home'), MCP_SMART_DATA_DIR: join(dir, 'data'), MCP_SMART_TRUST_PROJECT: '' }),
      cwd: project,
    };
    const table = await runCli(['servers'], o);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/│ repo\s+│ stdio\s+│ \.vscode\/mcp\.json\s+│ no \(pending approval\)/);
    expect(table.stdout).toContain(
      "1 server from this project's files not started until approved (repo): run `mcp-smart trust`, or pass --trust-project for one run.",
    );
    const json = JSON.parse((await runCli(['servers', '--json'], o)).stdout) as {
      servers: { name: string; enabled: boolean; pendingApproval?: boolean; notLoaded?: string }[];
    };
    expect(json.servers[0]).toMatchObject({ name: 'repo', enabled: false, pendingApproval: true });
    expect(json.servers[0]?.notLoaded).toContain('mcp-smart trust');
    const trust = await runCli(['trust', '--json'], o);
    expect(trust.code).toBe(0);
    expect(JSON.parse(trust.stdout)).toMatchObject({
      command: 'trust',
      project,
      approved: [{ name: 'repo', runs: 'node ./server.js' }],
      trustList: join(dir, 'data', 'trusted-projects.json'),
    });
    const after = JSON.parse((await runCli(['servers', '--json'], o)).stdout) as typeof json;
    expect(after.servers[0]).toMatchObject({ name: 'repo', enabled: true });
    expect(after.servers[0]?.pendingApproval).toBeUndefined();
  });
});
