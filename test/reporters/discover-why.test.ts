// discover's "why" column: the matched query words as the user typed them, never the stems the index holds.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { DiscoverRanking } from '../../src/core/discover/result.js';
import { renderDiscover, typedWordsOf } from '../../src/reporters/discover.js';

describe('why column', () => {
  it('maps stems back to the typed words, punctuation and case as written', () => {
    const typed = typedWordsOf('Send Messages to the #channels, running tests');
    expect(['send', 'messag', 'channel', 'run', 'test'].map(typed)).toEqual([
      'Send',
      'Messages',
      'channels',
      'running',
      'tests',
    ]);
  });

  it('the table shows "matched: Messages, channels" for the stems messag and channel', () => {
    const ranking: DiscoverRanking = {
      kind: 'ranking',
      intent: 'post Messages to #channels',
      engine: 'bm25',
      k: 1,
      fallback: false,
      results: [
        {
          rank: 1,
          id: 'chat.post',
          server: 'chat',
          tool: 'post',
          score: 1.5,
          matched: ['messag', 'channel', 'messag'],
        },
      ],
    };
    const out = renderDiscover(ranking, { format: 'table', chalk: new Chalk({ level: 0 }), explain: false });
    expect(out).toContain('matched: Messages, channels');
    expect(out).not.toMatch(/messag\b|channel\b/);
  });
});
