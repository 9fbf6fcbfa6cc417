// `adopt <client> --apply` and `--undo` on each client's own files, written the way that client writes them:
// the adopted servers are turned off in the client's terms (Claude Code disabledMcpServers, Gemini mcp.excluded,
// Codex enabled = false, Cursor: entry removed), mcp-smart is added with the secrets the entries had, servers kept
// out stay as they were, a second adopt is a no-op, a server added since is named and left alone, and --undo gives
// back every file byte for byte. Servers written in less common ways (Codex inline tables, dotted keys) are really
// turned off, a form that cannot be edited or a JSON key given twice is refused, and the entries the switch does
// not change keep their comments and layout byte for byte. Plus the safe writes of mcp-smart.config.json: never
// through a link, a replaced file backed up (the way back says where), and two concurrent adopt runs never both
// "written".
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { BIN, fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const SERVER = fixture('servers', 'catalog-server.mjs');
const TINY = fixture('servers', 'catalogs', 'tiny.json');
const SECRET = 'sk-literal-secret-value-42';
const GRAPH = '/data/my-graph.json';

let home: string;
let project: string;
beforeEach(() => {
  home = realpathSync(tempDir('mcp-smart-adopt-switch-'));
  project = join(home, 'proj');
  mkdirSync(project);
});

const env = (): Record<string, string> => ({
  NO_COLOR: '1',
  HOME: home,
  MCP_SMART_CACHE_DIR: join(home, 'cache'),
  GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(home, 'no-system', 'settings.json'),
  GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(home, 'no-system', 'system-defaults.json'),
});
const cli = (...args: string[]): ReturnType<typeof runCli> => runCli(args, { env: env(), cwd: project });
const bytes = (file: string): Buffer => readFileSync(file);
const json = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
/** The value at a key path of a parsed document. */
const get = (doc: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((at, k) => (at as Record<string, unknown> | undefined)?.[k], doc);
const entry = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  command: 'node',
  args: [SERVER, TINY],
  ...extra,
});

const write = (file: string, text: string): string => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  return file;
};
const enabled = async (client: string): Promise<Record<string, boolean>> => {
  const r = await cli('--client', client, 'servers', '--json');
  const doc = JSON.parse(r.stdout) as { servers: { name: string; enabled: boolean }[] };
  return Object.fromEntries(doc.servers.map((s) => [s.name, s.enabled]));
};
/** --apply refused (exit 2, CONFIG_INVALID naming the file and key), nothing written; without it adopt still writes. */
const refused = async (client: string, file: string, key: string): Promise<void> => {
  const before = bytes(file);
  const r = await cli('--json', 'adopt', client, '--apply');
  expect(r.code, r.stderr).toBe(2);
  const err = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
  expect(err.code).toBe('CONFIG_INVALID');
  expect(err.message).toContain(file);
  expect(err.message).toContain(key);
  expect(bytes(file).equals(before)).toBe(true);
  expect(existsSync(join(project, 'mcp-smart.config.json'))).toBe(false);
  // Without --apply, adopt still writes mcp-smart.config.json: only the client's files are at stake.
  expect((await cli('adopt', client)).code).toBe(0);
  expect(bytes(file).equals(before)).toBe(true);
};

function claudeFile(): string {
  const file = join(home, '.claude.json');
  // As Claude Code writes it: two-space JSON, user scope at the top, local scope under projects[<folder>].
  const doc = {
    numStartups: 3,
    mcpServers: { notes: entry({ type: 'stdio', env: { API_KEY: SECRET, MEMORY_FILE_PATH: GRAPH } }) },
    projects: { [project]: { allowedTools: [], mcpServers: { local1: entry({ type: 'stdio' }), keep: entry() } } },
  };
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600 });
  return file;
}

describe('adopt claude-code --apply / --undo', () => {
  it('turns the adopted servers off, adds the "smart" entry with the secret, keeps -s-excluded servers, and undoes byte for byte', async () => {
    const file = claudeFile();
    const before = bytes(file);
    const r = await cli('-s', 'notes', '-s', 'local1', 'adopt', 'claude-code', '--apply');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Switched: Claude Code now starts mcp-smart instead of the adopted servers');
    for (const out of [r.stdout, r.stderr]) expect(out).not.toContain(SECRET);
    // mcp-smart.config.json: the plain value stays a value, the secret a variable.
    expect(get(json(join(project, 'mcp-smart.config.json')), 'mcpServers', 'notes', 'env')).toEqual({
      API_KEY: '${API_KEY}',
      MEMORY_FILE_PATH: GRAPH,
    });
    const local = get(json(file), 'projects', project);
    expect([...(get(local, 'disabledMcpServers') as string[])].sort()).toEqual(['local1', 'notes']);
    expect(get(local, 'mcpServers', 'keep')).toEqual(entry());
    expect(get(local, 'mcpServers', 'smart', 'env')).toEqual({ API_KEY: SECRET });
    // Claude Code defers tools behind its own search: serve in tools mode, each tool first-class under its name.
    expect((get(local, 'mcpServers', 'smart', 'args') as string[]).slice(-3)).toEqual(['serve', '--mode', 'tools']);
    // What the client loads now, read the client's way: the two adopted are off, keep and smart are on.
    const servers = await cli('--client', 'claude-code', 'servers', '--json');
    const enabled = (JSON.parse(servers.stdout) as { servers: { name: string; enabled: boolean }[] }).servers
      .filter((s) => s.enabled)
      .map((s) => s.name)
      .sort();
    expect(enabled).toEqual(['keep', 'smart']);

    // A second adopt is a no-op: nothing written.
    const switched = bytes(file);
    const again = await cli('-s', 'notes', '-s', 'local1', 'adopt', 'claude-code', '--apply');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already runs mcp-smart instead of the adopted servers');
    expect(bytes(file).equals(switched)).toBe(true);

    const undo = await cli('adopt', 'claude-code', '--undo');
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toContain(`${file}: put back as it was, byte for byte`);
    expect(bytes(file).equals(before)).toBe(true);
    // Nothing left to undo.
    const twice = await cli('adopt', 'claude-code', '--undo');
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('Nothing to undo');
  });

  it('a server added in the client since the switch is named and left alone, and --undo keeps it', async () => {
    const file = claudeFile();
    expect((await cli('adopt', 'claude-code', '--apply')).code).toBe(0);
    const doc = json(file);
    (doc.mcpServers as Record<string, unknown>).later = entry();
    writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
    const edited = bytes(file);
    const r = await cli('adopt', 'claude-code');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('loads servers it did not load at the switch');
    expect(r.stdout).toContain(': later. Nothing written');
    expect(bytes(file).equals(edited)).toBe(true);

    const undo = await cli('adopt', 'claude-code', '--undo');
    expect(undo.stdout).toContain('changed since the switch and kept as it is now (mcpServers)');
    const back = json(file);
    expect(Object.keys(get(back, 'mcpServers') as object).sort()).toEqual(['later', 'notes']);
    expect(get(back, 'projects', project, 'disabledMcpServers')).toBeUndefined();
    expect(get(back, 'projects', project, 'mcpServers', 'smart')).toBeUndefined();
  });

  it('a server the client keeps is already named "smart": the entry is "mcp-smart" and the kept one stays', async () => {
    const file = claudeFile();
    const doc = json(file);
    const local = get(doc, 'projects', project, 'mcpServers') as Record<string, unknown>;
    local.smart = local.keep;
    delete local.keep;
    writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
    const before = bytes(file);
    const r = await cli('-s', 'notes', '-s', 'local1', 'adopt', 'claude-code', '--apply');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('adds "mcp-smart"');
    const now = get(json(file), 'projects', project, 'mcpServers');
    expect(get(now, 'smart')).toEqual(entry());
    expect(get(now, 'mcp-smart', 'args')).toContain('serve');
    expect((await cli('adopt', 'claude-code', '--undo')).code).toBe(0);
    expect(bytes(file).equals(before)).toBe(true);
  });
});

describe('adopt --apply / --undo in the other clients', () => {
  it('codex: enabled = false in each adopted table, a [mcp_servers.smart] table; undo byte for byte', async () => {
    mkdirSync(join(home, '.codex'));
    const file = join(home, '.codex', 'config.toml');
    const text = [
      '# my codex config',
      'model = "o4"',
      '',
      '[mcp_servers.notes]',
      'command = "node"',
      `args = [${JSON.stringify(SERVER)}, ${JSON.stringify(TINY)}]`,
      `env = { API_KEY = "${SECRET}", MEMORY_FILE_PATH = "${GRAPH}" }`,
      '',
      '[mcp_servers.other]',
      'command = "node"',
      `args = [${JSON.stringify(SERVER)}, ${JSON.stringify(TINY)}]`,
      'enabled = true',
      '',
    ].join('\n');
    writeFileSync(file, text);
    const r = await cli('adopt', 'codex', '--apply');
    expect(r.code, r.stderr).toBe(0);
    const doc = parseToml(readFileSync(file, 'utf8')) as { mcp_servers: Record<string, Record<string, unknown>> };
    expect(doc.mcp_servers.notes!.enabled).toBe(false);
    expect(doc.mcp_servers.other!.enabled).toBe(false);
    expect(doc.mcp_servers.smart!.env).toEqual({ API_KEY: SECRET });
    expect((doc.mcp_servers.smart!.args as string[]).slice(-3)).toEqual(['serve', '--mode', 'tools']);
    // Codex waits for serve's tools before its first turn, and fails naming it when it cannot start.
    expect(doc.mcp_servers.smart).toMatchObject({ required: true, startup_timeout_sec: 30 });
    expect(readFileSync(file, 'utf8')).toContain('# my codex config');
    const undo = await cli('adopt', 'codex', '--undo');
    expect(undo.code, undo.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('gemini: the names in mcp.excluded, "smart" in the user settings in meta mode; undo byte for byte', async () => {
    mkdirSync(join(home, '.gemini'));
    const file = join(home, '.gemini', 'settings.json');
    writeFileSync(file, JSON.stringify({ security: { auth: { selectedType: 'x' } }, mcpServers: { notes: entry() } }));
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }));
    const before = bytes(file);
    // Gemini CLI sends every declaration on every request and has no tool search: the meta-tools, the rest behind.
    const shown = await cli('adopt', 'gemini', '--dry-run');
    expect(shown.stdout).toContain('# Gemini CLI, mode meta: it sends every tool to the model on each request');
    expect(shown.stdout).toMatch(/gemini mcp add --scope user smart .* serve --mode meta\n/);
    expect((await cli('adopt', 'gemini', '--apply')).code).toBe(0);
    const doc = json(file);
    expect(get(doc, 'mcp', 'excluded')).toEqual(['notes']);
    expect((get(doc, 'mcpServers', 'smart', 'args') as string[]).slice(-3)).toEqual(['serve', '--mode', 'meta']);
    expect(get(doc, 'mcpServers', 'notes')).toEqual(entry());
    expect((await cli('adopt', 'gemini', '--undo')).code).toBe(0);
    expect(bytes(file).equals(before)).toBe(true);
  });

  it('cursor: the adopted entry is removed (Cursor has no off switch in its file) and comes back byte for byte', async () => {
    mkdirSync(join(project, '.cursor'));
    const file = join(project, '.cursor', 'mcp.json');
    const text = `{\n\t// my servers\n\t"mcpServers": {\n\t\t"notes": {"command": "node", "args": ["${SERVER}", "${TINY}"]}\n\t}\n}\n`;
    writeFileSync(file, text);
    const r = await cli('adopt', 'cursor', '--apply');
    expect(r.code, r.stderr).toBe(0);
    const now = readFileSync(file, 'utf8');
    expect(now).toContain('// my servers');
    expect(now).not.toContain('"notes"');
    expect(now).toContain('"smart"');
    expect((await cli('adopt', 'cursor', '--undo')).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});

describe("adopt --apply where the client file holds something else on the switch's path", () => {
  it("claude-code: this project's disabledMcpServers a string", async () => {
    const file = join(home, '.claude.json');
    const doc = { projects: { [project]: { mcpServers: { local1: entry() }, disabledMcpServers: 'oops' } } };
    writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
    await refused('claude-code', file, 'disabledMcpServers');
  });

  it('claude-code: "projects" a list (the edit has nowhere to go; it was an internal error, exit 4)', async () => {
    const file = join(home, '.claude.json');
    writeFileSync(file, JSON.stringify({ projects: [], mcpServers: { notes: entry() } }));
    await refused('claude-code', file, 'projects: expected an object');
  });

  it('gemini: "mcp" a string', async () => {
    mkdirSync(join(home, '.gemini'));
    const file = join(home, '.gemini', 'settings.json');
    writeFileSync(file, JSON.stringify({ mcp: 'x', mcpServers: { notes: entry() } }));
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }));
    await refused('gemini', file, 'mcp: expected an object');
  });

  it('gemini: mcp.excluded a list holding a number', async () => {
    mkdirSync(join(home, '.gemini'));
    const file = join(home, '.gemini', 'settings.json');
    writeFileSync(file, JSON.stringify({ mcp: { excluded: ['other', 7] }, mcpServers: { notes: entry() } }));
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }));
    await refused('gemini', file, 'mcp.excluded');
  });
});

describe('adopt codex --apply: servers written as inline tables or dotted keys', () => {
  it('turns them off in that form (Codex reads them disabled) and --undo gives the file back byte for byte', async () => {
    const text = [
      '# mine',
      'mcp_servers.dot.command = "node"',
      'mcp_servers.dot.args = ["d.js"]',
      'mcp_servers.mem = { command = "node", args = ["x.js"] }',
      '',
      '[mcp_servers.tab]',
      'command = "node"',
      'env = { KEY = "v" }',
      '',
    ].join('\n');
    const file = write(join(home, '.codex', 'config.toml'), text);
    expect(await enabled('codex')).toEqual({ dot: true, mem: true, tab: true });
    const r = await cli('adopt', 'codex', '--apply');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('turns off dot, mem, tab (enabled = false)');
    expect(await enabled('codex')).toEqual({ dot: false, mem: false, tab: false, smart: true });
    expect((await cli('adopt', 'codex', '--undo')).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('a server inside one inline table `mcp_servers = { … }`: exit 2 naming the file and server, nothing written', async () => {
    const file = write(join(home, '.codex', 'config.toml'), 'mcp_servers = { mem = { command = "node" } }\n');
    await refused('codex', file, 'mcp_servers.mem');
  });
});

describe('adopt --apply on a JSON file that gives a key twice (the client reads the last)', () => {
  it('"mcpServers" twice: exit 2 naming the file and key, nothing written', async () => {
    const file = write(
      join(home, '.cursor', 'mcp.json'),
      '{\n  "mcpServers": { "a": { "command": "node" } },\n  "mcpServers": { "gh": { "command": "node" } }\n}\n',
    );
    await refused('cursor', file, 'mcpServers');
  });

  it('a server given twice in the map: exit 2 naming it', async () => {
    const file = write(
      join(home, '.cursor', 'mcp.json'),
      '{ "mcpServers": { "gh": { "command": "old" }, "gh": { "command": "node" } } }\n',
    );
    await refused('cursor', file, 'mcpServers.gh');
  });
});

describe('adopt --apply keeps the comments and layout of the entries it does not change', () => {
  it("cursor: removing one entry keeps the next entry's comment and line; --undo gives the bytes back", async () => {
    const kept =
      '    // Memory: keep this one local, see wiki/mem\n    "mem": { "command": "node", "args": ["mem.js"] }';
    const text = `{"mcpServers": {\n    // GitHub: token rotates monthly\n    "gh": { "command": "node", "args": ["gh.js"] },\n${kept} }}\n`;
    const file = write(join(home, '.cursor', 'mcp.json'), text);
    const r = await cli('-s', 'gh', 'adopt', 'cursor', '--apply');
    expect(r.code, r.stderr).toBe(0);
    const now = readFileSync(file, 'utf8');
    expect(now).toContain(`${kept},\n    "smart": {`);
    expect(now).not.toContain('gh.js');
    expect(await enabled('cursor')).toEqual({ mem: true, smart: true });
    expect((await cli('adopt', 'cursor', '--undo')).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('gemini: adding "smart" leaves a one-line neighbour as it is', async () => {
    const keep = '    "keep": { "command": "node", "args": ["k.js"] }';
    const text = `{\n  "mcpServers": {\n    "notes": { "command": "node", "args": ["n.js"] },\n${keep}\n  }\n}\n`;
    const file = write(join(home, '.gemini', 'settings.json'), text);
    write(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }));
    expect((await cli('-s', 'notes', 'adopt', 'gemini', '--apply')).code).toBe(0);
    const now = readFileSync(file, 'utf8');
    expect(now).toContain(`    "notes": { "command": "node", "args": ["n.js"] },\n${keep},\n    "smart": {`);
    expect((await cli('adopt', 'gemini', '--undo')).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});

describe('writing mcp-smart.config.json safely', () => {
  function cursorUser(): string {
    mkdirSync(join(home, '.cursor'));
    const file = join(home, '.cursor', 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { notes: entry({ env: { API_KEY: SECRET } }) } }));
    return file;
  }

  it('never writes through a symbolic link, even with --force (the link target stays as it was)', async () => {
    const target = cursorUser();
    const before = bytes(target);
    symlinkSync(target, join(project, 'mcp-smart.config.json'));
    const r = await cli('adopt', 'cursor', '--force');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(project, 'mcp-smart.config.json')} is a symbolic link (to ${target})`);
    expect(bytes(target).equals(before)).toBe(true);
  });

  it('a dangling link is refused too: nothing is created where it points', async () => {
    cursorUser();
    const outside = join(home, 'outside', 'planted.json');
    symlinkSync(outside, join(project, 'mcp-smart.config.json'));
    const r = await cli('adopt', 'cursor');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is a symbolic link');
    expect(existsSync(outside)).toBe(false);
  });

  it('--force backs up a hand-written file and the way back says where and how to restore it', async () => {
    cursorUser();
    const file = join(project, 'mcp-smart.config.json');
    const mine = '{\n  "mcpServers": { "hand": { "command": "node", "args": ["x"] } }\n}\n';
    writeFileSync(file, mine);
    expect((await cli('adopt', 'cursor')).code).toBe(2);
    const r = await cli('adopt', 'cursor', '--force');
    expect(r.code, r.stderr).toBe(0);
    const backups = readdirSync(project).filter((f) => f.startsWith('mcp-smart.config.json.adopt-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(project, backups[0]!), 'utf8')).toBe(mine);
    expect(r.stdout).toContain(`Your previous mcp-smart.config.json was copied to ${join(project, backups[0]!)}`);
    expect(r.stdout).toContain(`mv ${join(project, backups[0]!)} mcp-smart.config.json`);
  });

  it('two adopt runs at once: never both "written"; the file holds the winner\'s servers', async () => {
    writeFileSync(
      join(home, '.claude.json'),
      JSON.stringify({ mcpServers: { a: entry(), b: entry({ args: [SERVER, TINY, 'b'] }) } }),
    );
    const run = (server: string): Promise<{ code: number | null; out: string }> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [BIN, '-s', server, 'adopt', 'claude-code'], {
          cwd: project,
          env: { ...env(), PATH: process.env.PATH ?? '' },
        });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        child.on('close', (code) => resolve({ code, out }));
      });
    const results = await Promise.all([run('a'), run('b')]);
    const wrote = results.filter((r) => r.out.includes('Wrote '));
    expect(wrote, results.map((r) => r.out).join('\n---\n')).toHaveLength(1);
    const loser = results.find((r) => r !== wrote[0])!;
    expect(loser.code).toBe(2);
    expect(loser.out).toMatch(/changed while adopt ran|already exists with other content/);
    const winner = wrote[0] === results[0] ? 'a' : 'b';
    expect(Object.keys(get(json(join(project, 'mcp-smart.config.json')), 'mcpServers') as object)).toEqual([winner]);
  });
});
