// Gemini CLI's server lists as Gemini 0.61.0 reads them (settings.ts getConsolidated*McpServers, mcp-client-manager
// isBlockedBySettings): every file's excluded list counts, allow lists are intersected (trimmed, any case), and an
// intersection that leaves nothing blocks nothing. mcp-smart took the highest file's list for the only one.
import { describe, expect, it } from 'vitest';
import { applyGeminiLists, type GeminiServerLists } from '../../src/core/config/client-rules.js';
import type { ServerDefinition } from '../../src/core/types.js';

const def = (name: string): ServerDefinition =>
  ({ name, client: 'gemini', enabled: true, transport: 'stdio', source: '/u/settings.json' }) as ServerDefinition;

function loaded(names: string[], lists: GeminiServerLists[]): Record<string, string | true> {
  const defs = names.map(def);
  applyGeminiLists(defs, lists, []);
  return Object.fromEntries(defs.map((d) => [d.name, d.enabled ? true : (d.notLoaded ?? '')]));
}

describe('applyGeminiLists', () => {
  it('a server excluded in the user file stays out when the project file has an excluded list of its own', () => {
    const r = loaded(
      ['mem', 'off'],
      [
        { layer: 'project', file: '/p/settings.json', excluded: ['unrelated'] },
        { layer: 'user', file: '/u/settings.json', excluded: ['off'] },
      ],
    );
    expect(r).toEqual({
      mem: true,
      off: 'listed in mcp.excluded of /u/settings.json, so Gemini CLI does not connect to it.',
    });
  });

  it('allow lists are intersected: a server must be in each (the file that lacks it is named)', () => {
    const r = loaded(
      ['a', 'b', 'c'],
      [
        { layer: 'user', file: '/u/settings.json', allowed: ['a', 'b'] },
        { layer: 'project', file: '/p/settings.json', allowed: ['A ', 'c'] },
      ],
    );
    expect(r).toEqual({
      a: true,
      b: 'not in mcp.allowed of /p/settings.json, so Gemini CLI does not connect to it.',
      c: 'not in mcp.allowed of /u/settings.json, so Gemini CLI does not connect to it.',
    });
  });

  it('allow lists with nothing in common block nothing, as in Gemini', () => {
    const r = loaded(
      ['a', 'b'],
      [
        { layer: 'user', file: '/u/settings.json', allowed: ['a'] },
        { layer: 'project', file: '/p/settings.json', allowed: ['b'] },
      ],
    );
    expect(r).toEqual({ a: true, b: true });
  });
});
