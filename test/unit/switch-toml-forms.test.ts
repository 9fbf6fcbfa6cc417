// A Codex server written as an inline table or as dotted keys is switched off in that form (`enabled = false`
// inside the inline table, a dotted `mem.enabled = false` beside the others: TOML forbids a second definition of the
// table) and taken back; a form the switch cannot edit is named before anything is written, never reported as done.
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { applyTomlEdits, reverseTomlEdits, type SwitchEdit } from '../../src/core/adopt/switch-edit.js';
import { tomlSwitchProblem } from '../../src/core/adopt/switch-check.js';

const off = (...names: string[]): SwitchEdit[] => [
  ...names.map((table): SwitchEdit => ({ kind: 'toml-off', table })),
  { kind: 'toml-add', table: 'smart', entry: { command: 'node', args: ['serve'] } },
];
const servers = (text: string): Record<string, Record<string, unknown>> =>
  (parseToml(text) as { mcp_servers: Record<string, Record<string, unknown>> }).mcp_servers;

describe('Codex servers not written as their own table', () => {
  const forms: [string, string][] = [
    ['an inline table under [mcp_servers]', '[mcp_servers]\nmem = { command = "node", args = ["x.js"] }\n'],
    ['an inline table at the top', 'model = "o4"\nmcp_servers.mem = { command = "node" } # mine\n\n[tui]\nx = 1\n'],
    [
      'an inline table over lines, trailing comma',
      '[mcp_servers]\nmem = {\n  command = "node", # c\n  args = [\n    "]",\n  ],\n}\n',
    ],
    ['an empty inline table', '[mcp_servers]\nmem = {}\n'],
    ['an inline table that says enabled = true', '[mcp_servers]\nmem = { command = "node", enabled = true }\n'],
    [
      'dotted keys at the top',
      'mcp_servers.mem.command = "node"\nmcp_servers.mem.args = [\n  "x.js",\n]\n[tui]\nx = 1\n',
    ],
    ['dotted keys under [mcp_servers]', '[mcp_servers]\n  "mem".command = "node" # cmd\n  mem.env.KEY = "v"\n'],
    [
      'dotted keys with enabled = true',
      '[mcp_servers]\nmem.command = "node"\nmem.enabled = true # on\nmem.args = []\n',
    ],
  ];
  for (const [form, text] of forms)
    it(`${form}: turned off in that form, checked before writing, and given back byte for byte`, () => {
      const edits = off('mem');
      const on = applyTomlEdits(text, edits);
      expect(servers(on).mem!.enabled).toBe(false);
      expect({ ...servers(on).mem, enabled: undefined }).toEqual({ ...servers(text).mem, enabled: undefined });
      expect(servers(on).smart).toEqual({ command: 'node', args: ['serve'] });
      expect(tomlSwitchProblem('config.toml', text, edits)).toBeUndefined();
      expect(reverseTomlEdits(text, on, edits)).toBe(text);
      // A line the user changed since stays changed; the switch is still taken back.
      const later = `# later\n${on}`;
      expect(reverseTomlEdits(text, later, edits)).toBe(`# later\n${text}`);
    });

  it('CRLF and a second server in another form in the same file', () => {
    const text =
      '[mcp_servers]\r\na = { command = "x" }\r\nb.command = "y"\r\n\r\n[mcp_servers.c]\r\ncommand = "z"\r\n';
    const edits = off('a', 'b', 'c');
    const on = applyTomlEdits(text, edits);
    expect(Object.values(servers(on)).map((s) => s.enabled)).toEqual([false, false, false, undefined]);
    expect(on.replace(/\r\n/g, '')).toBe(on.replace(/\r?\n/g, ''));
    expect(reverseTomlEdits(text, on, edits)).toBe(text);
  });

  it('a server inside `mcp_servers = { … }`, or under a header the line edits do not read: named, not switched', () => {
    const nested = 'mcp_servers = { mem = { command = "node" } }\n';
    expect(tomlSwitchProblem('config.toml', nested, off('mem'))).toMatchObject({ key: 'mcp_servers.mem' });
    expect(tomlSwitchProblem('config.toml', nested, off('mem'))!.reason).toContain('[mcp_servers.mem]');
    const quoted = '["mcp_servers".mem]\ncommand = "node"\n';
    expect(tomlSwitchProblem('config.toml', quoted, off('mem'))).toMatchObject({ key: 'mcp_servers.mem' });
    // The forms the switch has always written stay as they were, a date elsewhere in the file included.
    const dated = 'since = 1979-05-27T07:32:00Z\n[mcp_servers]\nmem = { command = "node" }\n';
    expect(tomlSwitchProblem('config.toml', dated, off('mem'))).toBeUndefined();
    expect(tomlSwitchProblem('config.toml', '[mcp_servers.mem]\ncommand = "node"\n', off('mem'))).toBeUndefined();
  });
});
