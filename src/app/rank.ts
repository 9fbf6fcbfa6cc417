/** Hybrid ranking over a setup's servers, as budget --intent, check --queries and serve's find_tool use it. */
import {
  buildDiscoverIndex,
  loadShippedWordVectors,
  patternsFromConfig,
  rankTools,
  toolRefsFromSnapshots,
  type DiscoverIndex,
} from '../core/discover/engine.js';
import type { ServerSnapshot, SmartConfig } from '../types.js';
import type { RankingUsage } from './usage.js';

/** The discover index of the servers' tools with the config's weights and keywords; the shipped word vectors when present. */
export async function hybridIndex(servers: ServerSnapshot[], config: SmartConfig): Promise<DiscoverIndex> {
  const vectors = await loadShippedWordVectors();
  return buildDiscoverIndex(toolRefsFromSnapshots(servers), {
    weights: config.weights,
    vectors,
    keywords: config.keywords,
  });
}

/** Ranks with hybrid discovery over the servers; the shipped word vectors when present; the usage store's prior when given. */
export async function hybridRanker(
  servers: ServerSnapshot[],
  config: SmartConfig,
  usage?: RankingUsage,
): Promise<(intent: string, k: number) => string[]> {
  const index = await hybridIndex(servers, config);
  const patterns = patternsFromConfig(config);
  const prior = usage ? { usage: usage.usage, now: usage.reference } : {};
  return (intent, k) => rankTools(index, intent, { engine: 'hybrid', k, patterns, ...prior }).results.map((r) => r.id);
}
