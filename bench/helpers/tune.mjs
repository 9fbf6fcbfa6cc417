// Grid search of the hybrid weights on the MetaTool tuning split only (never on LiveMCPBench).
import { buildDiscoverIndex, evaluateRankings, rankTools } from '../../dist/core/discover/index.js';

export function tuneOnMetaTool(tools, cases, vectors) {
  const grid = [];
  for (const semantic of [0.25, 0.5, 0.75, 1, 1.5])
    for (const name of [1, 2, 3, 5])
      for (const k1 of [0.9, 1.2, 1.6])
        for (const b of [0.5, 0.75]) grid.push({ fusion: { semantic }, bm25: { k1, b, fields: { name } } });
  let best = null;
  const index = buildDiscoverIndex(tools, { vectors });
  for (const weights of grid) {
    const m = evaluateRankings(cases, (q) =>
      rankTools(index, q, { engine: 'hybrid', k: 10, weights }).results.map((r) => r.tool),
    );
    const score = m.recallAt['5'] + m.mrr;
    if (!best || score > best.score) best = { weights, score, metrics: m };
  }
  return { best, tried: grid.length };
}
