// Rank-1 metrics of one ranking and the paired interval of a difference, as bench:discover --stages and
// scripts/train-reranker.mjs both print them.
import { pairedBootstrap } from '../../dist/core/discover/index.js';
import { seededRandom } from '../../dist/core/session/tune.js';

/** hit@1, hit@5 and reciprocal rank of a ranked list of labels against the expected ones (a Set). */
export function rankMetrics(names, expected) {
  const first = names.findIndex((n) => expected.has(n));
  return { h1: first === 0 ? 1 : 0, h5: first >= 0 && first < 5 ? 1 : 0, rr: first >= 0 ? 1 / (first + 1) : 0 };
}

/** "+0.015 [0.008, 0.022]": the mean of a − b over paired queries with its 95 % bootstrap interval (seed 1). */
export function pairedDelta(a, b) {
  const d = pairedBootstrap(a, b, seededRandom(1));
  const f3 = (x) => x.toFixed(3);
  return `${d.mean >= 0 ? '+' : ''}${f3(d.mean)} [${f3(d.low)}, ${f3(d.high)}]`;
}
