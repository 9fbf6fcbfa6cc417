// The switch's JSON edits touch only the member removed or added: the comments and layout of every other member
// stay byte for byte (jsonc-parser's modify dropped a kept entry's comment and reformatted the line an edit landed
// on), and taking the switch back restores the text.
import { describe, expect, it } from 'vitest';
import { applyJsonEdits, reverseJsonEdits, type SwitchEdit } from '../../src/core/adopt/switch-edit.js';
import { parseConfigText } from '../../src/core/config/parse.js';

const doc = (text: string): unknown => parseConfigText('x.json', text);
const apply = (text: string, edits: SwitchEdit[]): string => applyJsonEdits(text, doc(text), edits);
const undo = (base: string, now: string, edits: SwitchEdit[]): string =>
  apply(now, reverseJsonEdits(doc(base), doc(now), edits).edits);
const remove = (...path: string[]): SwitchEdit => ({ kind: 'set', path, value: undefined });
const SMART = { command: 'node', args: ['serve'] };
const add: SwitchEdit = { kind: 'set', path: ['mcpServers', 'smart'], value: SMART };

describe('removing a member', () => {
  const cursor = [
    '{"mcpServers": {',
    '    // GitHub: token rotates monthly',
    '    "gh": { "command": "node", "args": ["gh.js"] },',
    '    // Memory: keep this one local, see wiki/mem',
    '    "mem": { "command": "node", "args": ["mem.js"] } }}',
    '',
  ].join('\n');

  it("takes only its own text: the kept member's comment and layout stay byte for byte", () => {
    const out = apply(cursor, [remove('mcpServers', 'gh')]);
    expect(out).toContain(
      '    // Memory: keep this one local, see wiki/mem\n    "mem": { "command": "node", "args": ["mem.js"] } }}',
    );
    expect(out).not.toContain('gh.js');
    expect(doc(out)).toEqual({ mcpServers: { mem: { command: 'node', args: ['mem.js'] } } });
    // The last member: the comma before it goes, the first member's line stays as it was.
    const last = apply(cursor, [remove('mcpServers', 'mem')]);
    expect(last).toContain('    "gh": { "command": "node", "args": ["gh.js"] }\n');
    expect(last).toContain('// GitHub: token rotates monthly');
    expect(doc(last)).toEqual({ mcpServers: { gh: { command: 'node', args: ['gh.js'] } } });
  });

  it('with an addition, and taken back: the same bytes', () => {
    const edits = [remove('mcpServers', 'gh'), add];
    const on = apply(cursor, edits);
    expect(on).toContain(
      '    "mem": { "command": "node", "args": ["mem.js"] },\n    "smart": {\n        "command": "node",',
    );
    expect(doc(undo(cursor, on, edits))).toEqual(doc(cursor));
    // The entry added is taken out the same way: the text before the switch, when nothing else changed.
    expect(apply(on, [remove('mcpServers', 'smart')])).toBe(apply(cursor, [remove('mcpServers', 'gh')]));
  });

  it('keeps layouts: its whole line(s) go when nothing else is on them, tabs, CRLF, trailing commas, one line', () => {
    const tabs = '{\n\t"mcpServers": {\n\t\t"a": {\n\t\t\t"command": "x"\n\t\t},\n\t\t"b": {"command": "y"}\n\t}\n}\n';
    expect(apply(tabs, [remove('mcpServers', 'a')])).toBe('{\n\t"mcpServers": {\n\t\t"b": {"command": "y"}\n\t}\n}\n');
    expect(apply(tabs, [remove('mcpServers', 'b')])).toBe(
      '{\n\t"mcpServers": {\n\t\t"a": {\n\t\t\t"command": "x"\n\t\t}\n\t}\n}\n',
    );
    const crlf = '{\r\n  "mcpServers": {\r\n    "a": 1, // one\r\n    "b": 2,\r\n  }\r\n}\r\n';
    expect(apply(crlf, [remove('mcpServers', 'b')])).toBe(
      '{\r\n  "mcpServers": {\r\n    "a": 1, // one\r\n  }\r\n}\r\n',
    );
    expect(apply(crlf, [remove('mcpServers', 'a')])).toBe(
      '{\r\n  "mcpServers": {\r\n    // one\r\n    "b": 2,\r\n  }\r\n}\r\n',
    );
    expect(apply('{"mcpServers": { "a": 1, "b": 2 }}', [remove('mcpServers', 'a')])).toBe('{"mcpServers": { "b": 2 }}');
    expect(apply('{"mcpServers": { "a": 1, "b": 2 }}', [remove('mcpServers', 'b')])).toBe('{"mcpServers": { "a": 1 }}');
    expect(apply('{"mcpServers":{"a":1}}', [remove('mcpServers', 'a')])).toBe('{"mcpServers":{}}');
  });
});

describe('adding a member', () => {
  it("after the last one, in the file's indentation, without reformatting a one-line neighbour", () => {
    const gemini = '{\n  "mcpServers": {\n    "notes": { "command": "node", "args": ["n.js"] }\n  }\n}\n';
    const on = apply(gemini, [add]);
    expect(on).toBe(
      '{\n  "mcpServers": {\n    "notes": { "command": "node", "args": ["n.js"] },\n' +
        '    "smart": {\n      "command": "node",\n      "args": [\n        "serve"\n      ]\n    }\n  }\n}\n',
    );
    expect(undo(gemini, on, [add])).toBe(gemini);
    // An object created on the way (Gemini mcp.excluded) goes in as the last member of the top level.
    const list: SwitchEdit = { kind: 'list-add', path: ['mcp', 'excluded'], names: ['notes'] };
    expect(apply(gemini, [list])).toBe(
      '{\n  "mcpServers": {\n    "notes": { "command": "node", "args": ["n.js"] }\n  },\n' +
        '  "mcp": {\n    "excluded": [\n      "notes"\n    ]\n  }\n}\n',
    );
  });

  it('below a comment ending the last line, after a trailing comma, into an empty object, on one line', () => {
    const commented = '{\n  "mcpServers": {\n    "a": 1 // mine\n  }\n}';
    expect(apply(commented, [add])).toContain('    "a": 1, // mine\n    "smart": {');
    const trailing = '{\n  "mcpServers": {\n    "a": 1,\n  }\n}';
    const t = apply(trailing, [add]);
    expect(t).toContain('    "a": 1,\n    "smart": {');
    expect(t).toContain('\n    },\n  }');
    expect(apply('{\n  "mcpServers": {}\n}', [add])).toBe(
      '{\n  "mcpServers": {\n    "smart": {\n      "command": "node",\n      "args": [\n        "serve"\n      ]\n    }\n  }\n}',
    );
    // An object written on one line in a larger file stays on one line.
    const inline = '{\n  "mcpServers": { "a": { "command": "x" } }\n}';
    expect(apply(inline, [add])).toBe(
      '{\n  "mcpServers": { "a": { "command": "x" },"smart": {"command":"node","args":["serve"]} }\n}',
    );
  });
});
