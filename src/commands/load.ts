/** The setup loader moved to the application layer (src/app/setup.ts); these names keep older imports working. */
import { loadDefinitions as loadDefinitionsOf, loadSetup, type Setup } from '../app/setup.js';
import { resolvePaths } from '../app/paths.js';
import type { CommandContext } from '../app/context.js';
import type { DefinitionResult } from '../core/config/index.js';
import type { PathEnv } from '../core/paths.js';

export { serverFailureCode } from '../app/setup.js';

export type LoadedServers = Setup;

/** The user's home, env and platform, for locating per-user cache and data folders. */
export function pathEnvOf(ctx: CommandContext): PathEnv {
  return resolvePaths(ctx.io, ctx.global.cache).pathEnv;
}

/** The count cache lives in the user cache folder; `--no-cache` turns it off along with the tool-list cache. */
export function countCacheDir(ctx: CommandContext): string | undefined {
  return resolvePaths(ctx.io, ctx.global.cache).activeCacheDir;
}

/** Reads server definitions (no connecting) from the global options. */
export async function loadDefinitions(ctx: CommandContext): Promise<DefinitionResult> {
  return loadDefinitionsOf(ctx.global, ctx.io);
}

/** Snapshots for every selected server. Failed servers are included with status "error". */
export async function loadServers(ctx: CommandContext): Promise<LoadedServers> {
  return loadSetup(ctx.global, ctx.io);
}
