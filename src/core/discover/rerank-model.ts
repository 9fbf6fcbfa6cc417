/** Written by scripts/train-reranker.mjs (2962 development queries): do not edit by hand. */
import type { RerankModel } from './rerank.js';

export const RERANK_MODEL: RerankModel | false = {
  features: [
    'hybrid',
    'bm25',
    'semantic',
    'server',
    'nameCover',
    'queryCover',
    'nameVerb',
    'nameObject',
    'verbConflict',
    'destructiveConflict',
    'firstRank',
    'descriptionCover',
    'paramsCover',
    'serverCover',
    'bm25Rank',
    'semanticRank',
    'agreement',
    'nameSemantic',
    'leadSemantic',
    'nameSoft',
    'querySoft',
    'contrast',
  ],
  weights: [
    1.3468, 1.6847, -0.0077, 0.4318, 0.3614, 1.2196, -0.2177, -0.727, -0.3954, -0.4651, 0.191, 1.2977, 0.4755, -0.1344,
    0.1701, 0.2357, 0.3079, 0.5308, 1.7016, 1.2164, 1.4153, 1.2625,
  ],
  depth: 10,
  mode: 'order',
};
