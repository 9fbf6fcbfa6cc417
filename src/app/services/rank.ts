/** Hybrid ranking over a setup's servers, as budget --intent, check --queries and serve's find_tool use it. */
import {
  indexCacheKey,
  loadShippedWordVectors,
  patternsFromConfig,
  rankTools,
  toolRefsFromSnapshots,
  type DiscoverIndex,
} from '../../core/discover/engine.js';
import type { ServerSnapshot, SmartConfig } from '../../core/types.js';
import type { VisibilityRules } from '../../core/config/tool-filter.js';
import { indexThroughCache, type CachedIndex } from './index-file.js';
import type { RankingUsage } from './usage.js';

/**
 * The discover index of the servers' tools with the config's weights and keywords; the shipped word vectors when
 * present. With a cache folder its BM25 and semantic parts are read from discover's index cache, keyed by the tools
 * themselves (indexCacheKey), and a built one can be stored there (CachedIndex.store).
 */
export async function cachedHybridIndex(
  servers: ServerSnapshot[],
  config: SmartConfig,
  cacheDir: string | undefined,
  rules?: VisibilityRules,
): Promise<CachedIndex> {
  const vectors = await loadShippedWordVectors();
  // With the visibility rule: the tools serve serves, under its ids (what discover ranks).
  const tools = toolRefsFromSnapshots(servers, rules);
  const key = cacheDir !== undefined ? indexCacheKey(tools, vectors, config.weights) : undefined;
  return indexThroughCache(tools, { weights: config.weights, vectors, keywords: config.keywords }, cacheDir, key);
}

/** The discover index of the servers' tools with the config's weights and keywords; the shipped word vectors when present. */
export async function hybridIndex(
  servers: ServerSnapshot[],
  config: SmartConfig,
  rules?: VisibilityRules,
): Promise<DiscoverIndex> {
  return (await cachedHybridIndex(servers, config, undefined, rules)).index;
}

/** Ranks with hybrid discovery over the servers; the shipped word vectors when present; the usage store's prior when given. */
export async function hybridRanker(
  servers: ServerSnapshot[],
  config: SmartConfig,
  usage?: RankingUsage,
  rules?: VisibilityRules,
): Promise<(intent: string, k: number) => string[]> {
  const rank = await hybridRanking(servers, config, usage, rules);
  return (intent, k) => rank(intent, k).ids;
}

/** As hybridRanker, with whether nothing matched (the ids are then every tool, discover's fallback, not a ranking). */
export async function hybridRanking(
  servers: ServerSnapshot[],
  config: SmartConfig,
  usage?: RankingUsage,
  rules?: VisibilityRules,
): Promise<(intent: string, k: number) => { ids: string[]; fallback: boolean }> {
  const index = await hybridIndex(servers, config, rules);
  const patterns = patternsFromConfig(config);
  const prior = usage ? { usage: usage.usage, now: usage.reference } : {};
  return (intent, k) => {
    const { results, fallback } = rankTools(index, intent, { engine: 'hybrid', k, patterns, ...prior });
    return { ids: results.map((r) => r.id), fallback };
  };
}
