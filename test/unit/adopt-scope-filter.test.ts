// adopt --scope-from-use (pure): this project's scope as the client's own filter on the entry the switch adds —
// Gemini CLI includeTools, Codex enabled_tools — named as serve names the tools, and the switch taken back byte
// for byte (the filter lives only in the added entry).
import { describe, expect, it } from 'vitest';
import { parse as parseToml } from 'smol-toml';
import { scopeFilter, SCOPE_FILTER_KEY } from '../../src/core/adopt/scope-filter.js';
import {
  applyJsonEdits,
  applyTomlEdits,
  reverseJsonEdits,
  reverseTomlEdits,
} from '../../src/core/adopt/switch-edit.js';
import { switchPlan, type SwitchRequest } from '../../src/core/adopt/switch-plan.js';

const request = (client: SwitchRequest['client'], docs: Map<string, unknown>, filter?: string[]): SwitchRequest => ({
  client,
  project: '/p',
  userFiles: { claude: '/h/.claude.json', gemini: '/h/.gemini/settings.json', codex: '/h/.codex/config.toml' },
  adopted: [
    { name: 'fs', source: client === 'codex' ? '/h/.codex/config.toml' : '/h/.gemini/settings.json' },
    { name: 'mem', source: client === 'codex' ? '/h/.codex/config.toml' : '/h/.gemini/settings.json' },
  ],
  docs,
  entry: 'smart',
  launch: { command: 'node', args: ['cli.js', 'serve', '--mode', 'tools'] },
  env: {},
  passOn: [],
  ...(filter ? { filter } : {}),
});

describe('scopeFilter', () => {
  it("keeps the adopted servers' scoped tools under their served names; a name two servers share gets its server", () => {
    const f = scopeFilter(
      ['mem.read_graph', 'fs.read_file', 'git.status', 'fs.search'],
      ['fs.read_file', 'fs.search', 'mem.search', 'mem.read_graph', 'fs.write_file'],
      ['fs', 'mem'],
      'smart',
    );
    expect(f.ids).toEqual(['mem.read_graph', 'fs.read_file', 'fs.search']);
    expect(f.names).toEqual(['fs_search', 'read_file', 'read_graph']);
    expect(f.elsewhere).toEqual(['git.status']);
  });

  it('is empty when the project used none of the adopted servers', () => {
    expect(scopeFilter(['git.status'], [], ['fs'], 'smart')).toEqual({ names: [], ids: [], elsewhere: ['git.status'] });
  });

  it('names the clients that have a filter of their own', () => {
    expect(SCOPE_FILTER_KEY).toEqual({ gemini: 'includeTools', codex: 'enabled_tools' });
  });
});

describe('switch plan with the scope filter', () => {
  it('Gemini CLI: includeTools on the added entry only; the reversal gives back the file', () => {
    const base = '{\n  "mcpServers": {\n    "fs": { "command": "a" },\n    "mem": { "command": "b" }\n  }\n}\n';
    const file = '/h/.gemini/settings.json';
    const [plan] = switchPlan(request('gemini', new Map([[file, JSON.parse(base)]]), ['read_file', 'read_graph']));
    const on = applyJsonEdits(base, JSON.parse(base), plan!.edits);
    const doc = JSON.parse(on) as { mcpServers: Record<string, Record<string, unknown>>; mcp: unknown };
    expect(doc.mcpServers.smart!.includeTools).toEqual(['read_file', 'read_graph']);
    expect(doc.mcpServers.fs).toEqual({ command: 'a' });
    expect(doc.mcp).toEqual({ excluded: ['fs', 'mem'] });
    expect(plan!.says.at(-1)).toContain("showing only this project's 2 tools (includeTools)");
    const rev = reverseJsonEdits(JSON.parse(base), doc, plan!.edits);
    expect(JSON.parse(applyJsonEdits(on, doc, rev.edits))).toEqual(JSON.parse(base));
    // Without a scope the entry has no filter (as before).
    const [plain] = switchPlan(request('gemini', new Map([[file, JSON.parse(base)]])));
    expect(JSON.parse(applyJsonEdits(base, JSON.parse(base), plain!.edits)).mcpServers.smart).not.toHaveProperty(
      'includeTools',
    );
  });

  it('Codex: enabled_tools in the appended table; the reversal gives back the same bytes', () => {
    const base = '[mcp_servers.fs]\ncommand = "a"\n\n[mcp_servers.mem]\ncommand = "b"\n';
    const [plan] = switchPlan(request('codex', new Map(), ['read_file']));
    const on = applyTomlEdits(base, plan!.edits);
    const doc = parseToml(on) as { mcp_servers: Record<string, Record<string, unknown>> };
    expect(doc.mcp_servers.smart!.enabled_tools).toEqual(['read_file']);
    expect(doc.mcp_servers.fs!.enabled).toBe(false);
    expect(doc.mcp_servers.fs).not.toHaveProperty('enabled_tools');
    expect(reverseTomlEdits(base, on, plan!.edits)).toBe(base);
  });
});
