/**
 * The discover index cache on disk (cache folder `discover-index/`), shared by `discover` and serve's find_tool: one
 * file per key (indexCacheKey or snapshotIndexKey), sealed with that key and a hash of its bytes (index-cache.ts),
 * written atomically (safe-write.ts). A file that is missing, unreadable, sealed under another key or altered is
 * not trusted: the index is built again and the file replaced.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildDiscoverIndex,
  decodeIndexCache,
  encodeIndexCacheSource,
  openIndexCache,
  sealIndexCacheSource,
  type BuildOptions,
  type DiscoverIndex,
} from '../../core/discover/engine.js';
import type { ToolRef } from '../../core/types.js';
import { writeFileSafe } from '../../process/safe-write.js';

/** The cache file of an index key. */
export function indexCacheFile(cacheDir: string, key: string): string {
  return join(cacheDir, 'discover-index', `${key}.bin`);
}

/**
 * The indexes of an earlier run on the same tools (keyed by a hash of them); undefined when absent, unreadable,
 * sealed under another key or altered.
 */
export function readIndexCache(
  file: string,
  key: string,
  size: number,
  dims: number | undefined,
): ReturnType<typeof decodeIndexCache> | undefined {
  try {
    // One read call: the file is megabytes, which fs/promises reads in 512 KiB thread-pool steps.
    const payload = openIndexCache(key, readFileSync(file));
    return (payload && decodeIndexCache(payload, size, dims)) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Best effort: a failed write costs the next run its build time, nothing else. */
export async function writeIndexCache(file: string, key: string, index: DiscoverIndex): Promise<void> {
  await writeFileSafe(file, sealIndexCacheSource(key, encodeIndexCacheSource(index))).catch(() => undefined);
}

/** An index read back from the cache file of `key`, or built; `store` writes a built one (a no-op for a read one). */
export interface CachedIndex {
  index: DiscoverIndex;
  /** True when the BM25 and semantic indexes came from the cache file. */
  fromCache: boolean;
  store: () => Promise<void>;
}

/**
 * The index of `tools` (BuildOptions without cached parts), its BM25 and semantic parts read from the cache file of
 * `key` under `cacheDir` when it holds them; no cache when either is undefined (--no-cache).
 */
export function indexThroughCache(
  tools: ToolRef[],
  opts: BuildOptions,
  cacheDir: string | undefined,
  key: string | undefined,
): CachedIndex {
  const file = cacheDir !== undefined && key !== undefined ? indexCacheFile(cacheDir, key) : undefined;
  const cached = file && key ? readIndexCache(file, key, tools.length, opts.vectors?.dims) : undefined;
  const index = buildDiscoverIndex(tools, { ...opts, ...cached });
  const store = async (): Promise<void> => {
    if (file && key && !cached) await writeIndexCache(file, key, index);
  };
  return { index, fromCache: cached !== undefined, store };
}
