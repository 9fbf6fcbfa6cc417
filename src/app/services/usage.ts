/** The usage store as every ranking reads it (discover, budget, check; serve and replay use the same core rule). */
import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isPostgresUrl } from '../../core/store/url.js';
import { SmartError } from '../../process/errors.js';
import type { UsageStats } from '../../core/types.js';
import { chosenStore, openUsageStore } from './store.js';

export interface RankingUsage {
  /** Capped and decayed relative to the store's newest recording (core's usageForRanking). */
  usage: UsageStats;
  /** That newest recording's time: rank with it as `now`, so recency is measured as memory is. */
  reference: number;
}

/**
 * Usage from `--store` (a file relative to `cwd`, or a PostgreSQL URL), else the config's `store`, else the default
 * store when one exists; undefined when there is none or it is empty. A `--store` file that does not exist is
 * FILE_NOT_FOUND unless `missingStore` is 'tolerate' (then undefined); an unreachable database is STORE_UNREACHABLE.
 */
export async function readRankingUsage(opts: {
  store: string | undefined;
  configStore?: string | undefined;
  defaultStore: string;
  now: number;
  cwd: string;
  env?: Readonly<Record<string, string | undefined>>;
  warn: (warning: string) => void;
  missingStore?: 'error' | 'tolerate';
}): Promise<RankingUsage | undefined> {
  const chosen = chosenStore(opts.store, opts.configStore);
  if (!chosen || !isPostgresUrl(chosen.spec)) {
    const file = chosen ? resolve(opts.cwd, chosen.spec) : opts.defaultStore;
    // The store module, with its file locking, is imported only when a store exists, to keep the cold start short.
    try {
      await access(file);
    } catch (e) {
      if (chosen && opts.missingStore !== 'tolerate')
        throw new SmartError(
          'FILE_NOT_FOUND',
          {
            file: chosen.spec,
            hint: 'Pass an existing usage store, or learn one with: mcp-smart replay <recordings> --learn --store <file>',
          },
          { cause: e },
        );
      return undefined;
    }
  }
  const store = await openUsageStore(chosen, { cwd: opts.cwd, env: opts.env ?? {}, defaultFile: opts.defaultStore });
  try {
    const { usageForRanking, usageOfDoc } = await import('../../core/session/usage-store.js');
    const { doc, warnings, missing } = await store.read(opts.now);
    warnings.forEach(opts.warn);
    if (missing) return undefined;
    const { stats, reference } = usageForRanking(usageOfDoc(doc), opts.now);
    return { usage: stats, reference };
  } finally {
    await store.close();
  }
}
