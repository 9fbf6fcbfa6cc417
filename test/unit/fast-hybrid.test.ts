import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildDiscoverIndex,
  loadWordVectors,
  rankTools,
  resolveWeights,
  toolRefsFromSnapshots,
} from '../../src/core/discover/index.js';
import { createHybridEvaluator, createHybridScorer, type TrainItem } from '../../src/core/session/fast-hybrid.js';
import type { ServerSnapshot } from '../../src/core/types.js';
import { fixture } from '../helpers/paths.js';

const servers = (
  JSON.parse(readFileSync(fixture('snapshots', 'discover-tools.json'), 'utf8')) as { servers: ServerSnapshot[] }
).servers;
const tools = toolRefsFromSnapshots(servers);
const index = buildDiscoverIndex(tools, { vectors: await loadWordVectors() });
const usage = {
  tools: { 'files.write_file': { success: 3, failure: 1, lastUsed: 5_000, categories: { file_operation: 3 } } },
};
const items: TrainItem[] = [
  ['read the contents of a file', ['files.read_file']],
  ['save text to disk', ['files.write_file']],
  ['what will the weather be in Oslo', ['weather.get_forecast']],
  ['open an issue about the crash', ['github.create_issue']],
  ['send a POST request to an API', ['web.http-request']],
  ['search the web in Chinese', ['bing-cn.bing_search']],
  ['list the pull requests and the folder contents', ['github.listPullRequests', 'files.list_directory']],
  // Ranked 3rd with no server share, 2nd with a strong one (its sibling listPullRequests matches best).
  ['github pull requests', ['github.create_issue']],
].map(([intent, expected]) => ({ intent: intent as string, expected: expected as string[], usage, time: 86_400_000 }));

/** MRR of the same items through rankTools (every tool ranked), the reference the evaluator must match. */
function referenceMrr(weights: ReturnType<typeof resolveWeights>): number {
  let rr = 0;
  for (const it of items) {
    const ids = rankTools(index, it.intent, {
      engine: 'hybrid',
      k: tools.length,
      weights,
      usage: it.usage,
      now: it.time,
      // The tuner scores the first stage (the fusion); the re-ranker after it is not tuned.
      rerank: false,
    }).results.map((r) => r.id);
    const first = ids.findIndex((id) => it.expected.includes(id));
    if (first >= 0) rr += 1 / (first + 1);
  }
  return rr / items.length;
}

describe('fast hybrid evaluator (replay --tune)', () => {
  const evaluate = createHybridEvaluator(index, items);
  const all = items.map((_, i) => i);
  // The evaluator does not model clause ranking: compare with it off.
  for (const server of [0, 0.5, 2]) {
    it(`matches rankTools' MRR with fusion.server ${server}`, () => {
      const w = resolveWeights({ fusion: { clauses: 0, clauseSemantic: 0, server, usage: 0.8 } });
      expect(evaluate(w, all)).toBeCloseTo(referenceMrr(w), 6);
    });
  }
  it('sees the server share change the ranking', () => {
    const off = resolveWeights({ fusion: { clauses: 0, clauseSemantic: 0, server: 0 } });
    const strong = resolveWeights({ fusion: { clauses: 0, clauseSemantic: 0, server: 3 } });
    expect(evaluate(strong, all)).not.toBeCloseTo(evaluate(off, all), 6);
  });
});

// One fusion: the tuner's fast path calls rankTools' signal and fusion functions over cached signals, so its
// scores are rankTools' scores, tool for tool (not just the same MRR), on a real catalogue.
describe('fast hybrid scorer gives rankTools scores on the LiveMCPBench slice', () => {
  type Slice = {
    name: string;
    tools: Record<string, { tools: { name: string; description?: string; inputSchema?: object }[] }>;
  }[];
  const slice = JSON.parse(readFileSync(fixture('livemcpbench', 'tools-slice.json'), 'utf8')) as Slice;
  const live = toolRefsFromSnapshots(
    slice.flatMap((s) =>
      Object.entries(s.tools).map(([name, entry]): ServerSnapshot => ({
        name,
        transport: 'stdio',
        status: 'ok',
        tools: entry.tools.map((t) => ({
          ...t,
          inputSchema: t.inputSchema as ServerSnapshot['tools'][0]['inputSchema'],
        })),
      })),
    ),
  );
  const liveIndex = buildDiscoverIndex(live, { vectors: index.vectors });
  const store = {
    tools: Object.fromEntries(
      live
        .slice(0, 40)
        .map((t, i) => [
          t.id,
          { success: 1 + (i % 4), failure: i % 3, lastUsed: 1_000 * i, categories: { web_request: i % 5, search: 2 } },
        ]),
    ),
  };
  const intents = [
    'search the web for news about electric cars',
    'read a local file and summarise it',
    'translate this text into French',
    'find the current price of bitcoin',
    'create a new calendar event tomorrow',
    'zzzz qqqq', // matches nothing: the usage prior alone
  ];
  const liveItems: TrainItem[] = intents.map((intent) => ({ intent, expected: [], usage: store, time: 86_400_000 }));
  const scorer = createHybridScorer(liveIndex, liveItems);
  for (const server of [0, 0.2, 1.5]) {
    it(`scores every tool as rankTools does (fusion.server ${server})`, () => {
      const w = resolveWeights({ fusion: { clauses: 0, clauseSemantic: 0, server, usage: 0.6 } });
      let compared = 0;
      liveItems.forEach((it, k) => {
        const fast = Float32Array.from(scorer.scores(w, k));
        const ranking = rankTools(liveIndex, it.intent, {
          engine: 'hybrid',
          k: live.length,
          weights: w,
          usage: it.usage,
          now: it.time,
          rerank: false,
        });
        const docOf = new Map(liveIndex.tools.map((t, i) => [t.id, i]));
        for (const r of ranking.results) {
          expect(Math.round(fast[docOf.get(r.id)!]! * 10000) / 10000).toBe(r.score);
          compared++;
        }
        if (!ranking.fallback) {
          // The same order: rankTools' tools sorted by the fast scores (ties by doc number). Tools whose score is
          // their server share alone are not offered by rankTools, so only its list is compared.
          const docs = ranking.results.map((r) => docOf.get(r.id)!);
          const order = [...docs].sort((a, b) => fast[b]! - fast[a]! || a - b);
          expect(order).toEqual(docs);
        }
      });
      expect(compared).toBeGreaterThan(live.length);
    });
  }
});
