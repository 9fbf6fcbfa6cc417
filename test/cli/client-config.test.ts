// --client and the client's tool filters, in-process against a real fixture server (codex-tool-filter:
// the tiny catalog behind a Codex project config that hides two of its five tools).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { trustedHome } from '../helpers/config-request.js';
import { fixture } from '../helpers/paths.js';

const CONFIGS = (...p: string[]): string => fixture('configs', ...p);
const temps: string[] = [];
// The user trusts codex-tool-filter in Codex (trust_level = "trusted"), as Codex needs to read its .codex/config.toml.
const home = trustedHome(CONFIGS('codex-tool-filter'), undefined, temps);
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});
const env = {
  NO_COLOR: '1',
  HOME: home,
  MCP_SMART_CACHE_DIR: join(home, 'cache'),
  GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(home, 'no-system', 'settings.json'),
  GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(home, 'no-system', 'system-defaults.json'),
};
const FILTERED = { env, cwd: CONFIGS('codex-tool-filter') };
const TINY = `node ${fixture('servers', 'catalog-server.mjs')} ${fixture('servers', 'catalogs', 'tiny.json')}`;

interface AuditDoc {
  servers: {
    name: string;
    toolCount: number;
    tokens: { full: number };
    tools: { name: string; tokens: { full: number } }[];
  }[];
  totals: { toolCount: number; tokens: { full: number } };
  hidden?: { server: string; tools: { id: string; name: string; tokens: number }[]; tokens: number }[];
}

describe('--client', () => {
  it('an unknown client is exit 2 naming the flag and the known clients', async () => {
    const r = await runCli(['--client', 'cursr', 'servers'], { env, cwd: CONFIGS('project-all') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--client');
    expect(r.stderr).toContain('Did you mean "cursor"?');
  });

  it('servers --client cursor lists only what Cursor loads (project-all + home-linux)', async () => {
    const r = await runCli(['--client', 'cursor', 'servers', '--json'], {
      env: { ...env, HOME: CONFIGS('home-linux') },
      cwd: CONFIGS('project-all'),
    });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { servers: { name: string; source: string }[] };
    expect(doc.servers.map((s) => s.name)).toEqual(['fetch', 'cursor-db', 'cursor-remote', 'cursor-user']);
    expect(doc.servers[0]?.source).toBe(join(CONFIGS('project-all'), '.cursor', 'mcp.json'));
  });
});

describe('servers --debug shows which file won and why a server is not loaded (claude-code-approval)', () => {
  it('prints client, layer and notLoaded for each definition, and warns on stderr', async () => {
    const cwd = CONFIGS('claude-code-approval');
    const r = await runCli(['--client', 'claude-code', 'servers', '--debug'], {
      env: { ...env, HOME: trustedHome(cwd, undefined, temps, false) },
      cwd,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('"client": "claude-code"');
    expect(r.stderr).toContain('"layer": "project"');
    expect(r.stderr).toContain('"notLoaded": "rejected in Claude Code (');
    expect(r.stderr).toContain('warning: server "unanswered"');
    expect(r.stdout).toMatch(
      /│ rejected\s+│ stdio\s+│ \.mcp\.json\s+│ no \(rejected in Claude Code\)\s+│ rejected in Claude Code/,
    );
  });

  it('--json carries the reason as notLoaded', async () => {
    const cwd = CONFIGS('claude-code-approval');
    const r = await runCli(['--client', 'claude-code', 'servers', '--json'], {
      env: { ...env, HOME: trustedHome(cwd, undefined, temps, false) },
      cwd,
    });
    const doc = JSON.parse(r.stdout) as { servers: { name: string; enabled: boolean; notLoaded?: string }[] };
    expect(doc.servers.map((s) => [s.name, s.enabled, s.notLoaded?.split(' (')[0]])).toEqual([
      ['approved', true, undefined],
      ['rejected', false, 'rejected in Claude Code'],
      ['unanswered', false, 'pending approval in Claude Code'],
    ]);
  });
});

describe('codex-tool-filter: tools hidden by the client', () => {
  it('audit counts the three sent tools and lists the two hidden ones apart', async () => {
    const full = await runCli(['--no-cache', '--stdio', TINY, '--name', 'notes', '--json', 'audit'], FILTERED);
    const filtered = await runCli(['--no-cache', '--client', 'codex', '--json', 'audit'], FILTERED);
    expect(full.code).toBe(0);
    expect(filtered.code).toBe(0);
    const all = JSON.parse(full.stdout) as AuditDoc;
    const doc = JSON.parse(filtered.stdout) as AuditDoc;
    expect(doc.servers[0]?.tools.map((t) => t.name)).toEqual(['search_notes', 'create_note', 'echo']);
    expect(doc.totals.toolCount).toBe(3);
    expect(doc.hidden).toEqual([
      {
        server: 'notes',
        tools: [
          { id: 'notes.delete_note', name: 'delete_note', tokens: expect.any(Number) as number },
          { id: 'notes.current_time', name: 'current_time', tokens: expect.any(Number) as number },
        ],
        tokens: expect.any(Number) as number,
      },
    ]);
    // Each tool costs what it costs unfiltered; the sent total is the full total minus the hidden tools.
    const cost = (name: string): number => all.servers[0]?.tools.find((t) => t.name === name)?.tokens.full ?? -1;
    const hidden = doc.hidden?.[0];
    for (const t of hidden?.tools ?? []) expect(t.tokens).toBe(cost(t.name));
    expect(hidden?.tokens).toBe(cost('delete_note') + cost('current_time'));
    expect(doc.totals.tokens.full).toBe(all.totals.tokens.full - (hidden?.tokens ?? 0));
    expect(doc.totals.tokens.full).toBe(148);
  });

  it('the table shows the hidden tools under their own heading', async () => {
    const r = await runCli(['--no-cache', '--client', 'codex', 'audit'], FILTERED);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'Hidden by a tool filter (listed by the server, not sent to the model, not in the totals):',
    );
    expect(r.stdout).toMatch(/ {2}notes: 2 tools, [\d,]+ tokens — delete_note, current_time/);
  });

  it('budget counts only what is sent', async () => {
    const full = await runCli(
      ['--no-cache', '--stdio', TINY, '--name', 'notes', '--json', 'budget', '--max', '100000'],
      FILTERED,
    );
    const filtered = await runCli(['--no-cache', '--client', 'codex', '--json', 'budget', '--max', '100000'], FILTERED);
    const a = JSON.parse(full.stdout) as { used: number; servers: { toolCount: number }[] };
    const b = JSON.parse(filtered.stdout) as { used: number; servers: { toolCount: number }[] };
    expect(a.servers[0]?.toolCount).toBe(5);
    expect(b.servers[0]?.toolCount).toBe(3);
    expect(b.used).toBeLessThan(a.used);
    expect(b.used).toBe(148);
  });
});

describe('trust gates in audit --client: reported as the client does, not counted', () => {
  it('codex-tool-filter without a Codex trust entry: the project server is "ignored: project not trusted in Codex"', async () => {
    const untrustedHome = mkdtempSync(join(tmpdir(), 'mcp-smart-untrusted-home-'));
    temps.push(untrustedHome);
    const r = await runCli(['--no-cache', '--client', 'codex', 'servers', '--json'], {
      env: { ...env, HOME: untrustedHome },
      cwd: CONFIGS('codex-tool-filter'),
    });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { servers: { name: string; enabled: boolean; gate?: string }[] };
    expect(doc.servers).toEqual([
      expect.objectContaining({ name: 'notes', enabled: false, gate: 'ignored: project not trusted in Codex' }),
    ]);
    const audit = await runCli(['--no-cache', '--client', 'codex', 'audit'], {
      env: { ...env, HOME: untrustedHome },
      cwd: CONFIGS('codex-tool-filter'),
    });
    // Nothing Codex loads is left: exit 2, and the warning names the gate.
    expect(audit.code).toBe(2);
    expect(audit.stderr).toContain('ignored: project not trusted in Codex (no trust_level for this project in');
    expect(audit.stderr).toContain(
      'No server found is loaded by its client: notes (ignored: project not trusted in Codex).',
    );
  });

  it('a gated server next to a loaded one: audit lists it under "Not loaded" and --json as notLoaded', async () => {
    const cwd = CONFIGS('codex-tool-filter');
    const h = trustedHome(cwd, undefined, temps);
    const userToml = join(h, '.codex', 'config.toml');
    // The user's own server loads; a Gemini server is disabled: this folder is not trusted in Gemini.
    writeFileSync(
      userToml,
      `${readFileSync(userToml, 'utf8')}\n[mcp_servers.mine]\ncommand = "node"\nargs = [${JSON.stringify(fixture('servers', 'catalog-server.mjs'))}, ${JSON.stringify(fixture('servers', 'catalogs', 'tiny.json'))}]\n`,
    );
    mkdirSync(join(h, '.gemini'), { recursive: true });
    writeFileSync(join(h, '.gemini', 'trustedFolders.json'), '{}');
    writeFileSync(
      join(h, '.gemini', 'settings.json'),
      JSON.stringify({ mcpServers: { gem: { command: 'node', args: ['x.js'] } } }),
    );
    const r = await runCli(['--no-cache', 'audit', '--json'], { env: { ...env, HOME: h }, cwd });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as AuditDoc & { notLoaded?: { server: string; status: string }[] };
    expect(doc.servers.map((s) => s.name).sort()).toEqual(['mine', 'notes']);
    expect(doc.notLoaded).toEqual([
      { server: 'gem', source: join(h, '.gemini', 'settings.json'), status: 'disabled: folder not trusted in Gemini' },
    ]);
    const table = await runCli(['--no-cache', 'audit'], { env: { ...env, HOME: h }, cwd });
    expect(table.stdout).toContain('Not loaded (not in the totals):\n  gem: disabled: folder not trusted in Gemini\n');
  });
});
