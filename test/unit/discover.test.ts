import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildDiscoverIndex,
  detectTaskContext,
  encodeWordVectors,
  evaluateRankings,
  loadWordVectors,
  pairedBootstrap,
  parseLabelledIntents,
  parseWordVectors,
  rankTools,
  resolveWeights,
  toolRefsFromSnapshots,
  DEFAULT_WEIGHTS,
} from '../../src/core/discover/index.js';
import { intentClauses } from '../../src/core/discover/clauses.js';
import {
  decodeIndexCache,
  encodeIndexCache,
  indexCacheKey,
  semanticText,
  topN,
} from '../../src/core/discover/engine.js';
import { unionSorted } from '../../src/core/discover/candidates.js';
import { leadPassage } from '../../src/core/discover/lead-passage.js';
import { queryVector, scoreSemantic } from '../../src/core/discover/semantic.js';
import { decodeSemanticIndex, encodeSemanticIndex } from '../../src/core/discover/semantic-codec.js';
import { sentenceVector } from '../../src/core/discover/sif.js';
import { scoreSketch, SKETCH_MIN_TOOLS } from '../../src/core/discover/sketch.js';
import { dot } from '../../src/core/discover/vector-math.js';
import { deriveServerScores, groupServers } from '../../src/core/discover/servers.js';
import { buildBm25Index, queryTerms } from '../../src/core/discover/bm25.js';
import { seededRandom } from '../../src/core/session/tune.js';
import {
  analyze,
  fileKindVocabulary,
  fileKindWords,
  splitWords,
  withoutBlobs,
} from '../../src/core/discover/tokenize.js';
import { defaultGlossaryFile, glossHan, setGlossaryFile } from '../../src/core/discover/gloss.js';
import { lookupWord } from '../../src/core/discover/vectors.js';
import type { ServerSnapshot, ToolRef, UsageStats } from '../../src/core/types.js';
import { fixture } from '../helpers/paths.js';
import { intentWords } from '../../src/core/discover/keyword.js';

const servers = (
  JSON.parse(readFileSync(fixture('snapshots', 'discover-tools.json'), 'utf8')) as { servers: ServerSnapshot[] }
).servers;
/** Tool refs of reachable stdio servers given as `{ server: tools }`. */
const refsOf = (byServer: Record<string, ServerSnapshot['tools']>) =>
  toolRefsFromSnapshots(
    Object.entries(byServer).map(([name, tools]): ServerSnapshot => ({
      name,
      transport: 'stdio',
      status: 'ok',
      tools,
    })),
  );
const tools = toolRefsFromSnapshots(servers);
const vectors = await loadWordVectors();
const index = buildDiscoverIndex(tools, { vectors });
const top = (intent: string, engine: 'keyword' | 'bm25' | 'semantic' | 'hybrid', k = 5): string[] =>
  rankTools(index, intent, { engine, k }).results.map((r) => r.id);

describe('tokenize', () => {
  it('splits camelCase, snake_case and kebab-case names', () => {
    expect(splitWords('listPullRequests')).toEqual(['list', 'pull', 'requests']);
    expect(splitWords('read_file http-request HTMLParser')).toEqual([
      'read',
      'file',
      'http',
      'request',
      'html',
      'parser',
    ]);
  });
  it('splits acronyms and digits as the regex splitter did (pinned from it)', () => {
    expect(splitWords('ABcDEf')).toEqual(['a', 'bc', 'd', 'ef']);
    expect(splitWords('getHTTPResponse2XX')).toEqual(['get', 'http', 'response2', 'xx']);
    expect(splitWords('aB2C')).toEqual(['a', 'b2', 'c']);
    expect(splitWords('parse_JSONData-v2')).toEqual(['parse', 'json', 'data', 'v2']);
    // Latin and CJK runs are separate words (they were one, "bing搜索api", before the glossary).
    expect(splitWords('Bing搜索API')).toEqual(['bing', '搜索', 'search', 'api']);
    expect(splitWords('生成PPT演示文稿')).toEqual([
      '生成',
      'generate',
      'produce',
      'generated',
      'ppt',
      '演示文稿',
      'presentation',
    ]);
  });
  it('splits at punctuation and symbols outside ASCII, and keeps letters outside ASCII in their words', () => {
    expect(splitWords('readFile → writeFile • list—all “quoted”')).toEqual([
      'read',
      'file',
      'write',
      'file',
      'list',
      'all',
      'quoted',
    ]);
    expect(splitWords('GrößeÄndern → naïveCase')).toEqual(['größe', 'ändern', 'naïve', 'case']);
    expect(splitWords('⚠️ 🚨alert𝐀B')).toEqual(['alert', '𝐀b']);
  });
  it('reads an emoji (a surrogate pair that is no letter) as a space, and an astral letter or digit as a letter', () => {
    expect(splitWords('🚀launchRocket get🔥HTTPResponse 🇺🇸v2')).toEqual([
      'launch',
      'rocket',
      'get',
      'http',
      'response',
      'v2',
    ]);
    expect(splitWords('sum𝟏Of 𝐀lpha')).toEqual(['sum𝟏', 'of', '𝐀lpha']);
    // Lone surrogates are no letters either.
    expect(splitWords('a\ud83db \ude00C')).toEqual(['a', 'b', 'c']);
    const texts = ['listPullRequests for HTMLParser_v2', 'getHTTPResponse2XX', 'ABcDEf', 'aB2C', 'parse_JSONData-v2'];
    for (const t of texts)
      for (let at = 0; at <= t.length; at++)
        for (const emoji of ['😀', '⚠️', '🏳️‍🌈'])
          expect(splitWords(t.slice(0, at) + emoji + t.slice(at))).toEqual(
            splitWords(`${t.slice(0, at)} ${t.slice(at)}`),
          );
  });
  it('stems, drops stop words and turns CJK runs into bigrams followed by their English glosses', () => {
    expect(analyze('Reading the files')).toEqual(['read', 'file']);
    expect(analyze('必应搜索')).toEqual(['必应', '应搜', '搜索', 'bing', 'search']);
  });
});

describe('toolRefsFromSnapshots', () => {
  it('skips failed servers and ids tools server.tool', () => {
    expect(tools.map((t) => t.id)).toContain('files.read_file');
    expect(tools.some((t) => t.server === 'broken')).toBe(false);
    expect(tools.find((t) => t.id === 'files.read_file')?.serverInstructions).toMatch(/Filesystem/);
  });
});

describe('keyword engine (router note)', () => {
  it('puts the tool whose name parts match first and returns the top 3', () => {
    const r = rankTools(index, 'create an issue in my repository', { engine: 'keyword', k: 3 });
    expect(r.fallback).toBe(false);
    expect(r.results[0]?.id).toBe('github.create_issue');
    expect(r.results[0]?.reasons).toEqual({ strong: 4, weak: 3 });
    expect(r.results.length).toBeLessThanOrEqual(3);
  });
  it('offers every tool, flagged fallback, when nothing matches', () => {
    const r = rankTools(index, 'xyz qqq zz', { engine: 'keyword', k: 3 });
    expect(r.fallback).toBe(true);
    expect(r.results).toHaveLength(tools.length);
  });
  it('uses configured keywords as strong matches', () => {
    const withKw = buildDiscoverIndex(tools, { keywords: { 'weather.get_forecast': ['umbrella'] } });
    expect(rankTools(withKw, 'do I need an umbrella', { engine: 'keyword', k: 3 }).results[0]?.id).toBe(
      'weather.get_forecast',
    );
  });
});

describe('bm25 engine', () => {
  it('ranks the right tool first through stemming and name splitting', () => {
    expect(top('list the pull requests', 'bm25')[0]).toBe('github.listPullRequests');
    expect(top('reading a file', 'bm25')[0]).toBe('files.read_file');
  });
  it('matches Chinese descriptions by character bigrams', () => {
    expect(top('必应搜索关键词', 'bm25')[0]).toBe('bing-cn.bing_search');
    expect(top('获取网页内容', 'bm25')[0]).toBe('bing-cn.fetch_webpage');
  });
  it('reports which intent terms matched', () => {
    const r = rankTools(index, 'list the pull requests', { engine: 'bm25', k: 1 });
    expect(r.results[0]?.matched).toEqual(['list', 'pull', 'request']);
  });
});

describe('semantic engine (shipped word vectors)', () => {
  it('finds a tool that shares no word with the intent', () => {
    expect(top('will it be sunny in Paris tomorrow', 'semantic')[0]).toBe('weather.get_forecast');
    expect(rankTools(index, 'will it be sunny in Paris tomorrow', { engine: 'bm25', k: 5 }).fallback).toBe(true);
  });
});

describe('hybrid engine', () => {
  it('puts the known right tool first', () => {
    expect(top('will it be sunny in Paris tomorrow', 'hybrid')[0]).toBe('weather.get_forecast');
    expect(top('open a bug report on github', 'hybrid')[0]).toBe('github.create_issue');
    expect(top('call a REST API endpoint with POST', 'hybrid')[0]).toBe('web.http-request');
  });
  it('explains each signal and sums them into the score', () => {
    const r = rankTools(index, 'read a file', { engine: 'hybrid', k: 1 }).results[0]!;
    expect(Object.keys(r.reasons!)).toEqual(['bm25', 'semantic', 'usage', 'server']);
    const sum = Object.values(r.reasons!).reduce((a, b) => a + b, 0);
    expect(r.score).toBeCloseTo(sum, 3);
  });
  it('lets the usage prior decide between two equally matching tools', () => {
    const usage: UsageStats = {
      tools: { 'files.write_file': { success: 20, failure: 0, lastUsed: 1_000, categories: { file_operation: 20 } } },
    };
    const plain = rankTools(index, 'file', { engine: 'hybrid', k: 4 }).results.map((r) => r.id);
    const learned = rankTools(index, 'file', {
      engine: 'hybrid',
      k: 4,
      usage,
      now: 1_000,
      weights: { fusion: { usage: 2 } },
    }).results;
    expect(plain[0]).not.toBe('files.write_file');
    expect(learned[0]?.id).toBe('files.write_file');
    expect(learned[0]?.reasons?.usage).toBeGreaterThan(0);
  });
});

describe('server-level relevance', () => {
  // Two identical add_heading tools; only the word server has a sibling that matches "docx".
  const docs = refsOf({
    word: [
      { name: 'create_document', description: 'Create a new .docx file.' },
      { name: 'add_heading', description: 'Add a heading.' },
    ],
    markdown: [
      { name: 'add_heading', description: 'Add a heading.' },
      { name: 'render', description: 'Render markup as HTML.' },
    ],
  });
  const docIndex = buildDiscoverIndex(docs, { vectors });
  const order = (server: number): string[] =>
    rankTools(docIndex, 'add a heading to the docx', {
      engine: 'hybrid',
      k: 4,
      weights: { fusion: { server } },
    }).results.map((r) => r.id);

  it('lifts the tools of the server that covers the intent as a whole', () => {
    // Off: the tie between the identical tools falls to the id order.
    expect(order(0).indexOf('markdown.add_heading')).toBeLessThan(order(0).indexOf('word.add_heading'));
    expect(order(0.5).indexOf('word.add_heading')).toBeLessThan(order(0.5).indexOf('markdown.add_heading'));
  });
  it('gives every tool of a server the same share, the best server exactly fusion.server', () => {
    const r = rankTools(docIndex, 'add a heading to the docx', {
      engine: 'hybrid',
      k: 4,
      weights: { fusion: { server: 0.5 } },
    }).results;
    const share = (id: string): number => r.find((x) => x.id === id)!.reasons!.server!;
    expect(share('word.add_heading')).toBe(0.5);
    expect(share('word.create_document')).toBe(0.5);
    expect(share('markdown.add_heading')).toBe(share('markdown.render'));
    expect(share('markdown.add_heading')).toBeLessThan(0.5);
  });
  it('lets only tools the patterns allow vote for their server', () => {
    const shares = (rules: { match: string; exclude?: boolean }[]): Record<string, number> =>
      Object.fromEntries(
        rankTools(docIndex, 'add a heading to the docx', {
          engine: 'hybrid',
          k: 4,
          weights: { fusion: { server: 0.5 } },
          patterns: { rules },
        }).results.map((x) => [x.id, x.reasons!.server!]),
      );
    expect(shares([])['word.add_heading']).toBe(0.5);
    // create_document (the only "docx" tool) excluded: it no longer carries the word server, markdown leads.
    const excluded = shares([{ match: 'create_document', exclude: true }]);
    expect(excluded['word.create_document']).toBeUndefined();
    expect(excluded['markdown.add_heading']).toBe(0.5);
    expect(excluded['word.add_heading']).toBeLessThan(0.5);
  });
  it('orders by the server share but never lets it alone make a tool match', () => {
    // "plugh" is in no word table: only bm25 matches, and only a.zork. Its sibling must not ride the share in.
    const ix = buildDiscoverIndex(
      refsOf({
        a: [
          { name: 'zork', description: 'Qwxzv plugh.' },
          { name: 'other', description: 'Deletes the calendar.' },
        ],
        b: [{ name: 'thing', description: 'Sends mail.' }],
      }),
      { vectors },
    );
    expect(rankTools(ix, 'plugh', { engine: 'hybrid', k: 5 }).results.map((r) => r.id)).toEqual(['a.zork']);
  });
  it('scales the share into the range of RRF fusion, as it does the usage prior', () => {
    const r = rankTools(index, 'read a file', { engine: 'hybrid', k: 6, fusion: 'rrf' }).results;
    for (const x of r) expect(x.reasons!.server!).toBeLessThanOrEqual(0.5 / 61 + 1e-4);
    // bm25 and cosine still rank: the best RRF tool is the one both signals put first, not any tool of the best server.
    expect(r[0]!.id).toBe('files.read_file');
    expect(r[0]!.reasons!.bm25!).toBeGreaterThan(r.at(-1)!.reasons!.bm25!);
  });
  it('changes nothing with one server', () => {
    const one = rankTools(index, 'read a file', { engine: 'hybrid', k: 5 });
    const single = buildDiscoverIndex(
      tools.filter((t) => t.server === 'files'),
      { vectors },
    );
    const r = rankTools(single, 'read a file', { engine: 'hybrid', k: 4 }).results;
    expect(Object.keys(r[0]!.reasons!)).toEqual(['bm25', 'semantic', 'usage']);
    expect(r.map((x) => x.id)).toEqual(
      rankTools(single, 'read a file', { engine: 'hybrid', k: 4, weights: { fusion: { server: 0 } } }).results.map(
        (x) => x.id,
      ),
    );
    expect(one.results[0]!.reasons!.server).toBeGreaterThan(0);
  });
  it('scores a server by the best contribution of its tools to each query term, summed', () => {
    // docs 0, 1 on server 0 (one term each); doc 2 on server 1 (both terms, but weaker).
    const bm = buildBm25Index(
      [
        { name: ['alpha'], description: [], params: [], server: [] },
        { name: ['beta'], description: [], params: [], server: [] },
        { name: [], description: ['alpha', 'beta'], params: [], server: [] },
      ],
      { k1: 1.2, b: 0, fields: { name: 4, description: 1, params: 1, server: 1 } },
    );
    const g = groupServers(['a', 'a', 'b']);
    expect(g).toEqual({ of: Int32Array.from([0, 0, 1]), count: 2 });
    const s = deriveServerScores(bm, ['alpha', 'beta'], null, g.of, g.count, { bm25: 1, semantic: 1 });
    expect(s[0]).toBe(1);
    expect(s[1]).toBeGreaterThan(0);
    expect(s[1]).toBeLessThan(1);
    // Cosines: a server's semantic part is its best tool's min–max scaled cosine.
    const withSem = deriveServerScores(bm, [], Float32Array.from([0.1, 0.3, 0.9]), g.of, g.count, {
      bm25: 1,
      semantic: 2,
    });
    expect(Array.from(withSem).map((x) => Math.round(x * 1000) / 1000)).toEqual([0.5, 2]);
    expect(Array.from(deriveServerScores(bm, ['alpha'], null, new Int32Array(3), 1, { bm25: 1, semantic: 1 }))).toEqual(
      [0],
    );
  });
});

describe('semantic text', () => {
  it('keeps the lead of a long description (FirstP): whole sentences up to 40 words', () => {
    expect(leadPassage('Reads a file. Returns its text.')).toBe('Reads a file. Returns its text.');
    const long = `Reads a file from disk. ${'Then it does many other things with it. '.repeat(8)}`;
    // 5 + 4 × 8 words fit in 40; the fifth sentence would not.
    expect(leadPassage(long)).toBe(
      `Reads a file from disk. ${'Then it does many other things with it. '.repeat(4).trim()}`,
    );
    expect(leadPassage(`${'word '.repeat(60)}end.`).split(' ')).toHaveLength(40);
    // The sentence holding the word that is one too many is left out, whatever follows it.
    for (const tail of ['', ' six.', ' six. Seven eight.\n\nnine'])
      expect(leadPassage(`one two. three four five.${tail}`, 4)).toBe('one two.');
    expect(leadPassage('one two three four five. six', 4)).toBe('one two three four');
  });
  it('cuts Chinese descriptions too: a CJK character is half a word, and 。 ends a sentence without a space', () => {
    const first = '查询火车票的余票信息。'; // 10 characters: 5 words
    expect(leadPassage(`${first}${'返回所有车次的详细数据和价格。'.repeat(8)}`, 20)).toBe(
      `${first}${'返回所有车次的详细数据和价格。'.repeat(2)}`,
    );
    // One long sentence: cut at 40 words, i.e. 80 characters.
    expect(leadPassage('查'.repeat(200))).toBe('查'.repeat(80));
    expect(leadPassage('短句。第二句。')).toBe('短句。第二句。');
    // Kept sentences are joined by a space where the text had whitespace: two paragraphs do not become one run.
    expect(leadPassage(`第一段\n\n第二段\n\n${'长'.repeat(100)}`)).toBe('第一段 第二段');
    expect(leadPassage(`短句。第二句。${'长'.repeat(100)}`)).toBe('短句。第二句。');
  });
  it('includes parameter names and descriptions, so a tool can be found by what it takes', () => {
    const refs = refsOf({
      s: [
        {
          name: 'dispatch',
          description: 'Runs the action.',
          inputSchema: {
            type: 'object',
            properties: {
              recipient: { type: 'string', description: 'Email address of the person to write to' },
              subject: { type: 'string', description: 'Subject line of the email' },
            },
          },
        },
        {
          name: 'fetch_page',
          description: 'Download a web page.',
          inputSchema: { type: 'object', properties: { url: { type: 'string', description: 'Address of the page' } } },
        },
        {
          name: 'resize',
          description: 'Resize an image.',
          inputSchema: { type: 'object', properties: { width: { type: 'number', description: 'Width in pixels' } } },
        },
      ],
    });
    expect(semanticText(refs[0]!)).toBe(
      'dispatch Runs the action. recipient Email address of the person to write to subject Subject line of the email',
    );
    const first = (r: typeof refs): string | undefined =>
      rankTools(buildDiscoverIndex(r, { vectors }), 'send an email to my colleague', { engine: 'semantic', k: 3 })
        .results[0]?.id;
    expect(first(refs)).toBe('s.dispatch');
    // The same tool without its schema has nothing that says "email".
    const { inputSchema: _dropped, ...bare } = refs[0]!.tool;
    expect(first([{ ...refs[0]!, tool: bare }, ...refs.slice(1)])).not.toBe('s.dispatch');
  });
});

describe('multi-step intents (clause ranking)', () => {
  it('splits an intent into clauses at sentence ends, commas and step words, keeping paths whole', () => {
    expect(
      intentClauses('Fetch the page at https://example.com/a.html; then search files in /root/x.txt for TODO notes'),
    ).toEqual(['Fetch the page at https://example.com/a.html', 'search files in /root/x.txt for TODO notes']);
    expect(intentClauses('read a file')).toEqual(['read a file']);
    expect(intentClauses('Beat tracking, MFCC extraction, and chroma CQT.')).toEqual([
      'Beat tracking',
      'MFCC extraction',
      'chroma CQT',
    ]);
  });
  it('puts the tool of each step at the top and explains the clause signal', () => {
    const intent =
      'Check whether it will rain in Paris tomorrow, and then open a bug report on github about the flaky deploy';
    const r = rankTools(index, intent, { engine: 'hybrid', k: 2 }).results;
    expect(r.map((x) => x.id).sort()).toEqual(['github.create_issue', 'weather.get_forecast']);
    // The re-ranker may move the first tool: its `rerank` reason is the move, and the reasons still sum up.
    expect(Object.keys(r[0]!.reasons!).filter((k) => k !== 'rerank')).toEqual([
      'bm25',
      'semantic',
      'usage',
      'clauses',
      'server',
    ]);
    const sum = Object.values(r[0]!.reasons!).reduce((a, b) => a + b, 0);
    expect(r[0]!.score).toBeCloseTo(sum, 3);
    // Clause ranking off: no clause signal, and a different score.
    const off = rankTools(index, intent, {
      engine: 'hybrid',
      k: 2,
      weights: { fusion: { clauses: 0, clauseSemantic: 0, server: 0 } },
      rerank: false,
    }).results;
    expect(Object.keys(off[0]!.reasons!)).toEqual(['bm25', 'semantic', 'usage']);
  });
});

describe('patterns', () => {
  it('excludes, pins and boosts by regex on tool ids', () => {
    const rules = [
      { match: '^files\\.read', exclude: true },
      { match: '^weather\\.', pin: true },
      { match: 'write_file$', boost: 5 },
    ];
    const r = rankTools(index, 'read a file', { engine: 'hybrid', k: 3, patterns: { rules } }).results;
    expect(r.map((x) => x.id)).not.toContain('files.read_file');
    expect(r[0]).toMatchObject({ id: 'weather.get_forecast', pinned: true });
    expect(r[1]?.id).toBe('files.write_file');
    expect(r[1]?.reasons?.pattern).toBe(5);
  });
  it('offers only matching tools in allow-list mode', () => {
    const r = rankTools(index, 'read a file', {
      engine: 'bm25',
      k: 5,
      patterns: { rules: [{ match: '^github\\.' }], allowList: true },
    });
    expect(r.results.every((x) => x.server === 'github')).toBe(true);
  });
});

describe('task context', () => {
  it('classifies intents as the usage note does', () => {
    expect(detectTaskContext('read the config file').type).toBe('file_operation');
    expect(detectTaskContext('fetch the API status').type).toBe('web_request');
    expect(detectTaskContext('convert this csv').type).toBe('data_processing');
    expect(detectTaskContext('schedule a nightly job').type).toBe('automation');
    expect(detectTaskContext('tell me a joke').type).toBe('other');
    expect(detectTaskContext('fetch the API status').keywords.slice(0, 2)).toEqual(['api', 'request']);
  });
});

describe('weights', () => {
  it('overlays numeric user weights on the defaults and ignores the rest', () => {
    const w = resolveWeights({ fusion: { semantic: 0.5, bogus: 3 }, bm25: { fields: { name: 'x' } } });
    expect(w.fusion).toEqual({ ...DEFAULT_WEIGHTS.fusion, semantic: 0.5 });
    expect(w.bm25.fields.name).toBe(DEFAULT_WEIGHTS.bm25.fields.name);
  });
});

describe('evaluateRankings', () => {
  it('computes recall, MRR and nDCG@10', () => {
    const m = evaluateRankings(
      [
        { intent: 'a', expected: ['x'] },
        { intent: 'b', expected: ['y', 'z'] },
      ],
      (q) => (q === 'a' ? ['w', 'x'] : ['y', 'q', 'q', 'z']),
      [1, 3],
    );
    expect(m.recallAt).toEqual({ '1': 0.25, '3': 1 });
    expect(m.mrr).toBeCloseTo((1 / 2 + 1) / 2, 10);
    const ndcgB = (1 + 1 / Math.log2(4)) / (1 + 1 / Math.log2(3));
    expect(m.ndcg10).toBeCloseTo((1 / Math.log2(3) + ndcgB) / 2, 10);
  });
});

describe('pairedBootstrap', () => {
  // Per-case scores of two rankers: b is a plus 0.1 on half the cases, a plus 0 elsewhere, with noise in both.
  const a = Array.from({ length: 100 }, (_, i) => ((i * 37) % 11) / 10);
  const b = a.map((x, i) => x - (i % 2 === 0 ? 0.2 : 0));

  it('gives the mean difference and a 95 % interval around it that the same seed reproduces', () => {
    const d = pairedBootstrap(a, b, seededRandom(1));
    expect(d.mean).toBeCloseTo(0.1, 10);
    expect(d.low).toBeLessThan(0.1);
    expect(d.high).toBeGreaterThan(0.1);
    // Half the differences are 0.2, half 0: the mean of 100 draws has a standard deviation of 0.01, so the
    // interval is about ±0.02 wide.
    expect(d.low).toBeGreaterThan(0.06);
    expect(d.high).toBeLessThan(0.14);
    expect(pairedBootstrap(a, b, seededRandom(1))).toEqual(d);
  });

  it('narrows with more cases and collapses when every case differs by the same amount', () => {
    const wide = pairedBootstrap(a, b, seededRandom(2));
    const narrow = pairedBootstrap([...a, ...a, ...a, ...a], [...b, ...b, ...b, ...b], seededRandom(2));
    expect(narrow.high - narrow.low).toBeLessThan(0.7 * (wide.high - wide.low));
    const same = pairedBootstrap(
      a,
      a.map((x) => x - 0.05),
      seededRandom(3),
    );
    expect(same.low).toBeCloseTo(0.05, 10);
    expect(same.high).toBeCloseTo(0.05, 10);
  });

  it('refuses score lists of different lengths', () => {
    expect(() => pairedBootstrap([1, 2], [1], seededRandom(1))).toThrow(/2 scores against 1/);
  });
});

describe('word vectors', () => {
  it('round-trips the binary table with int8 quantisation', () => {
    const buf = encodeWordVectors(
      [
        { word: 'alpha', rank: 3, vector: [0.5, -1, 0.25] },
        { word: 'beta', rank: 9, vector: [0, 0, 2] },
      ],
      3,
    );
    const v = parseWordVectors(buf);
    expect([...v.index.keys()]).toEqual(['alpha', 'beta']);
    expect(v.ranks[1]).toBe(9);
    expect(v.data[0]! * v.scales[0]!).toBeCloseTo(0.5, 2);
    expect(v.data[1]! * v.scales[0]!).toBeCloseTo(-1, 2);
  });
  it('falls back to the most frequent table word with the same stem', () => {
    const rows = ['connect', 'connection', 'files', 'filed'].map((word, i) => ({
      word,
      rank: [5, 2, 1, 9][i]!,
      vector: [i, 1, 0],
    }));
    const v = parseWordVectors(encodeWordVectors(rows, 3));
    expect(lookupWord(v, 'connecting')).toBe(1);
    expect(lookupWord(v, 'file')).toBe(2);
    expect(lookupWord(v, 'connect')).toBe(0);
    expect(lookupWord(v, 'zzzz')).toBeUndefined();
    expect(lookupWord(v, '搜索')).toBeUndefined();
  });
  it('ships a table with the vocabulary tool descriptions use', () => {
    expect(vectors.dims).toBe(128);
    for (const w of ['file', 'weather', 'forecast', 'repository', 'search']) expect(vectors.index.has(w)).toBe(true);
  });
  it('knows every word the engine adds to an intent that names a file', () => {
    const kinds = fileKindVocabulary();
    expect(kinds).toContain('spreadsheet');
    expect(kinds.filter((w) => lookupWord(vectors, w) === undefined)).toEqual([]);
  });
});

describe('parseLabelledIntents', () => {
  it('reads one intent per line and names the bad line', () => {
    expect(parseLabelledIntents('{"intent":"a","expected":["s.t"]}\n\n', 'q.jsonl')).toEqual([
      { intent: 'a', expected: ['s.t'] },
    ]);
    expect(() => parseLabelledIntents('{"intent":"a","expected":["s.t"]}\n{"intent":1}', 'q.jsonl')).toThrow(
      /q\.jsonl.*line 2/,
    );
  });
});

describe('semantic index cache bytes', () => {
  it('round-trips a finished index and rejects one of another size', () => {
    const sem = index.semantic!;
    const back = decodeSemanticIndex(encodeSemanticIndex(sem), sem.size, sem.dims)!;
    expect([...back.matrix]).toEqual([...sem.matrix]);
    expect([...back.common!]).toEqual([...sem.common!]);
    expect(decodeSemanticIndex(encodeSemanticIndex(sem), sem.size + 1, sem.dims)).toBeNull();
    const cached = buildDiscoverIndex(tools, { vectors, semantic: back });
    expect(rankTools(cached, 'will it be sunny in Paris tomorrow', { engine: 'hybrid', k: 3 })).toEqual(
      rankTools(index, 'will it be sunny in Paris tomorrow', { engine: 'hybrid', k: 3 }),
    );
  });
});

describe('index cache bytes', () => {
  it('restores both indexes so rankings are unchanged, and analyses fields only on demand', () => {
    const parts = decodeIndexCache(encodeIndexCache(index), tools.length, vectors.dims)!;
    expect(parts.semantic).toBeDefined();
    const cached = buildDiscoverIndex(tools, { vectors, ...parts });
    for (const engine of ['bm25', 'hybrid'] as const) {
      expect(rankTools(cached, 'list the pull requests', { engine, k: 3 })).toEqual(
        rankTools(index, 'list the pull requests', { engine, k: 3 }),
      );
    }
    expect(cached.fields).toEqual(index.fields);
    expect(rankTools(cached, 'read a file', { engine: 'bm25', k: 2, weights: { bm25: { k1: 0.9 } } })).toEqual(
      rankTools(index, 'read a file', { engine: 'bm25', k: 2, weights: { bm25: { k1: 0.9 } } }),
    );
    expect(decodeIndexCache(encodeIndexCache(index), tools.length + 1, vectors.dims)).toBeNull();
  });
  it('keys the cache by the tools, the BM25 weights and the table', () => {
    const key = indexCacheKey(tools, vectors);
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    expect(indexCacheKey(tools, vectors)).toBe(key);
    expect(indexCacheKey(tools, vectors, { bm25: { k1: 1 } })).not.toBe(key);
    expect(indexCacheKey(tools, undefined)).not.toBe(key);
    const edited = tools.map((t, i) =>
      i === 0 ? { ...t, tool: { ...t.tool, description: `${t.tool.description ?? ''}!` } } : t,
    );
    expect(indexCacheKey(edited, vectors)).not.toBe(key);
  });
});

describe('topN', () => {
  it('returns every doc scoring at least the n-th best, in index order', () => {
    const scores = Float32Array.from([3, 9, 1, 9, 4, 7, 0, 7]);
    expect([...topN(scores, 3)]).toEqual([1, 3, 5, 7]);
    expect([...topN(scores, 1)]).toEqual([1, 3]);
    expect([...topN(scores, 8)]).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('selects as a full sort would on large dense, sparse and tied scores (at most 4n docs)', () => {
    const next = seededRandom(11);
    const bySort = (scores: Float32Array, n: number): number[] => {
      const threshold = [...scores].sort((a, b) => b - a)[n - 1]!;
      return [...scores.keys()].filter((i) => scores[i]! >= threshold).slice(0, 4 * n);
    };
    const sets = {
      dense: Float32Array.from({ length: 30_000 }, () => next() * 2 - 1),
      sparse: Float32Array.from({ length: 30_000 }, () => (next() < 0.03 ? next() * 9 : 0)),
      tied: Float32Array.from({ length: 30_000 }, () => Math.floor(next() * 5) / 4),
      skewed: Float32Array.from({ length: 30_000 }, () => next() ** 40),
    };
    for (const [name, scores] of Object.entries(sets))
      for (const n of [1, 7, 600, 2048])
        expect({ name, n, docs: [...topN(scores, n)] }).toEqual({ name, n, docs: bySort(scores, n) });
    // Fewer than n docs above the minimum: every doc scores at least the n-th best, the first 4n are returned.
    expect([...topN(sets.sparse, 20_000)]).toEqual([...sets.sparse.keys()].slice(0, 30_000));
  });
});

describe('unionSorted', () => {
  it('merges ascending lists into one ascending list, each doc once', () => {
    const lists = [Int32Array.from([1, 4, 9]), Int32Array.from([0, 4, 10, 11]), Int32Array.from([]), [4, 9, 12]];
    expect([...unionSorted(lists)]).toEqual([0, 1, 4, 9, 10, 11, 12]);
    expect([...unionSorted([])]).toEqual([]);
  });
});

describe('scoreSketch', () => {
  it('gives every tool the same sketch score as dot() on its 32-wide row, and the bound above it', () => {
    const next = seededRandom(5);
    const size = 300;
    const dims = 40;
    // A basis that keeps the first 32 coordinates: the query's projection is its first 32 values.
    const basis = new Float32Array(32 * dims);
    for (let k = 0; k < 32; k++) basis[k * dims + k] = 1;
    const rows = Float32Array.from({ length: size * 32 }, () => next() - 0.5);
    const residual = Float32Array.from({ length: size }, () => next());
    const index = {
      dims,
      size,
      matrix: new Float32Array(size * dims),
      common: null,
      sketch: { dims: 32, basis, rows, residual },
    };
    const q = Float32Array.from({ length: dims }, () => next() - 0.5);
    const out = new Float32Array(size);
    const bound = new Float32Array(size);
    scoreSketch(index, q, out, bound);
    const head = q.slice(0, 32);
    const expected = Float32Array.from({ length: size }, (_, i) => dot(rows, i * 32, head, 32));
    expect(out).toEqual(expected);
    let rest = 0;
    for (let d = 32; d < dims; d++) rest += q[d]! ** 2;
    for (let i = 0; i < size; i++) expect(bound[i]).toBeCloseTo(out[i]! + Math.sqrt(rest) * residual[i]!, 5);
  });
});

describe('large index (sketch, then exact cosines for candidates)', () => {
  // The fixture tools among enough filler tools that the semantic engine scores a sketch first.
  const words = [
    'inventory',
    'invoice',
    'ledger',
    'payroll',
    'warehouse',
    'shipment',
    'customer',
    'vendor',
    'budget',
    'audit',
    'contract',
    'employee',
  ];
  const filler = Array.from({ length: SKETCH_MIN_TOOLS }, (_, i) => ({
    id: `erp.tool_${i}`,
    server: 'erp',
    tool: {
      name: `tool_${i}`,
      description: `Manage the ${words[i % 12]} ${words[(i * 7 + 3) % 12]} records of the ${words[(i * 5 + 1) % 12]} system.`,
    },
  }));
  const big = buildDiscoverIndex([...tools, ...filler], { vectors });
  it('builds a sketch and still puts the known right tool first', () => {
    expect(big.semantic?.sketch).toBeDefined();
    expect(rankTools(big, 'will it be sunny in Paris tomorrow', { engine: 'semantic', k: 3 }).results[0]?.id).toBe(
      'weather.get_forecast',
    );
    expect(rankTools(big, 'will it be sunny in Paris tomorrow', { engine: 'hybrid', k: 3 }).results[0]?.id).toBe(
      'weather.get_forecast',
    );
    expect(rankTools(big, 'open a bug report on github', { engine: 'hybrid', k: 3 }).results[0]?.id).toBe(
      'github.create_issue',
    );
  });
  it("bounds every tool's cosine from above, so a tool unlike the many the sketch was fitted to stays a candidate", () => {
    const sem = big.semantic!;
    const q = queryVector(sem, sentenceVector(vectors, 'will it be sunny in Paris tomorrow')!);
    const approx = new Float32Array(sem.size);
    const bound = new Float32Array(sem.size);
    const exact = new Float32Array(sem.size);
    scoreSketch(sem, q, approx, bound);
    scoreSemantic(sem, q, exact);
    let violations = 0;
    for (let i = 0; i < sem.size; i++) if (bound[i]! < exact[i]! - 1e-3) violations++;
    expect(violations).toBe(0);
    // The filler dominates the sketch: the forecast tool's sketch score is far below its cosine, its bound is not.
    const at = big.tools.findIndex((t) => t.id === 'weather.get_forecast');
    expect(approx[at]!).toBeLessThan(exact[at]! - 0.1);
    expect(bound[at]!).toBeGreaterThanOrEqual(exact[at]! - 1e-3);
  });
});

describe('Chinese glossary (CC-CEDICT)', () => {
  // Tools described only in Chinese, beside English ones (as on LiveMCPBench's trends-hub and 12306 servers).
  const catalogue: ToolRef[] = [
    { id: 'trends.get_rank_a', server: 'trends', tool: { name: 'get_rank_a', description: '获取微信读书排行榜' } },
    { id: 'trends.get_rank_b', server: 'trends', tool: { name: 'get_rank_b', description: '获取今日头条热榜' } },
    { id: 'rail.query_b', server: 'rail', tool: { name: 'query_b', description: '查询火车票余票信息' } },
    {
      id: 'books.list_shelf',
      server: 'books',
      tool: { name: 'list_shelf', description: 'List the books on your shelf.' },
    },
    {
      id: 'travel.search_train_tickets',
      server: 'travel',
      tool: { name: 'search_train_tickets', description: 'Search available train tickets between two stations.' },
    },
    {
      id: 'travel.search_flights',
      server: 'travel',
      tool: { name: 'search_flights', description: 'Search flights between two airports.' },
    },
  ];
  const ranked = (intent: string, engine: 'bm25' | 'hybrid'): string[] =>
    rankTools(buildDiscoverIndex(catalogue, { vectors }), intent, { engine, k: 3 }).results.map((r) => r.id);

  it('glosses Han runs by their longest dictionary words', () => {
    expect(glossHan('获取微信读书排行榜')).toEqual(
      expect.arrayContaining(['get', 'wechat', 'read', 'book', 'ranking']),
    );
    expect(glossHan('火车票')).toContain('train');
    expect(glossHan('ひらがな')).toEqual([]);
  });

  it('lets an English intent find a tool described only in Chinese, and a Chinese intent an English tool', () => {
    expect(ranked('WeChat reading charts', 'bm25')[0]).toBe('trends.get_rank_a');
    expect(ranked('WeChat reading charts', 'hybrid')[0]).toBe('trends.get_rank_a');
    // The Chinese tool shares the intent's characters; the English one its glosses, ahead of the flights tool.
    for (const engine of ['bm25', 'hybrid'] as const) {
      expect(ranked('查询火车票', engine).slice(0, 2).sort()).toEqual(['rail.query_b', 'travel.search_train_tickets']);
    }
  });

  it('is read lazily, and without the file Chinese text only matches Chinese text', () => {
    try {
      setGlossaryFile(null);
      expect(splitWords('必应搜索')).toEqual(['必应搜索']);
      // Nothing matches: the every-tool fallback; the Chinese intent matches the Chinese tool only.
      expect(
        rankTools(buildDiscoverIndex(catalogue, { vectors }), 'WeChat reading charts', { engine: 'bm25', k: 3 })
          .fallback,
      ).toBe(true);
      expect(ranked('查询火车票', 'bm25')).toEqual(['rail.query_b']);
    } finally {
      setGlossaryFile(defaultGlossaryFile());
    }
    expect(splitWords('必应搜索')).toEqual(['必应搜索', 'bing', 'search']);
  });
});

describe('file kinds in intents', () => {
  it('names the kind of each file an intent names, and nothing for decimals or abbreviations', () => {
    expect(fileKindWords('save it as /root/out/deck.pptx, with data.csv')).toBe(
      'powerpoint presentation slides csv table spreadsheet',
    );
    expect(fileKindWords('version 3.5, e.g. the next one')).toBe('');
    expect(fileKindWords('no file here')).toBe('');
  });

  it('ranks the tool for the kind of file the intent names first', () => {
    const office: ToolRef[] = [
      {
        id: 'word.add_paragraph',
        server: 'word',
        tool: { name: 'add_paragraph', description: 'Add a paragraph to a Word document.' },
      },
      {
        id: 'ppt.add_slide',
        server: 'ppt',
        tool: { name: 'add_slide', description: 'Add a slide to a PowerPoint presentation.' },
      },
      {
        id: 'excel.write_data',
        server: 'excel',
        tool: { name: 'write_data', description: 'Write rows of data to an Excel spreadsheet.' },
      },
    ];
    const idx = buildDiscoverIndex(office, { vectors });
    const first = (intent: string): string | undefined =>
      rankTools(idx, intent, { engine: 'bm25', k: 3 }).results[0]?.id;
    expect(first('add the quarterly summary to q3-review.pptx')).toBe('ppt.add_slide');
    expect(first('add the quarterly summary to q3-review.docx')).toBe('word.add_paragraph');
    expect(first('add the quarterly figures to q3-review.xlsx')).toBe('excel.write_data');
  });
});

describe('encoded blobs in intents', () => {
  // 3 KB of deterministic pseudo-random bytes as base64, as a pasted image would be.
  const bytes = new Uint8Array(3000);
  for (let i = 0, x = 12345; i < bytes.length; i++) bytes[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  const blob = Buffer.from(bytes).toString('base64');
  const plain = 'What does this base64 image show? Describe the picture.';
  const pasted = `${plain}\n${blob}`;

  it('drops runs of base64 with digits and both cases, and keeps long paths and words', () => {
    expect(withoutBlobs(pasted).trim()).toBe(plain);
    expect(queryTerms(pasted)).toEqual(queryTerms(plain));
    expect(intentWords(pasted)).toEqual(intentWords(plain));
    const path = `/srv/${'archive/'.repeat(15)}report`; // 100+ characters, but no digits or capitals
    expect(withoutBlobs(`read ${path}`)).toBe(`read ${path}`);
  });

  it('ranks as if the blob were not there, for every engine', () => {
    for (const engine of ['keyword', 'bm25', 'semantic', 'hybrid'] as const) {
      expect(rankTools(index, pasted, { engine, k: 5 }).results).toEqual(
        rankTools(index, plain, { engine, k: 5 }).results,
      );
    }
  });
});
