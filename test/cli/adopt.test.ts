// `adopt <client>` in-process, each client in its own temporary HOME with fixture configs written the client's way:
// Claude Code's user and local scopes (~/.claude.json), Codex TOML with tool filters, Gemini settings with
// excludeTools and a `$VAR`. Idempotent, refuses a different file without --force, never writes a secret value.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { BIN, fixture } from '../helpers/paths.js';
import { parseConfigText } from '../../src/core/config/parse.js';

const SERVER = fixture('servers', 'catalog-server.mjs');
const TINY = fixture('servers', 'catalogs', 'tiny.json');
const SECRET = 'sk-literal-secret-value-42';
const BEARER = 'Bearer tok-abcdef-987654';

let home: string;
let project: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mcp-smart-adopt-'));
  project = join(home, 'proj');
  mkdirSync(project);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const env = (): Record<string, string> => ({
  NO_COLOR: '1',
  HOME: home,
  MCP_SMART_CACHE_DIR: join(home, 'cache'),
  GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(home, 'no-system', 'settings.json'),
  GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(home, 'no-system', 'system-defaults.json'),
});
const adopt = (...args: string[]): ReturnType<typeof runCli> =>
  runCli(['adopt', ...args], { env: env(), cwd: project });
const written = (): Record<string, unknown> =>
  JSON.parse(readFileSync(join(project, 'mcp-smart.config.json'), 'utf8')) as Record<string, unknown>;

function claudeCode(): void {
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify({
      mcpServers: { notes: { command: 'node', args: [SERVER, TINY], env: { API_KEY: SECRET, DIR: '${HOME}' } } },
      projects: {
        [project]: {
          mcpServers: { remote: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: BEARER } } },
        },
      },
    }),
  );
}
function codex(): void {
  mkdirSync(join(home, '.codex'));
  writeFileSync(
    join(home, '.codex', 'config.toml'),
    [
      '[mcp_servers.notes]',
      'command = "node"',
      `args = [${JSON.stringify(SERVER)}, ${JSON.stringify(TINY)}]`,
      'env_vars = ["GITHUB_TOKEN"]',
      'enabled_tools = ["search_notes", "create_note", "delete_note", "echo"]',
      'disabled_tools = ["delete_note"]',
      '',
    ].join('\n'),
  );
}
function gemini(): void {
  mkdirSync(join(home, '.gemini'));
  writeFileSync(
    join(home, '.gemini', 'settings.json'),
    JSON.stringify({
      mcpServers: {
        notes: { command: 'node', args: [SERVER, TINY], excludeTools: ['delete_note'], env: { T: '$MY_TOKEN' } },
      },
    }),
  );
  // Gemini loads no server in a folder it does not trust (client-trust.ts): this project is trusted.
  writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }));
}

describe('adopt claude-code', () => {
  it('writes the user and local scope servers, literal secrets as ${VAR}, and names the variables', async () => {
    claudeCode();
    const r = await adopt('claude-code');
    expect(r.code).toBe(0);
    expect(written()).toEqual({
      mcpServers: {
        notes: { command: 'node', args: [SERVER, TINY], env: { API_KEY: '${API_KEY}', DIR: '${HOME}' } },
        remote: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: '${REMOTE_TOKEN}' } },
      },
    });
    const file = readFileSync(join(project, 'mcp-smart.config.json'), 'utf8');
    for (const out of [file, r.stdout, r.stderr]) {
      expect(out).not.toContain(SECRET);
      expect(out).not.toContain('tok-abcdef');
    }
    expect(r.stdout).toContain('API_KEY  (notes env.API_KEY)');
    expect(r.stdout).toContain('REMOTE_TOKEN  (remote headers.Authorization)');
    // The switch by hand carries the secrets adopt made variables of (Claude Code stores them in its entry).
    expect(r.stdout).toContain(
      `claude mcp add -e "API_KEY=$API_KEY" -e "REMOTE_TOKEN=$REMOTE_TOKEN" --scope local smart -- ${process.execPath} ${realpathSync(BIN)} --config ${join(project, 'mcp-smart.config.json')} serve --mode tools`,
    );
    // The one-command switch and its way back, as this copy is started.
    expect(r.stdout).toContain(`${process.execPath} ${realpathSync(BIN)} adopt claude-code --apply`);
    expect(r.stdout).toContain(
      `To go back after --apply: ${process.execPath} ${realpathSync(BIN)} adopt claude-code --undo`,
    );
    expect(r.stdout).toContain('After the switch by hand: claude mcp remove --scope local smart');
    // The client's own file is exactly as it was.
    expect(readFileSync(join(home, '.claude.json'), 'utf8')).toContain(SECRET);
  });

  it('is idempotent, and refuses a different file without --force (exit 2), keeping our other keys with it', async () => {
    claudeCode();
    expect((await adopt('claude-code')).code).toBe(0);
    const first = readFileSync(join(project, 'mcp-smart.config.json'), 'utf8');
    const again = await adopt('claude-code');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('unchanged');
    expect(readFileSync(join(project, 'mcp-smart.config.json'), 'utf8')).toBe(first);

    const edited = { mcpServers: { other: { command: 'x' } }, budget: { max: 1000 } };
    writeFileSync(join(project, 'mcp-smart.config.json'), JSON.stringify(edited));
    const refused = await adopt('claude-code');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('mcp-smart.config.json already exists with other content');
    expect(refused.stderr).toContain('--force');
    expect(JSON.parse(readFileSync(join(project, 'mcp-smart.config.json'), 'utf8'))).toEqual(edited);
    const dry = await adopt('claude-code', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('nothing written');
    expect(JSON.parse(readFileSync(join(project, 'mcp-smart.config.json'), 'utf8'))).toEqual(edited);
    const forced = await adopt('claude-code', '--force');
    expect(forced.code).toBe(0);
    expect(Object.keys(written().mcpServers as object)).toEqual(['notes', 'remote']);
    expect(written().budget).toEqual({ max: 1000 });
  });
});

describe('adopt --force over a config written by hand', () => {
  it('replaces the server map in place: the comments, other keys and their layout stay', async () => {
    // adopt --force rewrote the whole file, so a comment was kept only in the backup.
    claudeCode();
    const file = join(project, 'mcp-smart.config.json');
    writeFileSync(
      file,
      '{\n  // the team window\n  "budget": { "max": 1000 },\n  "servers": { "old": { "command": "x" } },\n}\n',
    );
    const forced = await adopt('claude-code', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('// the team window');
    expect(text).toContain('"budget": { "max": 1000 },');
    const doc = parseConfigText(file, text) as { servers: object; budget: unknown };
    expect(Object.keys(doc.servers)).toEqual(['notes', 'remote']);
    expect((await adopt('claude-code')).stdout).toContain('unchanged');
  });
});

describe('adopt codex', () => {
  it('converts TOML to JSON, keeps enabled_tools/disabled_tools as includeTools/excludeTools, env_vars as references', async () => {
    codex();
    const r = await adopt('codex', '--json');
    expect(r.code).toBe(0);
    expect(written()).toEqual({
      mcpServers: {
        notes: {
          command: 'node',
          args: [SERVER, TINY],
          env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' },
          includeTools: ['search_notes', 'create_note', 'delete_note', 'echo'],
          excludeTools: ['delete_note'],
        },
      },
    });
    const doc = JSON.parse(r.stdout) as {
      command: string;
      action: string;
      variables: unknown[];
      back: string;
      switch: string;
      commands: { switch: string[]; back: string[] };
      envVars: string[];
    };
    expect(doc.command).toBe('adopt');
    expect(doc.action).toBe('written');
    expect(doc.variables).toEqual([]);
    expect(doc.back).toContain('codex mcp remove smart');
    // The switch and the way back as argv arrays: serve on the written file, and Codex's own remove.
    expect(doc.commands.switch.slice(0, 5)).toEqual(['codex', 'mcp', 'add', 'smart', '--']);
    expect(doc.commands.switch.slice(-5)).toEqual([
      '--config',
      join(project, 'mcp-smart.config.json'),
      'serve',
      '--mode',
      'tools',
    ]);
    expect(doc.commands.back).toEqual(['codex', 'mcp', 'remove', 'smart']);
    // Codex passes GITHUB_TOKEN on to serve only when the mcp-smart entry lists it: the switch says so.
    expect(doc.envVars).toEqual(['GITHUB_TOKEN']);
    expect(doc.switch).toContain('\nenv_vars = ["GITHUB_TOKEN"]\n');
  });

  it('the adopted file hides in audit what Codex hid (one rule)', async () => {
    codex();
    expect((await adopt('codex')).code).toBe(0);
    const r = await runCli(['--no-cache', '-c', join(project, 'mcp-smart.config.json'), '--json', 'audit'], {
      env: env(),
      cwd: project,
    });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { servers: { tools: { name: string }[] }[] };
    expect(doc.servers[0]?.tools.map((t) => t.name)).toEqual(['search_notes', 'create_note', 'echo']);
  });
});

describe('adopt gemini', () => {
  it('keeps excludeTools and turns $VAR into ${VAR}', async () => {
    gemini();
    const r = await adopt('gemini', '--dry-run', '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { action: string; servers: { name: string; excludeTools?: string[] }[] };
    expect(doc.action).toBe('dry-run');
    expect(doc.servers).toEqual([
      {
        name: 'notes',
        transport: 'stdio',
        source: join(home, '.gemini', 'settings.json'),
        excludeTools: ['delete_note'],
      },
    ]);
    expect((await adopt('gemini')).code).toBe(0);
    expect((written().mcpServers as Record<string, { env: unknown; excludeTools: unknown }>).notes).toMatchObject({
      env: { T: '${MY_TOKEN}' },
      excludeTools: ['delete_note'],
    });
  });

  it('a server Gemini would not load (folder not trusted) is not adopted', async () => {
    gemini();
    rmSync(join(home, '.gemini', 'trustedFolders.json'));
    const r = await adopt('gemini');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Gemini CLI loads no servers here');
  });

  it('a client with no servers here is exit 2 naming the client', async () => {
    const r = await adopt('gemini');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Gemini CLI loads no servers here');
  });

  it('an unknown client is exit 2 with a suggestion', async () => {
    const r = await adopt('gemni');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Did you mean "gemini"?');
  });
});
