// The one visibility rule (issue 26): client allow/deny lists and our serve section, and the filter keys that
// mcp-smart.config.json server entries take (every client's spelling; a near-miss is an error).
import { describe, expect, it } from 'vitest';
import { toolHiddenBy, visibilityRules } from '../../src/core/config/tool-filter.js';
import { normalizeServerEntry } from '../../src/core/config/server-entry.js';
import { filterKeyTypo } from '../../src/core/config/entry-keys.js';
import type { ServerDefinition } from '../../src/core/types.js';

const def = (over: Partial<ServerDefinition>): ServerDefinition => ({
  name: 'notes',
  transport: 'stdio',
  command: 'node',
  enabled: true,
  source: '/p/.gemini/settings.json',
  scope: 'project',
  ...over,
});

describe('toolHiddenBy', () => {
  const rules = visibilityRules(
    [
      def({
        toolFilter: {
          include: ['a', 'b', 'c'],
          exclude: ['b'],
          keys: ['mcpServers.notes.includeTools', 'mcpServers.notes.excludeTools'],
        },
      }),
    ],
    { servers: { notes: { disable: ['c'] }, off: { load: 'off' } } },
    '/p/mcp-smart.config.json',
  );
  it('exclude wins over include, and names the key and file', () => {
    expect(toolHiddenBy(rules, 'notes', 'b')).toEqual({
      filter: 'exclude',
      where: 'mcpServers.notes.excludeTools in /p/.gemini/settings.json',
    });
  });
  it('a tool outside the allow list is hidden by it', () => {
    expect(toolHiddenBy(rules, 'notes', 'z')?.where).toBe(
      'mcpServers.notes.includeTools (it is not listed) in /p/.gemini/settings.json',
    );
  });
  it('serve.disable and load off hide too; our own section is checked first', () => {
    expect(toolHiddenBy(rules, 'notes', 'c')).toEqual({
      filter: 'disable',
      where: 'serve.servers.notes.disable in /p/mcp-smart.config.json',
    });
    expect(toolHiddenBy(rules, 'off', 'anything')?.filter).toBe('off');
  });
  it('everything else is visible', () => {
    expect(toolHiddenBy(rules, 'notes', 'a')).toBeUndefined();
    expect(toolHiddenBy(rules, 'other', 'b')).toBeUndefined();
  });
});

describe('mcp-smart.config.json server entries keep copied filters', () => {
  it('reads Gemini and Codex spellings together: allow lists intersect, deny lists add up', () => {
    const raw = normalizeServerEntry(
      'notes',
      {
        command: 'node',
        includeTools: ['a', 'b', 'c'],
        enabled_tools: ['b', 'c', 'd'],
        excludeTools: ['c'],
        disabled_tools: ['x'],
      },
      ['mcpServers', 'notes'],
      'mcp-smart.config.json',
      undefined,
    );
    expect(raw.toolFilter).toEqual({
      include: ['b', 'c'],
      exclude: ['c', 'x'],
      keys: [
        'mcpServers.notes.includeTools',
        'mcpServers.notes.enabled_tools',
        'mcpServers.notes.excludeTools',
        'mcpServers.notes.disabled_tools',
      ],
    });
  });
  it('a Codex file does not read Gemini keys', () => {
    const raw = normalizeServerEntry(
      'n',
      { command: 'x', excludeTools: ['a'] },
      ['mcp_servers', 'n'],
      'c.toml',
      'codex',
    );
    expect(raw.toolFilter).toBeUndefined();
  });
  it('a near-miss of a filter key is named with the key meant', () => {
    expect(filterKeyTypo({ command: 'x', excludeTool: ['a'] }, ['mcpServers', 'n'])).toEqual({
      key: 'mcpServers.n.excludeTool',
      reason:
        'unknown key "excludeTool": a tool filter that is not read would hide nothing. Did you mean "excludeTools"?',
    });
    expect(filterKeyTypo({ command: 'x', trust: true, timeout: 5 }, ['mcpServers', 'n'])).toBeUndefined();
  });
});
