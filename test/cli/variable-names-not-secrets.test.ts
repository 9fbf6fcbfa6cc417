// A reference to a variable (`${input:tenant}`, `$GITHUB_PAT`, `${GH_PAT}`) is a name, not a secret: it was scrubbed
// to `***` like a value — in the URL adopt wrote (so serve called a broken URL and every later adopt was refused as
// "other content"), in the add command and JSON adopt prints, and in the "is not set" warning, so the user could not
// tell which variable to set. A secret flag's value in args (`--password X`) was printed in full by servers --debug.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { tempDir } from '../helpers/temp.js';

/** A HOME with a project folder (fakeIo keeps Gemini's machine-wide files out of reach). */
function sandbox(): { home: string; cwd: string; env: Record<string, string> } {
  const home = tempDir('mcp-smart-var-names-');
  const cwd = join(home, 'proj');
  mkdirSync(cwd);
  return {
    home,
    cwd,
    env: { HOME: home, MCP_SMART_CACHE_DIR: join(home, 'cache'), MCP_SMART_DATA_DIR: join(home, 'data') },
  };
}

describe('variable references are never scrubbed', () => {
  it('adopt vscode keeps ${input:tenant} in the URL it writes, and a second adopt is unchanged', async () => {
    const p = sandbox();
    mkdirSync(join(p.cwd, '.vscode'));
    writeFileSync(
      join(p.cwd, '.vscode', 'mcp.json'),
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'tenant' }],
        servers: {
          api: { type: 'http', url: 'https://example.invalid/${input:tenant}/mcp' },
          loc: { command: 'node', args: ['x.js'], env: { TENANT_TOKEN: '${input:tenant}' } },
        },
      }),
    );
    const first = await runCli(['adopt', 'vscode', '--json'], { env: p.env, cwd: p.cwd });
    expect(first.code, first.stderr).toBe(0);
    const file = JSON.parse(readFileSync(join(p.cwd, 'mcp-smart.config.json'), 'utf8')) as {
      mcpServers: { api: { url: string }; loc: { env: Record<string, string> } };
    };
    expect(file.mcpServers.api.url).toBe('https://example.invalid/${input:tenant}/mcp');
    expect(file.mcpServers.loc.env.TENANT_TOKEN).toBe('${TENANT_TOKEN}');
    const again = await runCli(['adopt', 'vscode', '--json'], { env: p.env, cwd: p.cwd });
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { action: string }).action).toBe('unchanged');
  });

  it('adopt gemini names an unset $GITHUB_PAT in its warning, add command and JSON', async () => {
    const p = sandbox();
    mkdirSync(join(p.home, '.gemini'));
    writeFileSync(
      join(p.home, '.gemini', 'settings.json'),
      JSON.stringify({
        mcpServers: { gh: { command: 'node', args: ['x.js'], env: { GITHUB_TOKEN: '$GITHUB_PAT' } } },
      }),
    );
    writeFileSync(join(p.home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [p.cwd]: 'TRUST_FOLDER' }));
    const r = await runCli(['adopt', 'gemini', '--dry-run'], { env: p.env, cwd: p.cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('***');
    expect(r.stderr).toContain('$GITHUB_PAT is not set');
    expect(r.stdout).toContain('-e "GITHUB_PAT=$GITHUB_PAT"');
    expect(r.stdout).toContain('"GITHUB_PAT": "$GITHUB_PAT"');
  });

  it('Claude Code: an unset ${GH_PAT} is named in the warning and shown by servers --debug', async () => {
    const p = sandbox();
    writeFileSync(
      join(p.home, '.claude.json'),
      JSON.stringify({ mcpServers: { gh: { command: 'node', args: ['x.js'], env: { GITHUB_TOKEN: '${GH_PAT}' } } } }),
    );
    const r = await runCli(['servers', '--debug'], { env: p.env, cwd: p.cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('***');
    expect(r.stderr).toContain('${GH_PAT} is not set and has no default');
    expect(r.stdout + r.stderr).toContain('"GITHUB_TOKEN": "${GH_PAT}"');
  });

  it('a literal that only looks like a reference ($ecret where nothing expands) stays hidden', async () => {
    const p = sandbox();
    mkdirSync(join(p.home, '.config', 'Claude'), { recursive: true });
    writeFileSync(
      join(p.home, '.config', 'Claude', 'claude_desktop_config.json'),
      JSON.stringify({ mcpServers: { db: { command: 'db-mcp', env: { DB_PASSWORD: '$ecretPassw0rd' } } } }),
    );
    const r = await runCli(['servers', '--debug'], { env: p.env, cwd: p.cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('$ecretPassw0rd');
  });
});

describe('secret flags in args are hidden wherever a command line is printed', () => {
  const SERVERS = {
    mcpServers: {
      pg: {
        command: 'mcp-pg',
        args: ['--password', 'CorrectHorseBattery', '--token=mysecrettokenvalue', '--db', 'app'],
      },
    },
  };

  it('servers --debug hides the values and keeps the flags and plain arguments', async () => {
    const p = sandbox();
    writeFileSync(join(p.cwd, 'f.json'), JSON.stringify(SERVERS));
    const r = await runCli(['-c', 'f.json', 'servers', '--debug'], { env: p.env, cwd: p.cwd });
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout + r.stderr;
    expect(out).not.toContain('CorrectHorseBattery');
    expect(out).not.toContain('mysecrettokenvalue');
    expect(out).toContain('"--password"');
    expect(out).toContain('"--token=<redacted>"');
    expect(out).toContain('"app"');
  });

  it('trust lists what it approves without the values', async () => {
    const p = sandbox();
    writeFileSync(join(p.cwd, 'mcp-settings.json'), JSON.stringify(SERVERS));
    const r = await runCli(['trust'], { env: p.env, cwd: p.cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('mcp-pg --password');
    expect(r.stdout + r.stderr).not.toContain('CorrectHorseBattery');
    expect(r.stdout + r.stderr).not.toContain('mysecrettokenvalue');
  });
});
