/** Every per-user path a run needs, resolved once from the io edge (home, env, platform) and the cache flag. */
import { homedir } from 'node:os';
import { userCacheDir, usageStorePath, type PathEnv } from '../../core/paths.js';
import type { Io } from '../../process/io.js';

export interface SetupPaths {
  /** Home, env and platform, as core's path functions take them. */
  pathEnv: PathEnv;
  /** The user cache folder (tool lists, token counts, discover indexes, model vectors). */
  cacheDir: string;
  /** The cache folder when caching is on (`--no-cache` turns every cache off), else undefined. */
  activeCacheDir: string | undefined;
  /** The usage store `replay --learn` writes and `discover`/`budget` read by default. */
  usageStore: string;
}

/** Resolves the per-user paths of one run; call once and pass the result down. */
export function resolvePaths(io: Pick<Io, 'env' | 'platform'>, cache: boolean): SetupPaths {
  const pathEnv: PathEnv = { env: io.env, platform: io.platform, home: io.env.HOME || io.env.USERPROFILE || homedir() };
  const cacheDir = userCacheDir(pathEnv);
  return { pathEnv, cacheDir, activeCacheDir: cache ? cacheDir : undefined, usageStore: usageStorePath(pathEnv) };
}
