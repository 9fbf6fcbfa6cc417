import { describe, expect, it } from 'vitest';
import { bm25Query } from '../../src/core/discover/bm25.js';
import { buildDiscoverIndex, fuseRankings } from '../../src/core/discover/index.js';
import { namedServers } from '../../src/core/discover/named.js';
import { askedAs, asksForMany, isQuestion, narrowsMany, questionAction } from '../../src/core/discover/mood.js';
import { actionOf, keptClause, payloadSpans, withoutPayload } from '../../src/core/discover/lexicon.js';
import { isVerb, relatedWords } from '../../src/core/discover/related.js';
import { STOP_WORDS, stem } from '../../src/core/discover/tokenize.js';
import { catalogueEntry as ref } from '../helpers/catalogue-entry.js';

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
    expect(asksForMany('which Slack channels do we have?', isStop, stem)).toBe(true);
    expect(asksForMany('are there Shortcut epics about billing?', isStop, stem)).toBe(true);
    expect(asksForMany('which branch am I on?', isStop, stem)).toBe(false);
    expect(asksForMany('are there any open incidents?', isStop, stem)).toBe(true);
    expect(asksForMany('what is the weather in Paris?', isStop, stem)).toBe(false);
  });

  it('a question narrowing many things by what they hold or do is answered by a search', () => {
    expect(narrowsMany('which Linear issues mention the login bug?', isStop, stem)).toBe(true);
    expect(narrowsMany('are there Shortcut epics about billing?', isStop, stem)).toBe(true);
    expect(narrowsMany('which Replicate models can upscale images?', isStop, stem)).toBe(true);
    // Where they are, that they exist, what happened to them, an inverted subject: all of them, a listing.
    expect(narrowsMany('which files are in my project folder?', isStop, stem)).toBe(false);
    expect(narrowsMany('which Slack channels do we have?', isStop, stem)).toBe(false);
    expect(narrowsMany('which Azure DevOps pipeline runs failed last night?', isStop, stem)).toBe(false);
    expect(narrowsMany('which hosts report to Datadog?', isStop, stem)).toBe(false);
    expect(narrowsMany('how many LINE messages can I still send?', isStop, stem)).toBe(false);
    expect(narrowsMany('what is the weather in Paris?', isStop, stem)).toBe(false);
    expect(askedAs('which Notion pages talk about onboarding?').text).toBe(
      'search which Notion pages talk about onboarding',
    );
  });

  it('ranks a question after many things as its listing command, and marks read questions', () => {
    expect(askedAs('which Slack channels do we have?')).toEqual({
      text: 'list which Slack channels do we have',
      question: true,
      read: true,
      rule: 'many',
    });
    expect(askedAs('what is the weather in Paris tomorrow?')).toEqual({
      text: 'what is the weather in Paris tomorrow?',
      question: true,
      read: true,
    });
    expect(askedAs('how do I delete a branch?')).toEqual({
      text: 'how do I delete a branch?',
      question: true,
      read: false,
    });
    expect(askedAs('list the Slack channels')).toEqual({
      text: 'list the Slack channels',
      question: false,
      read: false,
    });
  });

  it("a command's query holds the words WordNet derives from its own", () => {
    const c = bm25Query('remember that alice works at acme');
    expect([...c.actions]).toEqual(['create']);
    expect(c.terms).toContain('memori'); // remember → memory, stemmed
    expect(c.weights[c.terms.indexOf('memori')]).toBe(0.3);
    // The kept clause is content to store: its words are not ranked on; the request's own verb is.
    expect(c.weights[c.terms.indexOf(stem('works'))]).toBe(0);
    expect(c.weights[c.terms.indexOf(stem('remember'))]).toBe(1);
    // Quoted payload still weighs a little (a quoted name can say which tool).
    const q = bm25Query('search the docs for "retention policy"');
    expect(q.weights[q.terms.indexOf(stem('retention'))]).toBe(0.3);
  });
});

describe('WordNet derivations (data/wordnet-related.tsv.gz)', () => {
  it('tell verbs from nouns by their tagged senses', () => {
    expect(isVerb(stem('send'))).toBe(true);
    expect(isVerb(stem('deploy'))).toBe(true);
    expect(isVerb(stem('channel'))).toBe(false);
    expect(isVerb(stem('list'))).toBe(false);
  });

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

describe('the clause a request asks to keep', () => {
  it('is payload after a create verb and "that", and nowhere else', () => {
    expect(keptClause('remember that alice works at acme')).toBe('remember that '.length);
    expect(withoutPayload('save that the build is green').trim()).toBe('save that');
    expect(keptClause('note that the build is green')).toBe(-1); // "note" names no action by itself
    expect(keptClause('delete that file')).toBe(-1);
    expect(keptClause('find files that changed today')).toBe(-1);
    expect(payloadSpans('remember that alice works at acme')).toEqual([[14, 33]]);
  });
});

describe('a server named through a WordNet derivation', () => {
  const index = buildDiscoverIndex([
    ref('memory', 'create_entities', 'Create multiple new entities in the knowledge graph'),
    ref('filesystem', 'write_file', 'Create a new file or overwrite an existing file'),
    ref('memory-bank', 'memory_bank_write', 'Write a memory bank file'),
  ]);

  it('weighs the derived term as a literal word when it is a whole server name', () => {
    const q = bm25Query('remember that alice works at acme');
    const { query, named } = namedServers(index, q);
    expect(named).toEqual(['memory']);
    expect(query.weights[query.terms.indexOf('memori')]).toBe(1);
    expect(q.weights[q.terms.indexOf('memori')]).toBe(0.3); // the query it was given is left as it was
  });

  it('leaves a derivation that names no server, or only part of one, at its related weight', () => {
    const only = buildDiscoverIndex([ref('memory-bank', 'memory_bank_write', 'Write a memory bank file')]);
    const q = bm25Query('remember that alice works at acme');
    expect(namedServers(only, q)).toEqual({ query: q, named: [] });
    const d = bm25Query('deploy the site');
    expect(namedServers(index, d).named).toEqual([]);
  });
});
