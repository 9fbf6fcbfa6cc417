/** Hybrid ranking over a setup's servers, as budget --intent and check --queries use it. */
import {
  buildDiscoverIndex,
  loadShippedWordVectors,
  patternsFromConfig,
  rankTools,
  toolRefsFromSnapshots,
} from '../core/discover/index.js';
import type { ServerSnapshot, SmartConfig } from '../types.js';

/** Ranks with hybrid discovery over the servers; the shipped word vectors when present. */
export async function hybridRanker(
  servers: ServerSnapshot[],
  config: SmartConfig,
): Promise<(intent: string, k: number) => string[]> {
  const vectors = await loadShippedWordVectors();
  const index = buildDiscoverIndex(toolRefsFromSnapshots(servers), {
    weights: config.weights,
    vectors,
    keywords: config.keywords,
  });
  const patterns = patternsFromConfig(config);
  return (intent, k) => rankTools(index, intent, { engine: 'hybrid', k, patterns }).results.map((r) => r.id);
}
