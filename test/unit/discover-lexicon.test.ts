import { describe, expect, it } from 'vitest';
import { buildDiscoverIndex, loadWordVectors, rankTools } from '../../src/core/discover/index.js';
import { ACTION_EXPANSION_WEIGHT, bm25Query, queryTerms } from '../../src/core/discover/bm25.js';
import { ACTION_PENALTY } from '../../src/core/discover/actions.js';
import {
  PAYLOAD_WEIGHT,
  intentActions,
  overStemmed,
  payloadSpans,
  productNames,
  toolAction,
} from '../../src/core/discover/lexicon.js';
import { STOP_WORDS, analyze } from '../../src/core/discover/tokenize.js';
import type { JsonObject, ToolRef } from '../../src/core/types.js';

const ref = (server: string, name: string, description: string, annotations?: JsonObject): ToolRef => ({
  id: `${server}.${name}`,
  server,
  tool: { name, description, inputSchema: { type: 'object' }, ...(annotations ? { annotations } : {}) },
});
const vectors = await loadWordVectors();

describe('discover lexicon: abbreviations read as their full form on both sides', () => {
  const tools: ToolRef[] = [
    ref('docs', 'search_documentation', 'Search the product documentation for a topic'),
    ref('git', 'list_repos', 'List the repos of a user'),
    ref('git', 'open_pull_request', 'Open a pull request from a branch'),
    ref('notes', 'search_notes', 'Search the notes of a topic'),
  ];
  const index = buildDiscoverIndex(tools, { vectors });
  const top = (intent: string): string | undefined =>
    rankTools(index, intent, { engine: 'bm25', k: 3 }).results[0]?.tool;

  it('analyses an abbreviation as the terms of its full form', () => {
    expect(analyze('docs')).toEqual(analyze('documentation'));
    expect(analyze('k8s env')).toEqual(analyze('kubernetes environment'));
    expect(analyze('PR')).toEqual(analyze('pull request'));
    expect(analyze('open MR')).toEqual(analyze('open merge request'));
    expect(analyze('a11y')).toEqual(analyze('accessibility'));
  });

  it('finds a tool that spells out what the intent abbreviates, and the other way round', () => {
    expect(top('read the docs')).toBe('search_documentation');
    expect(top('which repositories does this user have')).toBe('list_repos');
    expect(top('make a PR')).toBe('open_pull_request');
  });
});

describe('discover lexicon: everyday verbs reach the verbs tool names use', () => {
  const tools: ToolRef[] = [
    ref('notes', 'add_note', 'Add a note with a title and a body'),
    ref('notes', 'delete_note', 'Delete a note by its title', { destructiveHint: true }),
    ref('notes', 'search_notes', 'Search notes by words in their title or body'),
    ref('notes', 'rename_note', 'Give a note another title'),
  ];
  const index = buildDiscoverIndex(tools, { vectors });
  const top = (intent: string): string | undefined =>
    rankTools(index, intent, { engine: 'bm25', k: 4 }).results[0]?.tool;

  it('expands the action an intent asks for with the tool verbs of its class, below the literal words', () => {
    const q = bm25Query('jot down that the meeting moved to friday');
    expect(q.literal).toEqual(queryTerms('jot down that the meeting moved to friday'));
    const add = q.terms.indexOf('add');
    expect(add).toBeGreaterThanOrEqual(q.literal.length);
    expect(q.weights[add]).toBe(ACTION_EXPANSION_WEIGHT);
    expect(q.weights.slice(0, q.literal.length).every((w) => w === 1)).toBe(true);
  });

  it('ranks the tool of the asked action first for everyday phrasings', () => {
    expect(top('jot down that the meeting moved to friday')).toBe('add_note');
    expect(top('remember that alice works at acme')).toBe('add_note');
    expect(top('what do we know about alice')).toBe('search_notes');
    expect(top('get rid of the old note about alice')).toBe('delete_note');
  });

  it('classes an intent by its verbs and phrases, not by any word in it', () => {
    const stop = (w: string): boolean => w.length < 2 || STOP_WORDS.has(w);
    expect([...intentActions('Could you please remove the draft', stop)]).toEqual(['delete']);
    expect([...intentActions('look up the weather in Paris', stop)]).toEqual(['read']);
    // "list" is a read verb, but here it is the object: the clause's verb is "add".
    expect([...intentActions('add milk to the shopping list', stop)]).toEqual(['create']);
    expect(intentActions('the weather in Paris', stop).size).toBe(0);
  });
});

describe('discover first stage: a verb that contradicts the intent weighs against the tool', () => {
  const tools: ToolRef[] = [
    ref('dns', 'delete_dns_records', 'Delete DNS records of a domain', { destructiveHint: true }),
    ref('dns', 'create_dns_record', 'Create a DNS record in a domain zone'),
    ref('dns', 'list_dns_records', 'List the DNS records of a domain'),
    ref('dns', 'update_dns_zone', 'Update the settings of a DNS zone of a domain', { destructiveHint: true }),
    ref('mail', 'send_mail', 'Send an email message'),
  ];
  const index = buildDiscoverIndex(tools, { vectors });
  const rank = (intent: string): Map<string, { score: number; action?: number }> =>
    new Map(
      rankTools(index, intent, { engine: 'hybrid', k: 5, rerank: false }).results.map((r) => [
        r.tool,
        { score: r.score, ...(r.reasons?.action !== undefined ? { action: r.reasons.action } : {}) },
      ]),
    );

  it('takes a share of the best score from a contradicting tool, twice that from a destructive one', () => {
    const got = rank('add a DNS A record for my domain');
    const top = [...got.values()][0]!.score;
    expect([...got.keys()][0]).toBe('create_dns_record');
    expect(got.get('create_dns_record')!.action).toBeUndefined();
    // read contradicts create; delete is destructive (its verb and its annotation): twice the share.
    expect(got.get('list_dns_records')!.action).toBeCloseTo(-ACTION_PENALTY * top, 3);
    expect(got.get('delete_dns_records')!.action).toBeCloseTo(-2 * ACTION_PENALTY * top, 3);
    // Updating is near creating (an upsert): no penalty, annotation or not; a tool without a verb class is left alone.
    expect(got.get('update_dns_zone')!.action).toBeUndefined();
    expect(got.get('send_mail')?.action).toBeUndefined();
  });

  it("reads a tool's action past a leading namespace", () => {
    expect(toolAction(analyze('DNS_deleteDNSRecordsV1'))).toBe('delete');
    expect(toolAction(analyze('kv_put'))).toBe('create');
    expect(toolAction(analyze('delete_record'))).toBe('delete');
    expect(toolAction(analyze('dns_zone_records'))).toBeUndefined();
    // An HTTP method before the tool's own verb: the verb counts.
    expect(toolAction(analyze('API-post-search'))).toBe('read');
    expect(toolAction(analyze('API-post-page'))).toBe('create');
    const ns = buildDiscoverIndex([ref('dns', 'DNS_deleteRecords', 'Delete the DNS records of a domain'), ...tools], {
      vectors,
    });
    const got = rankTools(ns, 'add a DNS record for my domain', { engine: 'hybrid', k: 6, rerank: false }).results;
    expect(got.find((r) => r.tool === 'DNS_deleteRecords')!.reasons!.action).toBeLessThan(0);
  });

  it('leaves a ranking alone when the intent names no action', () => {
    for (const r of rank('DNS records of my domain').values()) expect(r.action).toBeUndefined();
  });
});

describe('discover lexicon: payload inside an intent weighs less than the request', () => {
  it('finds quoted text, code, JSON, URLs, paths and SQL, not plain words or apostrophes', () => {
    const spans = (text: string): string[] => payloadSpans(text).map(([a, b]) => text.slice(a, b));
    expect(spans('add a note saying "call the bank" and `ls -la`')).toEqual(['"call the bank"', '`ls -la`']);
    expect(spans("rename 'draft one' to final")).toEqual(["'draft one'"]);
    expect(spans('post {"name": "x", "tags": ["a"]} to https://example.com/api')).toEqual([
      '{"name": "x", "tags": ["a"]}',
      'https://example.com/api',
    ]);
    expect(spans('read /srv/data/report.txt now')).toEqual(['/srv/data/report.txt']);
    expect(spans('run SELECT name FROM users WHERE id = 3')).toEqual(['SELECT name FROM users WHERE id = 3']);
    expect(spans("update the user's record and delete the old one")).toEqual([]);
    // A block after a colon and a new line (a file's content, a list, a manifest) is payload to its end.
    expect(spans('write this to todo.md:\n- fix login\n- call the bank')).toEqual([':\n- fix login\n- call the bank']);
  });

  const tools: ToolRef[] = [
    ref('notes', 'add_note', 'Add a note with a text'),
    ref('db', 'run_sql', 'Run a SQL query on a table of the database and return its rows'),
    ref('mail', 'send_mail', 'Send an email message'),
  ];
  const index = buildDiscoverIndex(tools, { vectors });
  const intent = 'add a note saying "run the SQL query on the orders table and return the rows"';

  it('gives the terms found only in payload PAYLOAD_WEIGHT and keeps the request and file kinds at 1', () => {
    const q = bm25Query(intent);
    const weight = (word: string): number | undefined => q.weights[q.terms.indexOf(analyze(word)[0]!)];
    expect(weight('note')).toBe(1);
    expect(weight('query')).toBe(PAYLOAD_WEIGHT);
    expect(weight('rows')).toBe(PAYLOAD_WEIGHT);
    const file = bm25Query('summarise "q3 report.pdf"');
    expect(file.weights[file.terms.indexOf('pdf')]).toBe(1);
    expect(file.weights[file.terms.indexOf('report')]).toBe(PAYLOAD_WEIGHT);
  });

  it('ranks the tool of the request above the tool the payload names', () => {
    for (const engine of ['bm25', 'hybrid'] as const) {
      const got = rankTools(index, intent, { engine, k: 3, rerank: false }).results.map((r) => r.tool);
      expect(got[0], engine).toBe('add_note');
    }
  });
});

describe('discover lexicon: product names are not stemmed onto common words', () => {
  const tools: ToolRef[] = [
    ref('remotion', 'render_composition', 'Render a Remotion composition to a video file'),
    ref('remotion', 'search_docs', 'Search the Remotion documentation'),
    ref('tv', 'press_button', 'Press a button of the remote control'),
    ref('tv', 'list_remotes', 'List the remotes paired with the TV'),
  ];

  it('finds the product names of a set of tools: capitalised inside a sentence or a server name, never lower case', () => {
    expect([...productNames(tools)]).toEqual(['remotion']);
    // Capitalised at a sentence start, in a heading, or written in lower case elsewhere: not a product name.
    expect(
      productNames([
        ref('a', 'x', 'Remote control. Use the Remote Control Panel'),
        ref('b', 'y', 'Adds a Recommendation, or a recommendation'),
      ]).size,
    ).toBe(0);
    expect(overStemmed('remotion')).toBe(true);
    expect(overStemmed('remotes')).toBe(false);
  });

  it('keeps the tools of a product apart from the tools of a common word that stems alike', () => {
    for (const index of [
      buildDiscoverIndex(tools),
      buildDiscoverIndex(tools, { bm25: buildDiscoverIndex(tools).bm25ByParams.values().next().value }),
    ]) {
      const matched = (intent: string): string[] =>
        rankTools(index, intent, { engine: 'bm25', k: 4 })
          .results.filter((r) => r.score > 0)
          .map((r) => r.tool)
          .sort();
      expect(matched('the remote')).toEqual(['list_remotes', 'press_button']);
      expect(matched('remotion')).toEqual(['render_composition', 'search_docs']);
    }
  });
});
