/** The usage store as every ranking reads it (discover, budget; serve and replay use the same core rule). */
import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SmartError } from '../errors.js';
import type { UsageStats } from '../types.js';

export interface RankingUsage {
  /** Capped and decayed relative to the store's newest recording (core's loadUsageStats). */
  usage: UsageStats;
  /** That newest recording's time: rank with it as `now`, so recency is measured as memory is. */
  reference: number;
}

/**
 * Usage from `--store` (relative to `cwd`), else from the default store when one exists; undefined when there is
 * none. A `--store` that does not exist is FILE_NOT_FOUND unless `missingStore` is 'tolerate' (then undefined).
 */
export async function readRankingUsage(opts: {
  store: string | undefined;
  defaultStore: string;
  now: number;
  cwd: string;
  warn: (warning: string) => void;
  missingStore?: 'error' | 'tolerate';
}): Promise<RankingUsage | undefined> {
  const { store } = opts;
  const file = store ? resolve(opts.cwd, store) : opts.defaultStore;
  // The store module, with its file locking, is imported only when a store exists, to keep the cold start short.
  try {
    await access(file);
  } catch (e) {
    if (store && opts.missingStore !== 'tolerate')
      throw new SmartError(
        'FILE_NOT_FOUND',
        {
          file: store,
          hint: 'Pass an existing usage store, or learn one with: mcp-smart replay <recordings> --learn --store <file>',
        },
        { cause: e },
      );
    return undefined;
  }
  const { loadUsageStats } = await import('../core/session/usage-store.js');
  const { stats, warnings, reference, missing } = await loadUsageStats(file, opts.now);
  warnings.forEach(opts.warn);
  return missing ? undefined : { usage: stats, reference };
}
