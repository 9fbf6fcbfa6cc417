// The switch as edits of a client file and their reversal (pure): JSON edited in place (comments, indentation kept),
// Codex TOML line by line; the reversal gives back the bytes when nothing else changed, and keeps a change made since.
import { describe, expect, it } from 'vitest';
import { parse as parseToml } from 'smol-toml';
import {
  applyJsonEdits,
  applyTomlEdits,
  reverseJsonEdits,
  reverseTomlEdits,
  type SwitchEdit,
} from '../../src/core/adopt/switch-edit.js';

const undoJson = (base: string, now: string, edits: SwitchEdit[]): { text: string; changedSince: string[] } => {
  const rev = reverseJsonEdits(JSON.parse(base), JSON.parse(now), edits);
  return { text: applyJsonEdits(now, JSON.parse(now), rev.edits), changedSince: rev.changedSince };
};

describe('JSON switch', () => {
  const base = '{\n    "mcpServers": {\n        "a": { "command": "x" }\n    }\n}\n';
  const edits: SwitchEdit[] = [
    { kind: 'list-add', path: ['mcp', 'excluded'], names: ['a'] },
    { kind: 'set', path: ['mcpServers', 'mcp-smart'], value: { command: 'node', args: ['serve'] } },
  ];

  it("adds in the file's own indentation, and the reversal gives back the same bytes (objects it created removed)", () => {
    const on = applyJsonEdits(base, JSON.parse(base), edits);
    expect(JSON.parse(on)).toEqual({
      mcpServers: { a: { command: 'x' }, 'mcp-smart': { command: 'node', args: ['serve'] } },
      mcp: { excluded: ['a'] },
    });
    expect(on).toContain('\n        "mcp-smart": {');
    // The text comes back equal in content (the app then writes the kept bytes, test/cli/adopt-switch.test.ts).
    expect(JSON.parse(undoJson(base, on, edits).text)).toEqual(JSON.parse(base));
    expect(undoJson(base, on, edits).text).not.toContain('"mcp"');
  });

  it('a file on one line stays on one line (the edit written compact), and so does a long line of a larger file', () => {
    const compact = '{"mcpServers":{"a":{"command":"x"}},"other":1}';
    const on = applyJsonEdits(compact, JSON.parse(compact), edits);
    expect(on).not.toContain('\n');
    expect(on).toContain('"mcp-smart": {"command":"node","args":["serve"]}');
    expect(JSON.parse(undoJson(compact, on, edits).text)).toEqual(JSON.parse(compact));
    // A pretty file with one long line (a big project list written compact by another tool): that line is kept.
    const long = JSON.stringify(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`p${i}`, { n: i }])));
    const mixed = `{\n  "projects": ${long},\n  "mcpServers": {"a": {"command": "x"}}\n}\n`;
    const set: SwitchEdit[] = [{ kind: 'set', path: ['mcpServers', 'a'], value: undefined }];
    const off = applyJsonEdits(mixed, JSON.parse(mixed), set);
    expect(off.split('\n')[1]).toBe(`  "projects": ${long},`);
    expect(JSON.parse(off)).toEqual({ ...JSON.parse(mixed), mcpServers: {} });
  });

  it('keeps a server added since and a name the user excluded since; names our entry when the user changed it', () => {
    const on = JSON.parse(applyJsonEdits(base, JSON.parse(base), edits)) as {
      mcpServers: Record<string, unknown>;
      mcp: { excluded: string[] };
    };
    on.mcpServers.b = { command: 'y' };
    on.mcp.excluded.push('b');
    on.mcpServers['mcp-smart'] = { command: 'other' };
    const { text, changedSince } = undoJson(base, JSON.stringify(on, null, 4), edits);
    expect(JSON.parse(text)).toEqual({
      mcpServers: { a: { command: 'x' }, b: { command: 'y' }, 'mcp-smart': { command: 'other' } },
      mcp: { excluded: ['b'] },
    });
    expect(changedSince).toEqual(['mcpServers.mcp-smart']);
  });
});

describe('Codex TOML switch', () => {
  const base = [
    '# mine',
    '[mcp_servers.a]',
    'command = "x"',
    '',
    '[mcp_servers."b.c"]',
    'command = "y"',
    'enabled = true # on',
    '',
  ].join('\n');
  const edits: SwitchEdit[] = [
    { kind: 'toml-off', table: 'a' },
    { kind: 'toml-off', table: 'b.c' },
    { kind: 'toml-add', table: 'mcp-smart', entry: { command: 'node', args: ['s'], env: { API_KEY: 'v"1' } } },
  ];

  it('turns each table off, appends ours (env inline, in its own table), and the reversal gives back the bytes', () => {
    const on = applyTomlEdits(base, edits);
    const doc = parseToml(on) as { mcp_servers: Record<string, Record<string, unknown>> };
    expect(doc.mcp_servers.a!.enabled).toBe(false);
    expect(doc.mcp_servers['b.c']!.enabled).toBe(false);
    expect(doc.mcp_servers['mcp-smart']).toEqual({ command: 'node', args: ['s'], env: { API_KEY: 'v"1' } });
    expect(Object.keys(doc)).toEqual(['mcp_servers']);
    expect(reverseTomlEdits(base, on, edits)).toBe(base);
  });

  it('the same setting typed by hand (`enabled = false`) is taken back too; a line the user added since stays', () => {
    const byHand = base.replace('command = "x"', 'command = "x"\nenabled = false\nstartup_timeout_sec = 20');
    const back = reverseTomlEdits(base, byHand, edits);
    expect(back).toBe(base.replace('command = "x"', 'command = "x"\nstartup_timeout_sec = 20'));
  });
});
