// Client configs whose server containers have the wrong shape (a null "mcpServers", Claude Code's "projects" or its
// entry for this folder not an object, VS Code's "mcp" not an object) or that are not UTF-8 text: each is named
// precisely — file, key, what was found and what to do — instead of being read silently as "no servers". A good
// server beside it in another file is still listed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

/** A home and a project folder; `files` maps paths (relative to the home, or `proj/…`) to contents. */
function world(files: Record<string, string | Buffer>): { home: string; cwd: string; env: Record<string, string> } {
  const home = mkdtempSync(join(tmpdir(), 'mcp-smart-config-shapes-'));
  temps.push(home);
  const cwd = join(home, 'proj');
  mkdirSync(cwd, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    const file = join(home, rel);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text);
  }
  return {
    home,
    cwd,
    env: {
      NO_COLOR: '1',
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      MCP_SMART_CACHE_DIR: join(home, 'cache'),
      MCP_SMART_DATA_DIR: join(home, 'data'),
      GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(home, 'no-system', 'settings.json'),
      GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(home, 'no-system', 'system-defaults.json'),
    },
  };
}

// A good user-level server in another client's file: it must still be listed beside each broken file.
const GOOD = { '.cursor/mcp.json': JSON.stringify({ mcpServers: { good: { command: 'node', args: ['x.js'] } } }) };

async function servers(files: Record<string, string | Buffer>, args: string[] = []) {
  const w = world({ ...GOOD, ...files });
  const r = await runCli([...args, '--json', 'servers'], { cwd: w.cwd, env: w.env });
  return {
    ...r,
    home: w.home,
    names: r.code === 0 ? (JSON.parse(r.stdout) as { servers: { name: string }[] }).servers.map((s) => s.name) : [],
  };
}

describe('malformed server containers are named, not read as "no servers"', () => {
  it('"mcpServers": null in a user file and in a --config file', async () => {
    const r = await servers({ '.claude.json': '{"mcpServers": null}' });
    expect(r.code).toBe(0);
    expect(r.names).toEqual(['good']);
    expect(r.stderr).toContain(
      `${join(r.home, '.claude.json')}: mcpServers: expected an object mapping server names to their settings, got null, so no servers are read from it. Write {} or remove the key.`,
    );
    const w = world({ 'proj/servers.json': '{"mcpServers": null}' });
    const explicit = await runCli(['--config', join(w.cwd, 'servers.json'), 'servers'], { cwd: w.cwd, env: w.env });
    expect(explicit.stderr).toMatch(/servers\.json: mcpServers: expected an object .* got null/);
  });

  it('Claude Code\'s "projects" that is not an object, and its entry for this folder that is not one', async () => {
    const r = await servers({ '.claude.json': '{"projects": 5}' });
    expect(r.names).toEqual(['good']);
    expect(r.stderr).toContain(
      '.claude.json: projects: expected an object mapping project folders to their settings, got a number',
    );
    const v = world(GOOD);
    writeFileSync(join(v.home, '.claude.json'), JSON.stringify({ projects: { [v.cwd]: [1] } }));
    const mine = await runCli(['servers'], { cwd: v.cwd, env: v.env });
    expect(mine.stderr).toMatch(
      /\.claude\.json: projects\[".*proj"\]: expected an object with this project's settings, got an array/,
    );
  });

  it('VS Code\'s "mcp" that is not an object', async () => {
    const r = await servers({ '.config/Code/User/settings.json': '{"mcp": 5}' });
    expect(r.names).toEqual(['good']);
    expect(r.stderr).toContain(
      'settings.json: mcp: expected an object with "servers", got a number, so no servers are read from it. Write it as {"servers": {…}} or remove it.',
    );
  });

  it('a file saved as UTF-16 is named as such, with what to do', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"mcpServers": {}}', 'utf16le')]);
    const r = await servers({ 'proj/.mcp.json': utf16 });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/\.mcp\.json.*not UTF-8 text.*UTF-16.*Save it as UTF-8/);
  });
});
