// The re-ranker model shipped until 2026-11-24 (scripts/train-reranker.mjs --first, trained on MetaTool's tuning
// split, BFCL turns and LiveMCPBench against the first stage of that day). The shipped model is now off
// (src/core/discover/rerank-model.ts); the bench keeps measuring what a second stage costs and does with this one.
import { RERANK_MODEL } from '../../dist/core/discover/rerank-model.js';

export const LAST_RERANKER = {
  features: [
    'bm25',
    'semantic',
    'server',
    'nameCover',
    'nameObject',
    'verbConflict',
    'destructiveConflict',
    'paramsCover',
    'bm25Rank',
    'semanticRank',
    'agreement',
  ],
  weights: [2.3499, 1.4627, 0.4299, 0.7765, -0.5979, -0.4375, -0.2177, 0.1803, 0.4759, 0.1801, 1.004],
  depth: 20,
  mode: 'first',
};

/** The shipped model when there is one, else the last one trained. */
export const BENCH_RERANKER = RERANK_MODEL || LAST_RERANKER;
