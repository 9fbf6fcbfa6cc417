// A user-level file with one invalid entry is skipped whole, as its warning says: the entries before the bad one
// used to stay and those after it were dropped unnamed (which ones depended on key order). A user-level path that is a
// folder stopped the whole run, project servers included, where an invalid file is skipped with a warning.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { tempDir } from '../helpers/temp.js';

function home(): { home: string; project: string; env: Record<string, string> } {
  const h = tempDir('mcp-smart-broken-user-');
  const project = join(h, 'proj');
  mkdirSync(project);
  return { home: h, project, env: { NO_COLOR: '1', HOME: h, MCP_SMART_CACHE_DIR: join(h, 'cache') } };
}
const names = (stdout: string): string[] =>
  (JSON.parse(stdout) as { servers: { name: string }[] }).servers.map((s) => s.name).sort();

describe('a user-level file with one invalid entry', () => {
  it('is skipped whole: no entry before the bad one is listed, and the warning names the file and key', async () => {
    const h = home();
    writeFileSync(
      join(h.home, '.claude.json'),
      JSON.stringify({
        mcpServers: {
          a1: { command: 'node', args: ['a'] },
          bad: { command: 'node', args: 'oops' },
          z9: { command: 'node' },
        },
        projects: { [h.project]: { hasTrustDialogAccepted: true, mcpServers: { loc: { command: 'node' } } } },
      }),
    );
    writeFileSync(join(h.project, '.mcp.json'), JSON.stringify({ mcpServers: { proj: { command: 'node' } } }));
    const r = await runCli(['servers', '--json'], { cwd: h.project, env: h.env });
    expect(r.code, r.stderr).toBe(0);
    expect(names(r.stdout)).toEqual(['proj']);
    expect(r.stderr).toContain(join(h.home, '.claude.json'));
    expect(r.stderr).toContain('mcpServers.bad.args');
    expect(r.stderr).toContain('This user-level file was skipped');
  });

  it('a user-level path that is a folder is skipped with the same warning; the project servers are listed', async () => {
    const h = home();
    mkdirSync(join(h.home, '.cursor', 'mcp.json'), { recursive: true });
    writeFileSync(join(h.project, '.mcp.json'), JSON.stringify({ mcpServers: { proj: { command: 'node' } } }));
    const r = await runCli(['servers', '--json'], { cwd: h.project, env: h.env });
    expect(r.code, r.stderr).toBe(0);
    expect(names(r.stdout)).toEqual(['proj']);
    expect(r.stderr).toContain(
      `${join(h.home, '.cursor', 'mcp.json')}: it is a folder; give the file inside it. This user-level file was skipped`,
    );
    // Named with --config, the folder is still an error.
    const explicit = await runCli(['-c', join(h.home, '.cursor', 'mcp.json'), 'servers'], {
      cwd: h.project,
      env: h.env,
    });
    expect(explicit.code).toBe(2);
    expect(explicit.stderr).toContain('it is a folder');
  });
});
