/** The setup loader moved to the application layer (src/app/setup.ts); these names keep older imports working. */
import { loadDefinitions as loadDefinitionsOf, loadSetup, type Setup, type SetupLoad } from '../app/setup.js';
import { resolvePaths } from '../app/paths.js';
import type { CommandContext } from '../app/context.js';
import type { DefinitionResult } from '../core/config/index.js';
import type { PathEnv } from '../core/paths.js';

export { revalidateCached, serverFailureCode } from '../app/setup.js';

export type LoadedServers = Setup;

/** The user's home, env and platform, for locating per-user cache and data folders. */
export function pathEnvOf(ctx: Pick<CommandContext, 'io' | 'global'>): PathEnv {
  return resolvePaths(ctx.io, ctx.global.cache).pathEnv;
}

/** The count cache lives in the user cache folder; `--no-cache` turns it off along with the tool-list cache. */
export function countCacheDir(ctx: Pick<CommandContext, 'io' | 'global'>): string | undefined {
  return resolvePaths(ctx.io, ctx.global.cache).activeCacheDir;
}

/** Reads server definitions (no connecting) from the global options; their secret values are remembered for scrubbing. */
export async function loadDefinitions(ctx: Pick<CommandContext, 'io' | 'global'>): Promise<DefinitionResult> {
  return loadDefinitionsOf(ctx.global, ctx.io);
}

/**
 * Snapshots for every selected server. Failed servers are included with status "error"; `hidden` lists the tools
 * each server's client hides. `{ fresh: true }` skips the tool-list cache (gates never answer from it).
 */
export async function loadServers(
  ctx: Pick<CommandContext, 'io' | 'global'>,
  opts: SetupLoad = {},
): Promise<LoadedServers> {
  return loadSetup(ctx.global, ctx.io, opts);
}
