// An empty client config file (0 bytes, or only white space) a client created and left is read as no servers, as its
// client reads it, but no longer without a word: a warning on stderr names the file (where every config warning goes,
// --json included), and the exit code is what it was.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { sandboxEnv } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const TINY = {
  command: process.execPath,
  args: [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')],
};

function project(files: Record<string, string>): { cwd: string; env: NodeJS.ProcessEnv } {
  const dir = tempDir('mcp-smart-empty-client-file-');
  const cwd = join(dir, 'project');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(cwd, name, '..'), { recursive: true });
    writeFileSync(join(cwd, name), text);
  }
  mkdirSync(join(dir, 'home'), { recursive: true });
  return { cwd, env: sandboxEnv(join(dir, 'home'), { MCP_SMART_CACHE_DIR: join(dir, 'cache') }) };
}

const emptyWarning = (file: string): string =>
  `warning: ${file} is empty, so it configures no servers; add server entries to it, or delete it.`;

describe('an empty client config file', () => {
  it('is named in a warning (0 bytes and white space alike); the other files still serve, exit 0', async () => {
    const p = project({
      '.mcp.json': '',
      '.vscode/mcp.json': ' \n\t\n',
      '.cursor/mcp.json': JSON.stringify({ mcpServers: { notes: TINY } }),
    });
    const audit = await runCli(['--no-cache', '--json', 'audit'], { cwd: p.cwd, env: p.env });
    expect(audit.code, audit.stderr).toBe(0);
    const doc = JSON.parse(audit.stdout) as { servers: { name: string; status: string; toolCount: number }[] };
    expect(doc.servers).toEqual([expect.objectContaining({ name: 'notes', status: 'ok', toolCount: 5 })]);
    expect(audit.stderr).toContain(emptyWarning(join(p.cwd, '.mcp.json')));
    expect(audit.stderr).toContain(emptyWarning(join(p.cwd, '.vscode', 'mcp.json')));
    expect(audit.stderr).not.toContain(`${join(p.cwd, '.cursor', 'mcp.json')} is empty`);
    const servers = await runCli(['--json', 'servers'], { cwd: p.cwd, env: p.env });
    expect(servers.code).toBe(0);
    expect(servers.stderr).toContain(emptyWarning(join(p.cwd, '.mcp.json')));
  });

  it('alone: still "no servers" with the exit code it had (audit 2 NO_SERVERS, servers 0), now with the warning', async () => {
    const p = project({ '.mcp.json': '' });
    const audit = await runCli(['--json', 'audit'], { cwd: p.cwd, env: p.env });
    expect(audit.code).toBe(2);
    expect(JSON.parse(audit.stdout)).toMatchObject({ error: { code: 'NO_SERVERS' } });
    expect(audit.stderr).toContain(emptyWarning(join(p.cwd, '.mcp.json')));
    const servers = await runCli(['servers'], { cwd: p.cwd, env: p.env });
    expect(servers.code).toBe(0);
    expect(servers.stderr).toContain(emptyWarning(join(p.cwd, '.mcp.json')));
    // Given with --config, the same.
    const given = await runCli(['--config', '.mcp.json', '--json', 'servers'], { cwd: p.cwd, env: p.env });
    expect(given.code).toBe(0);
    expect(given.stderr).toContain(emptyWarning(join(p.cwd, '.mcp.json')));
  });

  it('a file holding {} is not empty: no warning', async () => {
    const p = project({ '.mcp.json': '{}' });
    const r = await runCli(['servers'], { cwd: p.cwd, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('is empty');
  });
});
