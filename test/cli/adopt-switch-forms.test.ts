// `adopt <client> --apply` does what it says in client files written in less common ways, or refuses before writing:
// a Codex server written as an inline table or dotted keys is really turned off (the client's own reading shows it
// disabled) and --undo gives the bytes back; a form it cannot edit, and a JSON key given twice (the edit would land
// in the dead copy), are exit 2 naming the file and key. Removing and adding entries keeps the other entries'
// comments and layout byte for byte.
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { tempDir } from '../helpers/temp.js';

let home: string;
let project: string;
beforeEach(() => {
  home = realpathSync(tempDir('mcp-smart-adopt-forms-'));
  project = join(home, 'proj');
  mkdirSync(project);
});

const env = (): Record<string, string> => ({
  NO_COLOR: '1',
  HOME: home,
  MCP_SMART_CACHE_DIR: join(home, 'cache'),
  MCP_SMART_DATA_DIR: join(home, 'data'),
});
const cli = (...args: string[]): ReturnType<typeof runCli> => runCli(args, { env: env(), cwd: project });
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
const refused = async (client: string, file: string, key: string, ...flags: string[]): Promise<void> => {
  const before = readFileSync(file);
  const r = await cli('--json', ...flags, 'adopt', client, '--apply');
  expect(r.code, r.stderr).toBe(2);
  const err = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
  expect(err.code).toBe('CONFIG_INVALID');
  expect(err.message).toContain(file);
  expect(err.message).toContain(key);
  expect(readFileSync(file).equals(before)).toBe(true);
  expect(existsSync(join(project, 'mcp-smart.config.json'))).toBe(false);
};

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
