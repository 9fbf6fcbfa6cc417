import { describe, expect, it } from 'vitest';
import { bm25Query } from '../../src/core/discover/bm25.js';
import { fuseRankings } from '../../src/core/discover/index.js';
import { asksForMany, isQuestion, questionAction } from '../../src/core/discover/mood.js';
import { actionOf } from '../../src/core/discover/lexicon.js';
import { relatedWords } from '../../src/core/discover/related.js';
import { STOP_WORDS, stem } from '../../src/core/discover/tokenize.js';

const act = (w: string) => actionOf(stem(w));
const isStop = (w: string): boolean => w.length < 2 || STOP_WORDS.has(w);

describe('question mood (issue 29)', () => {
  it('tells questions from commands and polite requests', () => {
    expect(isQuestion('what meetings do I have tomorrow')).toBe(true);
    expect(isQuestion('do I have any unread emails in Outlook?')).toBe(true);
    expect(isQuestion('is there a Heroku app called billing')).toBe(true);
    expect(isQuestion('list my calendar events for tomorrow')).toBe(false);
    expect(isQuestion('can you add a task to Asana')).toBe(false);
    expect(isQuestion('remember that alice works at acme')).toBe(false);
  });

  it('asks to read unless it asks how to do something else', () => {
    expect(questionAction('what meetings do I have tomorrow', act)).toBe('read');
    expect(questionAction('is the new-checkout flag on in production?', act)).toBe('read');
    expect(questionAction('how do I delete a branch?', act)).toBe('delete');
    expect(questionAction('what did I change in my working tree?', act)).toBe('read');
    expect(questionAction('create an issue', act)).toBeUndefined();
  });

  it('a question after many things is answered by a listing', () => {
    expect(asksForMany('which Slack channels do we have?', isStop, stem)).toBe(false); // "slack" comes first
    expect(asksForMany('which channels do we have in Slack?', isStop, stem)).toBe(true);
    expect(asksForMany('are there any open incidents?', isStop, stem)).toBe(true);
    expect(asksForMany('what is the weather in Paris?', isStop, stem)).toBe(false);
  });

  it("a question's query names the read action and adds no read verbs; a command's adds its own", () => {
    const q = bm25Query('what is the weather in Paris tomorrow');
    expect(q.question).toBe(true);
    expect([...q.actions]).toEqual(['read']);
    expect(q.terms).not.toContain(stem('list'));
    expect(q.terms).not.toContain(stem('read'));
    // Many things asked for: "list" joins at LISTING_WEIGHT.
    const many = bm25Query('what meetings do I have tomorrow');
    expect(many.weights[many.terms.indexOf(stem('list'))]).toBe(0.6);
    const c = bm25Query('remember that alice works at acme');
    expect(c.question).toBe(false);
    expect([...c.actions]).toEqual(['create']);
    expect(c.terms).toContain('memori'); // WordNet: remember → memory, stemmed
  });
});

describe('WordNet derivations (data/wordnet-related.tsv.gz)', () => {
  it('relate a verb to its noun, and keep rare senses out', () => {
    expect(relatedWords('remember')).toContain('memory');
    expect(relatedWords('deploy')).toEqual(['deployment']);
    expect(relatedWords('create')).not.toContain('creature');
    expect(relatedWords('zzzz')).toEqual([]);
  });
});

describe('fuseRankings (find_tool queries)', () => {
  it('sums reciprocal ranks and breaks ties by id', () => {
    expect(fuseRankings([['a', 'b', 'c']])).toEqual(['a', 'b', 'c']);
    expect(
      fuseRankings([
        ['b', 'a'],
        ['a', 'c'],
      ]),
    ).toEqual(['a', 'b', 'c']);
    expect(fuseRankings([['y'], ['x']])).toEqual(['x', 'y']);
  });
});
