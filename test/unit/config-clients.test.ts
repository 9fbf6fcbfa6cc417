// Each client's config read as that client reads it: one fixture folder per rule (fixtures/configs/<scenario>,
// whose README cites the client's documentation), one test per rule. HOME stand-ins are fixture folders or
// temporary folders removed afterwards; machine-wide files are looked for under a fixture root, never /etc.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadServerDefinitions } from '../../src/core/config/index.js';
import { hiddenToolNames } from '../../src/core/config/tool-filter.js';
import type { ServerDefinition } from '../../src/core/types.js';
import { CONFIGS, request, trustedHome } from '../helpers/config-request.js';

const byName = (defs: ServerDefinition[]): Record<string, ServerDefinition> =>
  Object.fromEntries(defs.map((d) => [d.name, d]));

const temps: string[] = [];
function tempHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-clients-'));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

describe('claude-code-scopes', () => {
  it('local (~/.claude.json projects[<cwd>]) beats project (.mcp.json) beats user; disabledMcpServers switches off', async () => {
    const cwd = CONFIGS('claude-code-scopes');
    const raw = tempHome();
    const text = readFileSync(join(cwd, 'home', '.claude.json'), 'utf8').replace('"<cwd>"', JSON.stringify(cwd));
    writeFileSync(join(raw, '.claude.json'), text);
    const home = trustedHome(cwd, raw, temps);
    const r = await loadServerDefinitions(request({ cwd, home, client: 'claude-code' }));
    const s = byName(r.servers);
    expect(s.both?.args).toEqual(['from-local.js']);
    expect(s.both?.layer).toBe('local');
    expect(s.both?.shadowed).toEqual([join(cwd, '.mcp.json'), join(home, '.claude.json')]);
    expect(s['project-only']?.layer).toBe('project');
    expect(s['user-only']?.layer).toBe('user');
    expect(r.servers.map((d) => [d.name, d.enabled])).toEqual([
      ['both', true],
      ['project-only', true],
      ['user-only', true],
      ['switched-off', false],
    ]);
    expect(s['switched-off']?.notLoaded).toBe(
      `switched off in Claude Code (${join(home, '.claude.json')}#projects[${JSON.stringify(cwd)}] disabledMcpServers), so Claude Code does not load it.`,
    );
    const claude = r.clients.find((c) => c.client === 'claude-code');
    expect(claude?.servers.map((d) => [d.name, d.layer])).toEqual([
      ['both', 'local'],
      ['project-only', 'project'],
      ['user-only', 'user'],
      ['switched-off', 'user'],
    ]);
  });
});

describe('claude-code-approval', () => {
  it('loads approved project servers only; rejected and unanswered ones are left out with a warning', async () => {
    const cwd = CONFIGS('claude-code-approval');
    const r = await loadServerDefinitions(request({ cwd, home: trustedHome(cwd, undefined, temps, false) }));
    expect(r.servers.map((d) => [d.name, d.enabled])).toEqual([
      ['approved', true],
      ['rejected', false],
      ['unanswered', false],
    ]);
    const settings = join(cwd, '.claude', 'settings.json');
    expect(byName(r.servers).rejected?.notLoaded).toBe(
      `rejected in Claude Code (${settings} disabledMcpjsonServers), so Claude Code does not load it.`,
    );
    expect(r.warnings).toContain(
      `server "unanswered" (${join(cwd, '.mcp.json')}): pending approval in Claude Code (not in enabledMcpjsonServers, enableAllProjectMcpServers not true), so Claude Code does not load it.`,
    );
  });

  it('claude-code-approve-all: enableAllProjectMcpServers approves all but the rejected', async () => {
    const cwd = CONFIGS('claude-code-approve-all');
    const r = await loadServerDefinitions(request({ cwd, home: trustedHome(cwd, undefined, temps, false) }));
    expect(r.servers.map((d) => [d.name, d.enabled])).toEqual([
      ['any', true],
      ['rejected', false],
    ]);
  });

  it('without any approval state the project servers are pending approval in Claude Code, not loaded', async () => {
    const cwd = CONFIGS('claude-code-scopes');
    const r = await loadServerDefinitions(request({ cwd }));
    expect(r.servers.map((d) => [d.name, d.enabled, d.gate])).toEqual([
      ['both', false, 'claude-pending'],
      ['project-only', false, 'claude-pending'],
    ]);
    expect(byName(r.servers).both?.notLoaded).toBe(
      'pending approval in Claude Code (not in enabledMcpjsonServers, enableAllProjectMcpServers not true), so Claude Code does not load it.',
    );
  });

  it('approved in settings but the folder trust dialog never accepted: still pending in Claude Code', async () => {
    const cwd = CONFIGS('claude-code-approve-all');
    const r = await loadServerDefinitions(request({ cwd }));
    expect(byName(r.servers).any).toMatchObject({ enabled: false, gate: 'claude-pending' });
    expect(byName(r.servers).any?.notLoaded).toContain('the trust dialog for this folder was not accepted');
  });
});

describe('claude-code-variables', () => {
  it('expands ${VAR} and ${VAR:-default}, not $VAR; ${env:VAR} and a url without type are refused', async () => {
    const cwd = CONFIGS('claude-code-variables');
    const file = join(cwd, '.mcp.json');
    const r = await loadServerDefinitions(
      request({ cwd, home: trustedHome(cwd, undefined, temps), env: { CC_SET: 'set-value' } }),
    );
    const s = byName(r.servers);
    expect(s.defaults?.args).toEqual(['s.js', 'set-value', 'fallback', '$CC_SET']);
    expect(s.defaults?.enabled).toBe(true);
    expect(s['env-prefix']?.enabled).toBe(false);
    expect(s['env-prefix']?.notLoaded).toBe(
      "${env:CC_SET} is not set and has no default: Claude Code refuses this server's config.",
    );
    expect(s['remote-no-type']).toMatchObject({ enabled: false, transport: 'http' });
    expect(r.warnings).toContain(
      `${file}: mcpServers.remote-no-type.type: Claude Code needs "type": "http" or "sse" beside "url"; without it Claude Code rejects this server.`,
    );
  });
});

describe('vscode-variables', () => {
  const cwd = CONFIGS('vscode-variables');
  const file = join(cwd, '.vscode', 'mcp.json');

  it('expands ${workspaceFolder} and ${env:VAR}, passes a plain ${VAR} through, loads envFile', async () => {
    const r = await loadServerDefinitions(request({ cwd, env: { VS_TOKEN: 'tok', AUTH: 'never-read' } }));
    const s = byName(r.servers);
    expect(s['editor-vars']?.args).toEqual([join(cwd, 's.js'), 'tok', '${VS_TOKEN}']);
    expect(s['editor-vars']?.env).toEqual({ FROM_FILE: 'file-value', QUOTED: 'two words' });
    // mcp-remote fills ${AUTH} from the server's env: passed through as written, without a warning.
    expect(s.wrapper?.args?.[3]).toBe('Authorization: Bearer ${AUTH}');
    expect(s.wrapper?.env).toEqual({ AUTH: 'tok' });
    expect(r.warnings).toContain(
      `server "editor-vars" (${file}): VS Code passes "\${VS_TOKEN}" to the server as written (it does not expand this form).`,
    );
    expect(r.warnings.some((w) => w.includes('"wrapper"') && w.includes('AUTH'))).toBe(false);
  });

  it('names a missing envFile in a warning and keeps the server', async () => {
    const r = await loadServerDefinitions(request({ cwd }));
    expect(byName(r.servers)['missing-env-file']?.enabled).toBe(true);
    expect(r.warnings).toContain(
      `server "missing-env-file" (${file}): envFile ${join(cwd, 'missing.env')} was not found; the server starts without its variables.`,
    );
  });

  it('an ${input:…} forming the URL host leaves the server out instead of inventing a URL', async () => {
    const r = await loadServerDefinitions(request({ cwd }));
    const asked = byName(r.servers)['asked-host'];
    expect(asked?.enabled).toBe(false);
    expect(asked?.notLoaded).toContain('its URL has no host once variables are filled (https://${input:host}/mcp)');
  });

  it('"type": "http" tries Streamable HTTP, then SSE', async () => {
    const r = await loadServerDefinitions(request({ cwd }));
    expect(byName(r.servers).streamable).toMatchObject({ transport: 'http', autoTransport: true, client: 'vscode' });
  });
});

describe('cursor-variables', () => {
  it('expands ${env:NAME} and ${userHome}, keeps a plain ${VAR}, loads envFile relative to the project', async () => {
    const cwd = CONFIGS('cursor-variables');
    const r = await loadServerDefinitions(request({ cwd, home: '/home/ada', env: { CUR_TOKEN: 'ct' } }));
    const s = byName(r.servers);
    expect(s.remote?.headers).toEqual({ Authorization: 'Bearer ct', 'X-Literal': '${CUR_TOKEN}' });
    expect(s.local?.args).toEqual(['/home/ada/s.js']);
    expect(s.local?.env).toEqual({ CURSOR_FILE_VAR: 'from-file' });
  });
});

describe('claude-desktop-literal', () => {
  it('passes ${VAR} through as written and does not load a url entry', async () => {
    const file = CONFIGS('claude-desktop-literal', 'claude_desktop_config.json');
    const r = await loadServerDefinitions(request({ configFiles: [file], env: { TOKEN: 'secret' } }));
    const s = byName(r.servers);
    expect(s.literal?.args?.[3]).toBe('Authorization: Bearer ${TOKEN}');
    expect(s.literal?.client).toBe('claude-desktop');
    expect(s.remote?.enabled).toBe(false);
    expect(r.warnings).toContain(
      `${file}: mcpServers.remote.url: Claude Desktop starts only stdio servers from this file (remote servers are added under Settings > Connectors), so it does not load this one.`,
    );
  });
});

describe('gemini-layers', () => {
  const cwd = CONFIGS('gemini-layers', 'project');
  const home = CONFIGS('gemini-layers', 'home');
  const systemRoot = CONFIGS('gemini-layers', 'system');
  // Trusted as Gemini's own GEMINI_CLI_TRUST_WORKSPACE=true does (gemini-folder-trust below covers the gate).
  const load = () =>
    loadServerDefinitions(
      request({ cwd, home, systemRoot, client: 'gemini', env: { GEM_SET: 'g', GEMINI_CLI_TRUST_WORKSPACE: 'true' } }),
    );

  it('system settings > project > user > system defaults, merged by server name', async () => {
    const r = await load();
    const s = byName(r.servers);
    expect(s.everywhere?.args).toEqual(['system.js']);
    expect(s.everywhere?.layer).toBe('system');
    expect(s.shared?.layer).toBe('project');
    expect(s['defaults-only']?.layer).toBe('system-defaults');
    expect(s.everywhere?.shadowed).toEqual([
      join(cwd, '.gemini', 'settings.json'),
      join(home, '.gemini', 'settings.json'),
      join(systemRoot, 'etc', 'gemini-cli', 'system-defaults.json'),
    ]);
  });

  it('expands $VAR, ${VAR} and ${VAR:-default}, keeps an unset one as written', async () => {
    const r = await load();
    expect(byName(r.servers).shared?.args).toEqual([
      'project-shared.js',
      'g',
      'g',
      '$GEM_UNSET',
      '${GEM_UNSET}',
      'dflt',
    ]);
    expect(r.warnings).toContain(
      `server "shared" (${join(cwd, '.gemini', 'settings.json')}): $GEM_UNSET is not set; Gemini CLI keeps it as written.`,
    );
  });

  it('mcp.excluded leaves a server out', async () => {
    const r = await load();
    expect(byName(r.servers)['user-excluded']).toMatchObject({ enabled: false });
    expect(byName(r.servers)['user-excluded']?.notLoaded).toBe(
      `listed in mcp.excluded of ${join(home, '.gemini', 'settings.json')}, so Gemini CLI does not connect to it.`,
    );
  });

  it('url tries Streamable HTTP then SSE; httpUrl is Streamable HTTP', async () => {
    const s = byName((await load()).servers);
    expect(s['sse-or-http']).toMatchObject({ transport: 'http', autoTransport: true });
    expect(s.streamable).toMatchObject({ transport: 'http' });
    expect(s.streamable?.autoTransport).toBeUndefined();
  });

  it('includeTools / excludeTools ride on the definition; exclude wins', async () => {
    const f = byName((await load()).servers).filtered?.toolFilter;
    expect(f).toEqual({
      include: ['a', 'b', 'c'],
      exclude: ['b'],
      keys: ['mcpServers.filtered.includeTools', 'mcpServers.filtered.excludeTools'],
    });
    expect(hiddenToolNames(f, ['a', 'b', 'c', 'd'])).toEqual(['b', 'd']);
  });
});

describe('gemini-any-name', () => {
  it('reads the same file the same way at .gemini/settings.json and under another name', async () => {
    const cwd = CONFIGS('gemini-any-name');
    const strip = (d: ServerDefinition | undefined): unknown => ({ ...d, source: undefined, scope: undefined });
    const atHome = await loadServerDefinitions(request({ cwd, configFiles: ['.gemini/settings.json'] }));
    const named = await loadServerDefinitions(request({ cwd, configFiles: ['gemini-settings.json'] }));
    expect(named.servers.map(strip)).toEqual(atHome.servers.map(strip));
    expect(byName(named.servers).gem).toMatchObject({
      client: 'gemini',
      transport: 'http',
      autoTransport: true,
      toolFilter: { exclude: ['drop_me'] },
    });
    expect(byName(named.servers).tok?.args).toEqual(['${GEM_TOKEN}']);
  });
});

describe('codex-project', () => {
  const cwd = CONFIGS('codex-project');
  const home = trustedHome(cwd, CONFIGS('codex-project', 'home'), temps);

  it('the project .codex/config.toml overrides ~/.codex/config.toml; values stay literal', async () => {
    const r = await loadServerDefinitions(request({ cwd, home, env: { CODEX_FORWARDED: 'fwd', NOT_EXPANDED: 'x' } }));
    const s = byName(r.servers);
    expect(r.servers.map((d) => [d.name, d.scope])).toEqual([
      ['docs', 'project'],
      ['user-only', 'user'],
    ]);
    expect(s.docs?.args).toEqual(['project-docs.js', '${NOT_EXPANDED}']);
    expect(s.docs?.shadowed).toEqual([join(home, '.codex', 'config.toml')]);
    // env_vars forwards what is set and nothing else.
    expect(s.docs?.env).toEqual({ CODEX_FORWARDED: 'fwd' });
  });

  it('enabled_tools, then disabled_tools, decide the tools Codex sends', async () => {
    const r = await loadServerDefinitions(request({ cwd, home }));
    const f = byName(r.servers).docs?.toolFilter;
    expect(hiddenToolNames(f, ['search', 'read', 'write', 'delete'])).toEqual(['write', 'delete']);
  });
});

describe('codex-no-servers', () => {
  it.each(['trust-only.toml', 'model-only.toml', 'profiles.toml'])('%s gives no servers and no error', async (name) => {
    const r = await loadServerDefinitions(request({ configFiles: [CONFIGS('codex-no-servers', name)] }));
    expect(r.servers).toEqual([]);
    expect(r.warnings).toEqual([]);
  });
});

describe('cline-servers-map', () => {
  it('a "servers" map in cline_mcp_settings.json is not read by Cline, with a warning', async () => {
    const file = CONFIGS('cline-servers-map', 'cline_mcp_settings.json');
    const r = await loadServerDefinitions(request({ configFiles: [file] }));
    expect(r.servers).toEqual([]);
    expect(r.warnings).toEqual([
      `${file}: servers: Cline does not read this map (Cline requires "mcpServers"), so Cline loads none of its servers.`,
    ]);
  });
});

describe('roo-always-allow', () => {
  it('alwaysAllow must be an array; disabledTools hides tools; ${env:VAR} expands', async () => {
    const file = CONFIGS('roo-always-allow', 'mcp_settings.json');
    const r = await loadServerDefinitions(request({ configFiles: [file], env: { ROO_ARG: 'r' } }));
    const s = byName(r.servers);
    expect(s['bad-allow']?.enabled).toBe(false);
    expect(r.warnings).toEqual([
      `${file}: mcpServers.bad-allow.alwaysAllow: Roo Code requires "alwaysAllow" to be an array of tool names (got a string); it rejects this server's settings and does not start it.`,
    ]);
    expect(s.good).toMatchObject({ enabled: true, args: ['r'], toolFilter: { exclude: ['delete_file'] } });
  });
});

describe('windsurf-disabled-tools', () => {
  it('serverUrl with ${env:VAR} headers and a disabledTools list', async () => {
    const home = CONFIGS('windsurf-disabled-tools', 'home');
    const r = await loadServerDefinitions(request({ home, env: { WIND_TOKEN: 'w' } }));
    expect(byName(r.servers).wind).toMatchObject({
      client: 'windsurf',
      url: 'https://w.example.test/mcp',
      headers: { Authorization: 'Bearer w' },
      toolFilter: { exclude: ['slow_tool'] },
    });
  });
});

describe('--client selects one client (project-all + home-linux)', () => {
  it('cursor: only its project and user files, project first', async () => {
    const r = await loadServerDefinitions(
      request({ cwd: CONFIGS('project-all'), home: CONFIGS('home-linux'), client: 'cursor' }),
    );
    expect(r.servers.map((d) => [d.name, d.layer])).toEqual([
      ['fetch', 'project'],
      ['cursor-db', 'project'],
      ['cursor-remote', 'project'],
      ['cursor-user', 'user'],
    ]);
    expect(byName(r.servers).fetch?.shadowed).toEqual([join(CONFIGS('home-linux'), '.cursor', 'mcp.json')]);
    expect(r.searched.map((s) => s.file)).toEqual([
      join(CONFIGS('project-all'), '.cursor', 'mcp.json'),
      join(CONFIGS('project-all'), 'mcp-smart.config.json'),
      join(CONFIGS('home-linux'), '.cursor', 'mcp.json'),
    ]);
    expect(r.client).toBe('cursor');
  });

  it('without --client every client keeps its own view in `clients`', async () => {
    const cwd = CONFIGS('project-all');
    const r = await loadServerDefinitions(request({ cwd, home: trustedHome(cwd, CONFIGS('home-linux'), temps) }));
    const cursor = r.clients.find((c) => c.client === 'cursor');
    const claude = r.clients.find((c) => c.client === 'claude-code');
    // Cursor still loads its own "fetch", although the merged list takes .mcp.json's.
    expect(cursor?.servers.find((d) => d.name === 'fetch')?.source).toBe(
      join(CONFIGS('project-all'), '.cursor', 'mcp.json'),
    );
    expect(claude?.servers.find((d) => d.name === 'fetch')?.source).toBe(join(CONFIGS('project-all'), '.mcp.json'));
    expect(r.clients.map((c) => c.client)).toEqual([
      'claude-code',
      'claude-desktop',
      'cursor',
      'vscode',
      'windsurf',
      'gemini',
      'codex',
      'cline',
      'roo',
    ]);
  });
});

describe('codex-untrusted', () => {
  it("a project marked untrusted in the user's config.toml does not have its .codex/config.toml read", async () => {
    const cwd = CONFIGS('codex-untrusted');
    const codexHome = tempHome();
    const text = readFileSync(join(cwd, 'home', '.codex', 'config.toml'), 'utf8').replace(
      '"<cwd>"',
      JSON.stringify(cwd),
    );
    writeFileSync(join(codexHome, 'config.toml'), text);
    const r = await loadServerDefinitions(request({ cwd, env: { CODEX_HOME: codexHome }, client: 'codex' }));
    expect(r.servers.map((d) => [d.name, d.enabled])).toEqual([
      ['from-project', false],
      ['from-user', true],
    ]);
    expect(r.servers[0]?.notLoaded).toBe(
      `ignored: project not trusted in Codex (trust_level = "untrusted" in ${join(codexHome, 'config.toml')}), so Codex does not load it.`,
    );
  });

  it('a project with no trust entry is ignored too, and its file no longer shadows the user entry', async () => {
    const cwd = CONFIGS('codex-project');
    const r = await loadServerDefinitions(request({ cwd, home: CONFIGS('codex-project', 'home'), client: 'codex' }));
    const docs = r.servers.find((d) => d.name === 'docs');
    expect(docs).toMatchObject({ enabled: true, layer: 'user' });
    expect(r.shadowings).toContainEqual({
      name: 'docs',
      winner: join(CONFIGS('codex-project', 'home'), '.codex', 'config.toml'),
      loser: join(cwd, '.codex', 'config.toml'),
    });
  });
});

describe('gemini-folder-trust', () => {
  const cwd = CONFIGS('gemini-layers', 'project');
  const home = CONFIGS('gemini-layers', 'home');
  const systemRoot = CONFIGS('gemini-layers', 'system');
  const load = (h: string, env: Record<string, string> = {}) =>
    loadServerDefinitions(request({ cwd, home: h, systemRoot, client: 'gemini', env: { GEM_SET: 'g', ...env } }));
  function withFolders(rules: Record<string, string>): string {
    const h = tempHome();
    cpSync(home, h, { recursive: true });
    mkdirSync(join(h, '.gemini'), { recursive: true });
    writeFileSync(join(h, '.gemini', 'trustedFolders.json'), JSON.stringify(rules));
    return h;
  }

  it('no trustedFolders.json rule: every Gemini server, user-level included, is disabled', async () => {
    const r = await load(home);
    expect(r.servers.length).toBeGreaterThan(1);
    expect(r.servers.filter((d) => d.enabled)).toEqual([]);
    expect(r.servers.some((d) => d.layer === 'user' && d.gate === 'gemini-folder-untrusted')).toBe(true);
    expect(r.servers[0]?.notLoaded).toBe(
      `disabled: folder not trusted in Gemini (not listed in ${join(home, '.gemini', 'trustedFolders.json')}), so Gemini CLI does not load it.`,
    );
  });

  it('TRUST_PARENT of a sibling trusts the folder; a longer DO_NOT_TRUST rule wins; folderTrust off trusts all', async () => {
    const parentRule = { [join(cwd, '..', 's')]: 'TRUST_PARENT' };
    expect((await load(withFolders(parentRule))).servers.some((d) => d.enabled)).toBe(true);
    const distrust = withFolders({ ...parentRule, [cwd]: 'DO_NOT_TRUST' });
    const r = await load(distrust);
    expect(r.servers.filter((d) => d.enabled)).toEqual([]);
    expect(r.servers[0]?.notLoaded).toContain('marked untrusted');
    expect((await load(home, { GEMINI_CLI_TRUST_WORKSPACE: 'true' })).servers.some((d) => d.enabled)).toBe(true);
    const off = tempHome();
    cpSync(home, off, { recursive: true });
    const settingsFile = join(off, '.gemini', 'settings.json');
    const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(settingsFile, JSON.stringify({ ...settings, security: { folderTrust: { enabled: false } } }));
    expect((await load(off)).servers.some((d) => d.enabled)).toBe(true);
  });
});

describe('trust gates and --config', () => {
  it('a Gemini-shaped file named with --config is read in an untrusted folder: the gate is for the files Gemini reads', async () => {
    const file = join(CONFIGS('gemini-layers', 'home'), '.gemini', 'settings.json');
    const r = await loadServerDefinitions(request({ configFiles: [file], cwd: CONFIGS('project-empty') }));
    expect(r.servers.length).toBeGreaterThan(0);
    expect(r.servers.filter((d) => d.gate !== undefined)).toEqual([]);
  });
});

describe('run in the home folder', () => {
  it("a project file that is the user's own file is read once, as the user's: no approval asked, no self-shadowing", async () => {
    // cwd = HOME: ~/.cursor/mcp.json is both <cwd>/.cursor/mcp.json and the user file. Read as both, its server
    // waited for a project approval and was "shadowed by" its own file.
    const home = tempHome();
    mkdirSync(join(home, '.cursor'));
    writeFileSync(
      join(home, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { m: { command: 'node', args: ['m.js'] } } }),
    );
    const r = await loadServerDefinitions(request({ cwd: home, home }));
    expect(r.servers.map((d) => [d.name, d.scope, d.enabled, d.shadowed ?? []])).toEqual([['m', 'user', true, []]]);
    expect(r.searched.filter((s) => s.file === join(home, '.cursor', 'mcp.json'))).toHaveLength(1);
  });
});
