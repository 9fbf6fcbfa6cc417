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
