/** What `discover` returns: a ranking for one intent, or metrics over labelled intents. */
import type { EngineName } from '../../types.js';
import type { RankedTool } from './engine.js';
import type { RankingMetrics } from './metrics.js';

export interface DiscoverRanking {
  kind: 'ranking';
  intent: string;
  engine: EngineName;
  k: number;
  fallback: boolean;
  results: RankedTool[];
}

export interface DiscoverEvaluation extends RankingMetrics {
  kind: 'evaluation';
  queries: string;
  engine: EngineName;
  k: number;
}

export type DiscoverResult = DiscoverRanking | DiscoverEvaluation;
