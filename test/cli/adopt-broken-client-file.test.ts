// A client's own file that is invalid is never hidden: adopt said "Windsurf loads no servers here" and
// `--client windsurf servers` "No MCP servers found … Add servers to .mcp.json" (exit 0) while Windsurf's only file
// was present but invalid; adopt printed none of the warnings about skipped files.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { tempDir } from '../helpers/temp.js';

function setup(): { home: string; project: string; env: Record<string, string> } {
  const home = tempDir('mcp-smart-adopt-broken-');
  const project = join(home, 'proj');
  mkdirSync(project);
  const env = {
    NO_COLOR: '1',
    HOME: home,
    MCP_SMART_CACHE_DIR: join(home, 'cache'),
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(home, 'no-system', 'settings.json'),
    GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(home, 'no-system', 'system-defaults.json'),
  };
  return { home, project, env };
}
const write = (file: string, doc: unknown): void => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(doc));
};

describe("a client's own file that is invalid", () => {
  it('adopt windsurf and --client windsurf servers: exit 2 naming the file and key', async () => {
    const s = setup();
    const file = join(s.home, '.codeium', 'windsurf', 'mcp_config.json');
    write(file, {
      mcpServers: { w1: { serverUrl: 'http://127.0.0.1:18766/mcp', disabledTools: 'x' }, w2: { command: 'node' } },
    });
    for (const argv of [
      ['adopt', 'windsurf'],
      ['--client', 'windsurf', 'servers'],
    ]) {
      const r = await runCli(argv, { cwd: s.project, env: s.env });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain(`${file}: mcpServers.w1.disabledTools:`);
      // A tool list's hint shows tool names, not command-line arguments.
      expect(r.stderr).toContain('Write it as ["tool_name", "other_tool"]');
      expect(r.stderr).not.toContain('loads no servers here');
    }
  });

  it('adopt claude-code: ~/.claude.json skipped whole (its local scope too) is exit 2 naming the key', async () => {
    const s = setup();
    write(join(s.home, '.claude.json'), {
      mcpServers: { a1: { command: 'node', args: ['a'] }, bad: { command: 'node', args: 'oops' } },
      projects: { [s.project]: { hasTrustDialogAccepted: true, mcpServers: { loc: { command: 'node' } } } },
    });
    const r = await runCli(['adopt', 'claude-code'], { cwd: s.project, env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('mcpServers.bad.args');
  });

  it("adopt gemini: the user file skipped, the project's servers adopted, with the warning printed", async () => {
    const s = setup();
    write(join(s.home, '.gemini', 'settings.json'), { mcpServers: { u: { command: 'node', excludeTools: 'x' } } });
    write(join(s.home, '.gemini', 'trustedFolders.json'), { [s.project]: 'TRUST_FOLDER' });
    write(join(s.project, '.gemini', 'settings.json'), { mcpServers: { p: { command: 'node' } } });
    const r = await runCli(['adopt', 'gemini', '--dry-run'], { cwd: s.project, env: s.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Adopted 1 server:');
    expect(r.stderr).toContain(
      `warning: ${join(s.home, '.gemini', 'settings.json')}: mcpServers.u.excludeTools: expected an array of strings`,
    );
    expect(r.stderr).toContain('This user-level file was skipped');
  });
});
