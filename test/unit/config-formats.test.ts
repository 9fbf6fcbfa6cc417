import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadServerDefinitions } from '../../src/core/config/index.js';
import type { ServerDefinition } from '../../src/core/types.js';
import { rmSync } from 'node:fs';
import { afterAll } from 'vitest';
import { CONFIGS, request, trustedHome } from '../helpers/config-request.js';

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});
import { tempDir } from '../helpers/temp.js';

const byName = (servers: ServerDefinition[]): Record<string, ServerDefinition> =>
  Object.fromEntries(servers.map((s) => [s.name, s]));

describe('project-level formats (project-all)', () => {
  it('reads every project file in CONTRACT order with transports, env expansion and disabled servers', async () => {
    const cwd = CONFIGS('project-all');
    const home = trustedHome(cwd, undefined, temps);
    const r = await loadServerDefinitions(request({ cwd, home, env: { GITHUB_TOKEN: 'ghp_x' } }));
    expect(r.servers.map((s) => s.name)).toEqual([
      'github',
      'fetch',
      'remote-docs',
      'cursor-db',
      'cursor-remote',
      'vscode-files',
      'vscode-sse',
      'roo-stream',
      'hub-weather',
      'smart-local',
    ]);
    const s = byName(r.servers);
    expect(s.github).toMatchObject({
      transport: 'stdio',
      command: 'npx',
      source: join(cwd, '.mcp.json'),
      scope: 'project',
      enabled: true,
    });
    expect(s.github?.env).toEqual({ GITHUB_TOKEN: 'ghp_x' });
    expect(s['remote-docs']).toMatchObject({
      transport: 'http',
      url: 'https://docs.example.test/mcp',
      headers: { Authorization: 'Bearer anonymous' },
    });
    expect(s['remote-docs']?.autoTransport).toBeUndefined();
    expect(s['cursor-db']).toMatchObject({ enabled: false, source: join(cwd, '.cursor', 'mcp.json') });
    expect(s['cursor-remote']).toMatchObject({ transport: 'http', autoTransport: true });
    expect(s['vscode-files']).toMatchObject({ args: [`${cwd}/server.js`, '--root', cwd], env: { API_KEY: '' } });
    expect(s['vscode-sse']).toMatchObject({ transport: 'sse', source: join(cwd, '.vscode', 'mcp.json') });
    expect(s['roo-stream']).toMatchObject({ transport: 'http', source: join(cwd, '.roo', 'mcp.json') });
    expect(s['hub-weather']).toMatchObject({
      cwd: join(cwd, 'tools', 'weather'),
      source: join(cwd, 'mcp-settings.json'),
    });
    expect(s['smart-local']?.source).toBe(join(cwd, 'mcp-smart.config.json'));
    // .cursor/mcp.json also defines "fetch": the .mcp.json one wins (Cursor still loads its own).
    expect(r.shadowings).toEqual([
      { name: 'fetch', winner: join(cwd, '.mcp.json'), loser: join(cwd, '.cursor', 'mcp.json'), loserClient: 'cursor' },
    ]);
    expect(r.warnings).toEqual([
      `server "vscode-files" (${join(cwd, '.vscode', 'mcp.json')}): \${input:api-key} can only be resolved by the client that owns this file; using an empty string.`,
    ]);
  });

  it('reads our own config keys from mcp-smart.config.json', async () => {
    const cwd = CONFIGS('project-all');
    const r = await loadServerDefinitions(request({ cwd }));
    expect(r.configFile).toBe(join(cwd, 'mcp-smart.config.json'));
    expect(r.config).toEqual({
      budget: { max: 128000, share: 0.1 },
      thresholds: { maxGrowth: '5%', minRecall: 0.8 },
      baseline: 'mcp-smart.lock.json',
      cache: { ttlSeconds: 600 },
      patterns: {
        rules: [
          { match: '^github\\.', boost: 2 },
          { match: 'delete', exclude: true },
        ],
        allowList: false,
      },
      weights: { fusion: { bm25: 0.8 }, bm25: { fields: { name: 4 } } },
      keywords: { 'github.create_issue': ['ticket', 'bug report'] },
    });
  });
});

describe('user-level formats on Linux (home-linux)', () => {
  const home = CONFIGS('home-linux');

  it('finds Claude Code, Claude Desktop, Cursor, Windsurf, Gemini, VS Code, Cline, Roo and Codex', async () => {
    const r = await loadServerDefinitions(request({ home, env: { CODEX_TOKEN: 'tok' } }));
    const s = byName(r.servers);
    expect(r.servers.map((d) => d.name)).toEqual([
      'claude-code-user',
      'fetch',
      'desktop-linux',
      'cursor-user',
      'windsurf-remote',
      'gemini-http',
      'gemini-sse',
      'vscode-user-settings',
      'vscode-user-mcp',
      'cline-server',
      'roo-user',
      'codex-docs',
      'codex-remote',
      'codex-off',
    ]);
    for (const d of r.servers) expect(d.scope).toBe('user');
    expect(s['claude-code-user']?.source).toBe(join(home, '.claude.json'));
    expect(s['desktop-linux']?.source).toBe(join(home, '.config', 'Claude', 'claude_desktop_config.json'));
    expect(s['windsurf-remote']).toMatchObject({
      transport: 'http',
      autoTransport: true,
      url: 'https://windsurf.example.test/mcp',
    });
    expect(s['gemini-http']).toMatchObject({ transport: 'http', url: 'https://gemini.example.test/mcp' });
    expect(s['gemini-http']?.autoTransport).toBeUndefined();
    // Gemini's `url` without `type`: current releases try Streamable HTTP, then SSE.
    expect(s['gemini-sse']).toMatchObject({ transport: 'http', autoTransport: true });
    expect(s['vscode-user-settings']?.source).toBe(join(home, '.config', 'Code', 'User', 'settings.json'));
    expect(s['vscode-user-mcp']).toMatchObject({
      transport: 'http',
      source: join(home, '.config', 'Code', 'User', 'mcp.json'),
    });
    expect(s['cline-server']?.source).toContain(join('saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'));
    expect(s['roo-user']?.source).toContain(join('rooveterinaryinc.roo-cline', 'settings', 'mcp_settings.json'));
    expect(s['codex-docs']).toMatchObject({
      command: 'npx',
      args: ['-y', 'mcp-server-docs'],
      cwd: '/srv/docs',
      // Codex does not expand variables in values: the text reaches the server as written.
      env: { DOCS_KEY: '${CODEX_DOCS_KEY:-none}' },
    });
    expect(s['codex-remote']).toMatchObject({
      transport: 'http',
      headers: { 'X-Client': 'mcp-smart', Authorization: 'Bearer tok' },
    });
    expect(s['codex-off']?.enabled).toBe(false);
    // ~/.cursor/mcp.json's "fetch" loses to ~/.claude.json's in the merged list (Cursor still loads its own).
    expect(r.shadowings).toEqual([
      {
        name: 'fetch',
        winner: join(home, '.claude.json'),
        loser: join(home, '.cursor', 'mcp.json'),
        loserClient: 'cursor',
      },
    ]);
  });

  it("treats ~/.claude.json's projects[<cwd>] entry as project level", async () => {
    const r = await loadServerDefinitions(request({ home, cwd: '/projects/demo' }));
    const file = join(home, '.claude.json');
    const projectSource = `${file}#projects["/projects/demo"]`;
    expect(r.servers.slice(0, 2).map((s) => [s.name, s.scope, s.source])).toEqual([
      ['claude-project', 'project', projectSource],
      ['claude-code-user', 'project', projectSource],
    ]);
    expect(byName(r.servers)['claude-code-user']?.args).toEqual(['project-wins.js']);
    expect(r.servers.some((s) => s.name === 'other-project')).toBe(false);
    expect(r.shadowings).toContainEqual({ name: 'claude-code-user', winner: projectSource, loser: file });
  });

  it('honours CODEX_HOME and XDG_CONFIG_HOME', async () => {
    const r = await loadServerDefinitions(
      request({ home, env: { CODEX_HOME: CONFIGS('home-empty'), XDG_CONFIG_HOME: CONFIGS('xdg-config') } }),
    );
    const names = r.servers.map((s) => s.name);
    expect(names).toContain('desktop-xdg');
    expect(names).not.toContain('desktop-linux');
    expect(names).not.toContain('vscode-user-settings');
    expect(names).not.toContain('codex-docs');
    expect(r.searched.map((s) => s.file)).toContain(join(CONFIGS('home-empty'), 'config.toml'));
  });
});

describe('user-level formats on macOS and Windows', () => {
  it('reads ~/Library/Application Support on macOS and not ~/.config', async () => {
    const home = CONFIGS('home-macos');
    const r = await loadServerDefinitions(
      request({ home, platform: 'darwin', env: { XDG_CONFIG_HOME: join(home, '.config') } }),
    );
    expect(r.servers.map((s) => s.name)).toEqual(['desktop-mac', 'vscode-mac-flat', 'cline-mac']);
    expect(byName(r.servers)['cline-mac']).toMatchObject({ transport: 'http' });
    expect(byName(r.servers)['desktop-mac']?.source).toBe(
      join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json'),
    );
  });

  it('reads %APPDATA% on Windows, defaulting to ~/AppData/Roaming', async () => {
    const home = CONFIGS('home-windows');
    const expected = ['desktop-win', 'cursor-win', 'vscode-win', 'roo-win'];
    const withEnv = await loadServerDefinitions(
      request({ home, platform: 'win32', env: { APPDATA: join(home, 'AppData', 'Roaming') } }),
    );
    expect(withEnv.servers.map((s) => s.name)).toEqual(expected);
    const withoutEnv = await loadServerDefinitions(request({ home, platform: 'win32' }));
    expect(withoutEnv.servers.map((s) => s.name)).toEqual(expected);
    expect(byName(withEnv.servers)['roo-win']).toMatchObject({ transport: 'sse' });
  });

  it('lists every searched location and whether a file was there', async () => {
    const r = await loadServerDefinitions(request({ home: CONFIGS('home-windows'), platform: 'win32' }));
    expect(r.searched).toHaveLength(20);
    expect(r.searched.filter((s) => s.found).map((s) => s.file)).toEqual([
      join(CONFIGS('home-windows'), 'AppData', 'Roaming', 'Claude', 'claude_desktop_config.json'),
      join(CONFIGS('home-windows'), '.cursor', 'mcp.json'),
      join(CONFIGS('home-windows'), 'AppData', 'Roaming', 'Code', 'User', 'mcp.json'),
      join(
        CONFIGS('home-windows'),
        'AppData',
        'Roaming',
        'Code',
        'User',
        'globalStorage',
        'rooveterinaryinc.roo-cline',
        'settings',
        'mcp_settings.json',
      ),
    ]);
  });
});

describe('--config files detected by shape', () => {
  const d = (f: string): string => CONFIGS('detect', f);

  it('reads mcpServers, servers, mcp.servers, TOML by extension and by content', async () => {
    const r = await loadServerDefinitions(
      request({
        configFiles: [
          d('claude_desktop_config.json'),
          d('vscode-mcp.json'),
          d('vscode-settings.json'),
          d('codex.toml'),
          d('codex-config'),
        ],
        home: CONFIGS('home-linux'),
        cwd: CONFIGS('project-all'),
      }),
    );
    expect(r.servers.map((s) => [s.name, s.scope])).toEqual([
      ['d-desktop', 'explicit'],
      ['d-vscode', 'explicit'],
      ['d-settings', 'explicit'],
      ['d-codex', 'explicit'],
      ['d-codex-noext', 'explicit'],
    ]);
    // Default locations are not searched; only the project's own config keys are still read.
    expect(r.searched.map((s) => s.file)).not.toContain(join(CONFIGS('home-linux'), '.claude.json'));
    expect(r.config.budget).toEqual({ max: 128000, share: 0.1 });
  });

  it('earlier --config files win', async () => {
    const r = await loadServerDefinitions(request({ configFiles: [d('first.json'), d('second.json')] }));
    expect(r.servers.map((s) => [s.name, s.args])).toEqual([
      ['dup', ['first.js']],
      ['only-second', []],
    ]);
    expect(r.shadowings).toEqual([{ name: 'dup', winner: d('first.json'), loser: d('second.json') }]);
  });

  it('recognises our own config by its keys and takes its settings', async () => {
    const r = await loadServerDefinitions(request({ configFiles: [d('smart-shape.json')] }));
    expect(r.servers.map((s) => s.name)).toEqual(['d-smart']);
    expect(r.config).toEqual({ budget: { max: 1000 } });
    expect(r.configFile).toBe(d('smart-shape.json'));
  });

  it('resolves relative --config paths against cwd', async () => {
    const r = await loadServerDefinitions(request({ cwd: CONFIGS('detect'), configFiles: ['codex.toml'] }));
    expect(r.servers[0]?.source).toBe(d('codex.toml'));
  });
});

describe('Claude Code per-project entries on Windows', () => {
  it('matches the cwd case-insensitively and with either slash', async () => {
    const { writeFileSync, rmSync } = await import('node:fs');
    const home = tempDir('mcp-smart-win-home-');
    try {
      writeFileSync(
        join(home, '.claude.json'),
        JSON.stringify({ projects: { 'C:/Users/ada/proj': { mcpServers: { w: { command: 'node.exe' } } } } }),
      );
      const r = await loadServerDefinitions(
        request({ home, cwd: 'C:\\Users\\Ada\\proj\\', platform: 'win32', env: { APPDATA: home } }),
      );
      expect(r.servers.map((s) => [s.name, s.scope])).toEqual([['w', 'project']]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
