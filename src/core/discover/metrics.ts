/** Ranking metrics shared by `discover --queries`, `replay` and the benchmarks. */

export interface RankingMetrics {
  cases: number;
  /** k → mean share of a case's expected items found in its top k. */
  recallAt: Record<string, number>;
  mrr: number;
  ndcg10: number;
}

/** Recall@k, MRR and nDCG@10 (binary gains) over labelled cases; `rank` returns ids best first. */
export function evaluateRankings(
  cases: { intent: string; expected: string[] }[],
  rank: (intent: string) => string[],
  ks: number[] = [1, 3, 5, 10],
): RankingMetrics {
  const recall = new Map<number, number>(ks.map((k) => [k, 0]));
  let mrr = 0;
  let ndcg = 0;
  let n = 0;
  for (const c of cases) {
    const relevant = new Set(c.expected);
    if (relevant.size === 0) continue;
    n++;
    const ranked = dedupe(rank(c.intent));
    for (const k of ks) {
      const hits = ranked.slice(0, k).filter((id) => relevant.has(id)).length;
      recall.set(k, recall.get(k)! + hits / relevant.size);
    }
    const first = ranked.findIndex((id) => relevant.has(id));
    if (first >= 0) mrr += 1 / (first + 1);
    let dcg = 0;
    ranked.slice(0, 10).forEach((id, i) => {
      if (relevant.has(id)) dcg += 1 / Math.log2(i + 2);
    });
    let ideal = 0;
    for (let i = 0; i < Math.min(relevant.size, 10); i++) ideal += 1 / Math.log2(i + 2);
    ndcg += dcg / ideal;
  }
  const d = Math.max(1, n);
  return {
    cases: n,
    recallAt: Object.fromEntries(ks.map((k) => [String(k), recall.get(k)! / d])),
    mrr: mrr / d,
    ndcg10: ndcg / d,
  };
}

function dedupe(ids: string[]): string[] {
  return [...new Set(ids)];
}

/** A mean difference between two rankers over the same cases, with its paired bootstrap interval. */
export interface PairedDifference {
  mean: number;
  /** The 2.5th and 97.5th percentiles of the resampled means: a 95 % interval. */
  low: number;
  high: number;
}

/**
 * Paired bootstrap of mean(a − b), where a[i] and b[i] are two rankers' scores on case i: cases are drawn
 * with replacement `resamples` times using `random` (give a seeded one, e.g. session/tune.ts seededRandom, and a
 * rerun on the same scores prints the same interval). Tells whether a gap between two rankers is larger than what
 * the choice of cases alone moves.
 */
export function pairedBootstrap(
  a: readonly number[],
  b: readonly number[],
  random: () => number,
  resamples = 10_000,
): PairedDifference {
  if (a.length !== b.length) throw new Error(`pairedBootstrap: ${a.length} scores against ${b.length}`);
  const n = a.length;
  if (n === 0) return { mean: 0, low: 0, high: 0 };
  const d = Float64Array.from(a, (x, i) => x - b[i]!);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += d[Math.floor(random() * n)]!;
    means[r] = sum / n;
  }
  means.sort();
  return {
    mean: d.reduce((s, x) => s + x, 0) / n,
    low: means[Math.floor(0.025 * (resamples - 1))]!,
    high: means[Math.ceil(0.975 * (resamples - 1))]!,
  };
}

/** How many missed intents an evaluation lists. */
export const MAX_MISSES_LISTED = 20;

export interface EvaluationMisses {
  /** Intents none of whose expected ids is in their top k, in file order (the first MAX_MISSES_LISTED). */
  misses: { intent: string; expected: string[]; top: string[] }[];
  missCount: number;
  /** Expected ids that are not among the known tools (a typo scores 0 silently otherwise), sorted. */
  unknownExpected: string[];
}

/** What `discover --queries` and `check --queries` report beside the metrics: the misses and the unknown ids. */
export function evaluationMisses(
  cases: readonly { intent: string; expected: string[] }[],
  ranked: ReadonlyMap<string, readonly string[]>,
  k: number,
  knownIds: ReadonlySet<string>,
): EvaluationMisses {
  const unknownExpected = [...new Set(cases.flatMap((c) => c.expected).filter((id) => !knownIds.has(id)))].sort();
  const missed = cases.filter((c) => {
    const top = (ranked.get(c.intent) ?? []).slice(0, k);
    return c.expected.length > 0 && !c.expected.some((id) => top.includes(id));
  });
  return {
    missCount: missed.length,
    misses: missed.slice(0, MAX_MISSES_LISTED).map((c) => ({
      intent: c.intent,
      expected: c.expected,
      top: (ranked.get(c.intent) ?? []).slice(0, 3),
    })),
    unknownExpected,
  };
}
