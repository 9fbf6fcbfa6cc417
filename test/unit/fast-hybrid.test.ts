import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildDiscoverIndex,
  loadWordVectors,
  rankTools,
  resolveWeights,
  toolRefsFromSnapshots,
} from '../../src/core/discover/index.js';
import { createHybridEvaluator, type TrainItem } from '../../src/core/session/fast-hybrid.js';
import type { ServerSnapshot } from '../../src/types.js';
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
