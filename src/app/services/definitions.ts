/**
 * The server definitions of a run, read from the config sources the options name (client configs, --config,
 * --stdio/--url/--demo), with project servers nobody approved held back; the selection by --server; and our own
 * config alone, for a --snapshot run. Nothing here connects.
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { DefinitionRequest, DefinitionResult } from '../../core/config/index.js';
import { SMART_CONFIG_NAME } from '../../core/config/locate.js';
import { secretValuesOf } from '../../core/secret-values.js';
import { SmartError } from '../../process/errors.js';
import type { Io } from '../../process/io.js';
import type { ServerDefinition } from '../../core/types.js';
import { rememberSecrets } from '../../process/secrets.js';
import type { GlobalOptions } from './context.js';
import { resolvePaths, type SetupPaths } from './paths.js';
import { gateProjectServers, printHeld } from './project-trust.js';
import { knownNames } from '../../core/config/key-path.js';

/** The global options reading definitions depends on (a GlobalOptions satisfies it). */
export type DefinitionOptions = Pick<GlobalOptions, 'config' | 'adhoc' | 'client' | 'demo' | 'cache' | 'trustProject'>;

function definitionRequest(opts: DefinitionOptions, io: Io, paths: SetupPaths): DefinitionRequest {
  return {
    configFiles: opts.config,
    adhoc: opts.adhoc,
    demo: opts.demo,
    cwd: io.cwd,
    env: io.env,
    platform: io.platform,
    home: paths.pathEnv.home,
    nodePath: process.execPath,
    ...(opts.client ? { client: opts.client } : {}),
  };
}

/**
 * Reads the server definitions (no connecting) from the config sources the options name. Project-file servers nobody
 * approved come back disabled with `pendingTrust` (app/services/project-trust.ts); `gate.ask` false never prompts (listing),
 * `gate.skip` leaves them as read (`trust`, which approves them).
 */
export async function loadDefinitions(
  opts: DefinitionOptions,
  io: Io,
  paths?: SetupPaths,
  gate: { ask?: boolean; skip?: boolean } = {},
): Promise<DefinitionResult> {
  const { loadServerDefinitions } = await import('../../core/config/index.js');
  const at = paths ?? resolvePaths(io, opts.cache);
  const defs = await loadServerDefinitions(definitionRequest(opts, io, at));
  rememberSecrets(secretValuesOf(defs.servers, io.env, defs.referencedVars));
  if (gate.skip !== true) {
    const held = await gateProjectServers(defs, io, at, {
      trustProject: opts.trustProject,
      ask: gate.ask,
      configFiles: opts.config,
    });
    if (gate.ask !== false) printHeld(io, held);
  }
  return defs;
}

/** Not enabled in its file (disabled, or not loaded by its client), and not waiting for an approval. */
export const switchedOff = (d: ServerDefinition): boolean =>
  !d.enabled && d.pendingTrust !== true && d.gate === undefined;

/** What a server named with -s that is switched off gets said of it. */
export const notStartedWarning = (d: ServerDefinition): string =>
  `server "${d.name}" was not started: ${d.notLoaded ?? `it is disabled in ${d.source}`}`;

/**
 * Why a run has no server to start, when none of `found` (the definitions read, after -s) is enabled and none waits
 * for an approval: each switched off where it is defined, or the --config files (the only sources read) define none.
 */
export function noServerError(found: ServerDefinition[], opts: { server: string[]; config: string[] }): SmartError {
  const off = found.filter(switchedOff).map((d) => d.name);
  if (off.length > 0)
    return new SmartError('NO_SERVERS_ENABLED', {
      servers: off.join(', '),
      ...(opts.server.length > 0 ? { named: 1 } : {}),
    });
  return new SmartError('NO_SERVERS', opts.config.length > 0 ? { files: opts.config.join(', ') } : {});
}

/** The items named by --server (all when none is named); a name no item has is UNKNOWN_SERVER, listing the known ones. */
export function selectServers<T extends { name: string }>(items: T[], wanted: string[]): T[] {
  if (wanted.length === 0) return items;
  const known = new Set(items.map((s) => s.name));
  for (const name of wanted) {
    if (!known.has(name)) throw new SmartError('UNKNOWN_SERVER', { name, ...knownNames(name, known) });
  }
  return items.filter((s) => wanted.includes(s.name));
}

/**
 * The --config files and the project's own config of a --snapshot run. With neither (no --config, no
 * mcp-smart.config.json in the folder) there is nothing to read, and the config loader with its JSONC and TOML
 * parsers is not even loaded (about a third of a cold snapshot run's module loading).
 */
export async function ownConfig(
  opts: DefinitionOptions,
  io: Io,
  paths: SetupPaths,
): Promise<Pick<DefinitionResult, 'config' | 'configFile'>> {
  if (opts.config.length === 0 && (await isMissing(join(io.cwd, SMART_CONFIG_NAME)))) return { config: {} };
  const { loadServerDefinitions } = await import('../../core/config/index.js');
  const own = await loadServerDefinitions({
    ...definitionRequest(opts, io, paths),
    adhoc: [],
    demo: false,
    ownConfigOnly: true,
  });
  // A --snapshot run starts no server, but the config's store is a connection all the same (issue 41, class 1).
  const held = await gateProjectServers({ ...own, servers: [] }, io, paths, {
    trustProject: opts.trustProject,
    configFiles: opts.config,
  });
  printHeld(io, held);
  return own;
}

/** True only when the path surely does not exist; anything else goes to the loader, which reports it. */
async function isMissing(file: string): Promise<boolean> {
  try {
    await access(file);
    return false;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
}
