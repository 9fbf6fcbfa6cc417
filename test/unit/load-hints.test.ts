import { describe, expect, it } from 'vitest';
import { DEFAULT_LOAD_HINTS, SEARCH_HINT_CHARS, planLoadHints, searchHintOf } from '../../src/core/hints/load-hints.js';
import type { UsageStats } from '../../src/core/types.js';

const tool = (id: string, tokens = 100, extra: { pinned?: boolean; off?: boolean } = {}) => {
  const [server, name] = id.split('.') as [string, string];
  return { id, tool: name, server, tokens, pinned: extra.pinned ?? false, off: extra.off ?? false };
};
const usage: UsageStats = {
  tools: {
    'git.commit': { success: 50, failure: 1, lastUsed: 10, categories: { code_operation: 40, other: 10 } },
    'git.status': { success: 30, failure: 0, lastUsed: 9, categories: {} },
    'files.read_file': { success: 15, failure: 0, lastUsed: 8, categories: { file_operation: 15 } },
    'web.fetch': { success: 5, failure: 0, lastUsed: 7, categories: {} },
    'db.query': { success: 0, failure: 4, lastUsed: 6, categories: {} },
  },
  intents: {
    'git.commit': [
      { text: 'save my work with a message', count: 3, last: 5 },
      { text: 'record the changes ghp_abcdefghijklmnopqrstuvwxyz0123456789', count: 5, last: 4 },
      { text: 'Save my WORK', count: 1, last: 9 },
    ],
  },
};
const all = ['git.commit', 'git.status', 'files.read_file', 'web.fetch', 'db.query', 'misc.never'].map((id) =>
  tool(id),
);

describe('load hints', () => {
  it('always loads the most used tools until they cover the coverage share, never one without successful use', () => {
    const h = planLoadHints(all, usage, DEFAULT_LOAD_HINTS);
    // 50 + 30 = 80 of 100 calls: the 0.8 coverage is reached after two tools.
    expect(h.alwaysLoad).toEqual(['git.commit', 'git.status']);
    expect(h.alwaysLoadTokens).toBe(200);
    expect(h.coverage).toBe(0.8);
    const wide = planLoadHints(all, usage, { ...DEFAULT_LOAD_HINTS, coverage: 1 });
    expect(wide.alwaysLoad).toEqual(['git.commit', 'git.status', 'files.read_file', 'web.fetch']);
    expect(wide.alwaysLoad).not.toContain('db.query');
    expect(wide.alwaysLoad).not.toContain('misc.never');
  });

  it('keeps within the token budget and the count; pinned tools are always loaded on top, opted-out tools never', () => {
    const priced = [
      tool('git.commit', 2500),
      tool('git.status', 800),
      tool('files.read_file', 300),
      tool('web.fetch', 100),
    ];
    const h = planLoadHints(priced, usage, { ...DEFAULT_LOAD_HINTS, coverage: 1, maxTokens: 3000, maxTools: 2 });
    expect(h.alwaysLoad).toEqual(['git.commit', 'files.read_file']);
    expect(h.alwaysLoadTokens).toBe(2800);
    const pinned = planLoadHints(
      [tool('misc.never', 50, { pinned: true }), tool('git.commit', 10, { off: true }), tool('git.status')],
      usage,
      DEFAULT_LOAD_HINTS,
    );
    expect(pinned.alwaysLoad).toEqual(['misc.never', 'git.status']);
    expect(pinned.searchHints.has('git.commit')).toBe(false);
  });

  it('search hints: distinct words of the intents (most used first) and categories, not the name, no secrets, ≤ 80 chars', () => {
    const hint = searchHintOf(tool('git.commit'), usage);
    expect(hint).toBe('record changes save work message code operation');
    expect(hint).not.toMatch(/ghp_|abcdef/);
    const long: UsageStats = {
      tools: { 'a.b': { success: 1, failure: 0, lastUsed: 1, categories: {} } },
      intents: {
        'a.b': [
          {
            text: Array.from({ length: 40 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`).join(' '),
            count: 1,
            last: 1,
          },
        ],
      },
    };
    const cut = searchHintOf(tool('a.b'), long)!;
    expect(cut.length).toBeLessThanOrEqual(SEARCH_HINT_CHARS);
    expect(cut.split(' ').length).toBe(new Set(cut.split(' ')).size);
    expect(searchHintOf(tool('web.fetch'), usage)).toBeUndefined();
    // Deterministic: the same usage gives the same hints, whatever order the intents come in.
    const shuffled: UsageStats = { ...usage, intents: { 'git.commit': [...usage.intents!['git.commit']!].reverse() } };
    expect(searchHintOf(tool('git.commit'), shuffled)).toBe(hint);
  });
});
