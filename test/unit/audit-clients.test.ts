// clientFindings and clientTotals: duplicates within a client, near-identical tools, limits per client.
import { describe, expect, it } from 'vitest';
import { clientFindings, clientTotals, foldedName, OTHER_SOURCES } from '../../src/core/audit/clients.js';
import type { ServerSnapshot, ToolSnapshot } from '../../src/core/types.js';

const tool = (name: string, description = `Does ${name} for the user, with care.`): ToolSnapshot => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
});
const server = (name: string, tools: ToolSnapshot[], status: 'ok' | 'error' = 'ok'): ServerSnapshot => ({
  name,
  transport: 'stdio',
  status,
  tools,
  ...(status === 'error' ? { error: 'spawn failed' } : {}),
});

describe('clientFindings', () => {
  it('finds the same definition under two names on two servers of one client', () => {
    const a = server('a', [tool('fetch_page', 'Fetches a web page and returns its text.')]);
    const b = server('b', [tool('get_url', 'Fetches a web page and returns its text.')]);
    const f = clientFindings([{ client: 'claude-code', label: 'Claude Code', servers: [a, b] }]);
    expect(f.map((x) => [x.code, x.client, x.message])).toEqual([
      [
        'DUPLICATE_TOOL_SIMILAR',
        'claude-code',
        'a.fetch_page, b.get_url have the same description and input schema in Claude Code; the model may pick either.',
      ],
    ]);
  });

  it('says nothing about the same tools in two different clients, or within one server', () => {
    const a = server('a', [tool('read_file'), tool('readFile')]);
    const b = server('b', [tool('read_file')]);
    expect(
      clientFindings([
        { client: 'cursor', label: 'Cursor', servers: [a] },
        { client: 'windsurf', label: 'Windsurf', servers: [b] },
      ]),
    ).toEqual([]);
  });

  it('Windsurf over 100 tools is CLIENT_TOOL_LIMIT; a client without a documented limit gets TOO_MANY_TOOLS', () => {
    const many = (n: number): ToolSnapshot[] => Array.from({ length: n }, (_, i) => tool(`t${i}`, ''));
    const f = clientFindings([
      { client: 'windsurf', label: 'Windsurf', servers: [server('w', many(101))] },
      { client: 'claude-code', label: 'Claude Code', servers: [server('c', many(41))] },
      { ...OTHER_SOURCES, servers: [server('o', many(40))] },
    ]);
    expect(f.map((x) => [x.code, x.client, x.value, x.limit])).toEqual([
      ['CLIENT_TOOL_LIMIT', 'windsurf', 101, 100],
      ['TOO_MANY_TOOLS', 'claude-code', 41, 40],
    ]);
  });
});

describe('clientTotals', () => {
  it('adds up the figures of each client and names failed servers', () => {
    const a = server('a', [tool('x')]);
    const b = server('b', [], 'error');
    const figures = new Map([
      [a, { toolCount: 1, tokens: { full: 30, lossless: 28, compact: 20, minimal: 10 }, instructionsTokens: 4 }],
      [b, { toolCount: 0, tokens: { full: 0, lossless: 0, compact: 0, minimal: 0 }, instructionsTokens: 0 }],
    ]);
    const [c] = clientTotals([{ client: 'cursor', label: 'Cursor', servers: [a, b] }], (s) => figures.get(s));
    expect(c).toEqual({
      client: 'cursor',
      label: 'Cursor',
      servers: ['a', 'b'],
      failed: ['b'],
      toolCount: 1,
      tokens: { full: 30, lossless: 28, compact: 20, minimal: 10 },
      instructionsTokens: 4,
      toolLimit: 40,
    });
  });

  it('folds case and separators in tool names', () => {
    expect(['read_file', 'readFile', 'read-file', 'READ FILE'].map(foldedName)).toEqual(Array(4).fill('readfile'));
  });
});
