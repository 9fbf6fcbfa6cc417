// Bad input to `trust`, `store` and `logout` that did the wrong thing: `trust -s <name>` approved every server of
// the project (a name not there too); a damaged trust list was replaced, dropping every other project's approval;
// `store import` of the store into itself counted every call twice; a bad import/export <file> was answered with
// "pass --store with another file"; a token store that is a folder read "Cannot read …: *** illegal operation".
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { tempDir } from '../helpers/temp.js';

function project(): { dir: string; data: string; cli: (...argv: string[]) => ReturnType<typeof runCli> } {
  const dir = tempDir('mcp-smart-bad-input-');
  const data = join(dir, 'data');
  const env = {
    NO_COLOR: '1',
    HOME: join(dir, 'home'),
    XDG_CONFIG_HOME: join(dir, 'config'),
    MCP_SMART_CACHE_DIR: join(dir, 'cache'),
    MCP_SMART_DATA_DIR: data,
    MCP_SMART_TRUST_PROJECT: '',
  };
  // A Cursor project file: no client gate, only mcp-smart's own approval.
  mkdirSync(join(dir, '.cursor'), { recursive: true });
  writeFileSync(
    join(dir, '.cursor', 'mcp.json'),
    JSON.stringify({ mcpServers: { a: { command: 'node', args: ['a.js'] }, b: { command: 'node', args: ['b.js'] } } }),
  );
  return { dir, data, cli: (...argv) => runCli(argv, { cwd: dir, env }) };
}

const pending = async (cli: (...argv: string[]) => ReturnType<typeof runCli>): Promise<string[]> => {
  const r = await cli('--json', 'servers');
  const doc = JSON.parse(r.stdout) as { servers: { name: string; pendingApproval?: boolean }[] };
  return doc.servers.filter((s) => s.pendingApproval === true).map((s) => s.name);
};

describe('trust: bad input', () => {
  it('-s <name> (there or not) is a usage error that approves nothing; plain trust approves them all', async () => {
    const { cli } = project();
    expect(await pending(cli)).toEqual(['a', 'b']);
    for (const name of ['nope', 'a']) {
      const r = await cli('--json', '-s', name, 'trust');
      expect(r.code).toBe(2);
      expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe('BAD_FLAG');
      expect(await pending(cli)).toEqual(['a', 'b']);
    }
    expect((await cli('trust')).code).toBe(0);
    expect(await pending(cli)).toEqual([]);
  });

  it("a damaged trust list is left as it is (exit 2 naming it), never replaced by this project's approval alone", async () => {
    const { data, cli } = project();
    const list = join(data, 'trusted-projects.json');
    mkdirSync(data, { recursive: true });
    for (const text of ['{"version":1,"projects":[{"project":"/other","hash":"ab', '{"version":1}', '\xff\xfe']) {
      writeFileSync(list, text, 'latin1');
      const before = readFileSync(list);
      const r = await cli('--json', 'trust');
      expect(r.code).toBe(2);
      const error = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe('FILE_PARSE');
      expect(error.message).toContain(list);
      expect(readFileSync(list)).toEqual(before);
      expect(await pending(cli)).toEqual(['a', 'b']);
    }
  });
});

describe('store: bad input', () => {
  const usage = {
    format: 'mcp-smart/usage@1',
    updatedAt: '2026-01-01T00:00:00.000Z',
    tools: { 'a.read': { success: 7, failure: 2, lastUsed: 1_760_000_000_123, categories: { other: 9 } } },
    intents: {},
    sessions: {},
  };

  it('import of the store into itself (by name, through a link, or the default store) is refused, counts unchanged', async () => {
    const { dir, data, cli } = project();
    const store = join(dir, 'usage.json');
    writeFileSync(store, JSON.stringify(usage));
    const before = readFileSync(store, 'utf8');
    symlinkSync(store, join(dir, 'link.json'));
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'usage.json'), before);
    for (const argv of [
      ['store', 'import', 'usage.json', '--store', 'usage.json'],
      ['store', 'import', 'link.json', '--store', store],
      ['store', 'import', join(data, 'usage.json')],
    ]) {
      const r = await cli('--json', ...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe('STORE_REFUSED');
    }
    expect(readFileSync(store, 'utf8')).toBe(before);
    expect(readFileSync(join(data, 'usage.json'), 'utf8')).toBe(before);
    // Into another store it is taken once.
    const ok = await cli('store', 'import', 'usage.json', '--store', 'other.json');
    expect(ok.code, ok.stderr).toBe(0);
    const other = JSON.parse(readFileSync(join(dir, 'other.json'), 'utf8')) as typeof usage;
    expect(other.tools['a.read']?.success).toBe(7);
  });

  it('a bad import or export <file> is refused untouched, and the advice is about that file, not --store', async () => {
    const { dir, cli } = project();
    // Damaged but ours (our writer puts "format" first): the live store is moved aside and learning restarts; a file
    // named to import was renamed to .corrupt-<time> and "0 tools" imported, exit 0; one to export to likewise, and
    // the refusal that followed said "left untouched".
    writeFileSync(join(dir, 'trunc.json'), '{"format":"mcp-smart/usage@1","tools":{');
    mkdirSync(join(dir, 'folder'));
    const cases: [string[], string][] = [
      [['store', 'import', 'trunc.json', '--store', 'x.json'], 'name another usage store file to import'],
      [['store', 'import', 'folder', '--store', 'x.json'], 'name another usage store file to import'],
      [['store', 'export', 'folder', '--store', 'x.json'], 'name another file to export to'],
      [['store', 'export', 'trunc.json', '--store', 'x.json'], 'name another file to export to'],
    ];
    for (const [argv, advice] of cases) {
      const r = await cli('--json', ...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      const message = (JSON.parse(r.stdout) as { error: { message: string } }).error.message;
      expect(message).toContain(advice);
      expect(message).not.toContain('--store');
    }
    expect(readFileSync(join(dir, 'trunc.json'), 'utf8')).toBe('{"format":"mcp-smart/usage@1","tools":{');
    expect(readdirSync(dir).filter((f) => f.includes('.corrupt-'))).toEqual([]);
    // --force replaces it, the damaged one kept beside it.
    const forced = await cli('store', 'export', 'trunc.json', '--force', '--store', 'x.json');
    expect(forced.code, forced.stderr).toBe(0);
    expect(readdirSync(dir).filter((f) => f.startsWith('trunc.json.corrupt-'))).toHaveLength(1);
  });
});

describe('logout: bad input', () => {
  it('logout <a stdio server> is exit 2 naming logout (it said "login is for remote …")', async () => {
    const { cli } = project();
    const r = await cli('--json', 'logout', 'a');
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as { error: unknown }).error).toEqual({
      code: 'AUTH_NOT_REMOTE',
      message: 'a is a stdio server; logout is for remote (HTTP/SSE) servers behind OAuth.',
    });
  });

  it('a token store that is a folder: exit 2 saying so, the folder left alone', async () => {
    const { dir, cli } = project();
    const tokens = join(dir, 'config', 'mcp-smart', 'oauth-tokens.json');
    mkdirSync(tokens, { recursive: true });
    const r = await cli('--json', 'logout');
    expect(r.code).toBe(2);
    const error = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
    expect(error).toEqual({
      code: 'FILE_UNREADABLE',
      message: `Cannot read ${tokens}: it is a folder; give the file inside it`,
    });
  });
});

describe('store forget: ids the store has no counts for', () => {
  it('names them on stderr and forgets the ones it has, the rest of the store untouched', async () => {
    const { data, cli } = project();
    mkdirSync(data, { recursive: true });
    const now = Date.now();
    const tool = { success: 2, failure: 0, lastUsed: now, categories: {} };
    const file = join(data, 'usage.json');
    writeFileSync(
      file,
      JSON.stringify({
        format: 'mcp-smart/usage@1',
        updatedAt: new Date(now).toISOString(),
        tools: { 'fs.read_file': tool, 'fs.write_file': tool },
        sessions: {},
      }),
    );
    const r = await cli('store', 'forget', '--tool', 'fs.read_file', '--tool', 'fs.raed_file');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('has no counts for "fs.raed_file": nothing forgotten for it');
    expect(r.stderr).not.toContain('"fs.read_file"');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { tools: Record<string, unknown> };
    expect(Object.keys(doc.tools)).toEqual(['fs.write_file']);
  });
});
