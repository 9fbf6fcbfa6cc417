// A --config file in our own format under any name (cfg/team.json) is our config, read and validated whole: its
// `serve` section was dropped unread before (only a file named mcp-smart*.json was validated), so `"mode": "bogus"`,
// `null` and unknown keys passed and `serve.servers.<name>.disable` hid nothing. A file a client owns keeps its
// client's reading; our sections in it are named in a warning, never dropped silently.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadServerDefinitions } from '../../src/core/config/index.js';
import { request } from '../helpers/config-request.js';
import { tempDir } from '../helpers/temp.js';

const SERVERS = { mcpServers: { a: { command: 'node', args: ['a.js'] } } };

function write(name: string, doc: unknown): { cwd: string; file: string } {
  const cwd = tempDir('mcp-smart-own-any-name-');
  const file = join(cwd, name);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(doc));
  return { cwd, file };
}
const load = (cwd: string, ...files: string[]) => loadServerDefinitions(request({ cwd, configFiles: files }));

describe('a --config file with our sections under another name', () => {
  it('cfg/team.json: its serve section is read, and it is the config file', async () => {
    const serve = { mode: 'meta', prefix: 'zz', servers: { a: { disable: ['x'] } } };
    const { cwd, file } = write(join('cfg', 'team.json'), { ...SERVERS, serve, budget: { max: 1000 } });
    const r = await load(cwd, file);
    expect(r.config.serve).toEqual(serve);
    expect(r.config.budget).toEqual({ max: 1000 });
    expect(r.configFile).toBe(file);
    expect(r.servers.map((s) => s.name)).toEqual(['a']);
    expect(r.warnings).toEqual([]);
  });

  it.each([
    [{ serve: { mode: 'bogus' } }, 'serve.mode', 'expected one of "auto", "tools", "meta"'],
    [{ serve: null }, 'serve', 'expected an object, got null'],
    [{ serve: { servers: { a: { disabel: ['x'] } } } }, 'serve.servers.a.disabel', 'Did you mean "disable"?'],
    [{ serve: {}, extra: 1 }, 'extra', 'unknown key "extra"'],
  ])('%j is exit 2 naming the file and key', async (doc, key, reason) => {
    const { cwd, file } = write('team.json', { ...SERVERS, ...doc });
    const err = await load(cwd, file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'CONFIG_INVALID', exitCode: 2 });
    const message = (err as Error).message;
    expect(message).toContain(`${file}: ${key}: `);
    expect(message).toContain(reason);
    expect(message).toContain(`read as mcp-smart's own config, as mcp-smart.config.json is, because it has "serve"`);
  });

  it('entries copied from Gemini (excludeTools) beside serve: still ours, the filter kept', async () => {
    const doc = { mcpServers: { a: { command: 'node', excludeTools: ['y'] } }, serve: { mode: 'tools' } };
    const { cwd, file } = write('team.json', doc);
    const r = await load(cwd, file);
    expect(r.config.serve).toEqual({ mode: 'tools' });
    expect(r.servers[0]?.toolFilter?.exclude).toEqual(['y']);
  });

  it('a file no client owns without our sections is read permissively as before', async () => {
    const { cwd, file } = write('team.json', { ...SERVERS, somethingElse: { x: 1 } });
    const r = await load(cwd, file);
    expect(r.servers.map((s) => s.name)).toEqual(['a']);
    expect(r.configFile).toBeUndefined();
  });

  it("a client's file (.mcp.json) keeps its client's reading; its serve section is named in a warning", async () => {
    const { cwd, file } = write('.mcp.json', { ...SERVERS, serve: { mode: 'bogus' } });
    const r = await load(cwd, file);
    expect(r.servers[0]).toMatchObject({ name: 'a', client: 'claude-code' });
    expect(r.config.serve).toBeUndefined();
    expect(r.warnings).toContain(
      `${file}: "serve" not read: this is Claude Code's file, read as it reads it; mcp-smart's own settings belong in mcp-smart.config.json (or a --config file no client owns).`,
    );
  });

  it('a second config of ours given: its settings are named as not used', async () => {
    const first = write('one.json', { ...SERVERS, serve: { mode: 'meta' } });
    const second = join(first.cwd, 'two.json');
    writeFileSync(second, JSON.stringify({ mcpServers: { b: { command: 'node' } }, serve: { mode: 'tools' } }));
    const r = await load(first.cwd, first.file, second);
    expect(r.config.serve).toEqual({ mode: 'meta' });
    expect(r.warnings).toContain(
      `${second}: its own settings (serve) are not used: only the first mcp-smart config file given has them read (${first.file}).`,
    );
  });
});
