/** Written by scripts/train-reranker.mjs (2906 development queries): do not edit by hand. */
import type { RerankModel } from './rerank.js';

export const RERANK_MODEL: RerankModel | false = {
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
