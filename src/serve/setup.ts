/**
 * What `serve` takes from the application layer's setup loading (src/app/services/setup.ts): config sources, -s,
 * --stdio/--url, --demo, --snapshot and the tool-list cache — without connecting to any server.
 */
import type { CommandContext } from '../app/services/context.js';
import { resolvePaths } from '../app/services/paths.js';
import {
  loadDefinitions,
  noServerError,
  notStartedWarning,
  selectServers,
  switchedOff,
} from '../app/services/definitions.js';
import {
  anyCachedSnapshot,
  DEFAULT_CACHE_TTL_SECONDS,
  readCachedSnapshot,
  writeCachedSnapshot,
} from '../core/connect/cache.js';
import { serverOrigin, type ServerOrigin } from '../core/connect/server-identity.js';
import type { DeclaredCapabilities } from '../core/declared-capabilities.js';
import { oauthTokenStorePath } from '../core/paths.js';
import type { DefinitionResult } from '../core/config/index.js';
import { referencedVariables } from '../core/config/referenced-vars.js';
import { isSelfServe } from '../app/services/launcher.js';
import type { ServerDefinition, ServerSnapshot, SmartConfig } from '../core/types.js';

export interface ServeSetup {
  /** Enabled, selected servers, without any that would be mcp-smart's own serve. */
  definitions: ServerDefinition[];
  /** Servers the files list that serve does not start (pending approval, not loaded by their client, disabled): why. */
  held?: ReadonlyMap<string, string>;
  /** Tool lists known without starting a server: from --snapshot files, else from the tool-list cache. */
  known: Map<string, ServerSnapshot>;
  config: SmartConfig;
  configFile?: string;
  warnings: string[];
  cache: { dir: string; ttlMs: number; oauthStore: string; origin: ServerOrigin } | null;
  usageStore: string;
  /** The lists came from --snapshot files: they are served as saved, never re-listed for a client's capabilities. */
  fromSnapshot?: boolean;
  /**
   * Set when `known` came from the catalogue start cache (app/services/catalogue/snapshot-files.ts): its tools carry no schemas. Reads the
   * snapshot files in full, the same servers with their schemas (serve awaits it before anything needs a schema).
   */
  full?: () => Promise<Map<string, ServerSnapshot>>;
}

/**
 * True when serve's first answers need no tool schema: meta mode with no server loaded eagerly and no pinned tool,
 * so the served list is the meta-tools alone (a start-cache `known` then serves until a tool is called).
 */
export function metaOnlyStart(mode: string, config: SmartConfig): boolean {
  if (mode !== 'meta') return false;
  return Object.values(config.serve?.servers ?? {}).every((s) => s?.load !== 'eager' && (s?.pin ?? []).length === 0);
}

/**
 * The definitions serve starts: enabled, selected by -s, without mcp-smart's own serve (said in `warnings`). A name
 * -s gives that no definition has is UNKNOWN_SERVER, unless `lenient` (a demo or snapshot server: not read here).
 */
function servedDefinitions(
  defs: DefinitionResult,
  wanted: string[],
  warnings: string[],
  lenient = false,
): ServerDefinition[] {
  const enabled = defs.servers.filter((s) => s.enabled);
  // -s is checked against every server found; one named but switched off is said, not "no server named".
  const chosen = lenient
    ? enabled.filter((s) => wanted.length === 0 || wanted.includes(s.name))
    : selectServers(defs.servers, wanted).filter((s) => s.enabled);
  if (!lenient && wanted.length > 0)
    for (const d of defs.servers) if (wanted.includes(d.name) && switchedOff(d)) warnings.push(notStartedWarning(d));
  const definitions: ServerDefinition[] = [];
  for (const def of chosen) {
    if (isSelfServe(def)) warnings.push(`skipped server "${def.name}" (${def.source}): it is mcp-smart serve itself`);
    else definitions.push(def);
  }
  return definitions;
}

/** The servers found but not started (each selected by -s, when given), with why: a call to their tools says it. */
export function heldServers(
  defs: DefinitionResult,
  wanted: string[],
  started: readonly ServerDefinition[],
): Map<string, string> {
  const names = new Set(started.map((d) => d.name));
  const held = defs.servers.filter(
    (d) => !d.enabled && !names.has(d.name) && (wanted.length === 0 || wanted.includes(d.name)),
  );
  return new Map(
    held.map((d) => [
      d.name,
      d.pendingTrust
        ? "it is pending approval of this project's servers (run `mcp-smart trust` in the project, `trust -c <file>` for a --config file, or start serve with --trust-project)"
        : `it is not started: ${d.notLoaded ?? `it is disabled in ${d.source}`}`,
    ]),
  );
}

/**
 * The variables the servers serve would start refer to (`${VAR}` in env, headers, args, url, an envFile's path; a
 * client file's own forms): serve needs them in its environment, so print-config names them for the clients that
 * do not pass theirs on. Values are never read. An envFile's contents are read by serve itself: nothing to pass.
 */
export async function servedVariables(ctx: CommandContext): Promise<string[]> {
  const { io, global } = ctx;
  // The demo servers refer to no variable, and loading them would make their scratch folder: only the -c files
  // given beside --demo are read (with -c, no default location is searched either way).
  if (global.demo && global.config.length === 0) return [];
  // Not asking about or reporting project approval here: serve, started by a client, cannot ask either.
  const opts = { ...global, demo: false };
  const defs = await loadDefinitions(opts, io, resolvePaths(io, global.cache), { ask: false });
  const entries = servedDefinitions(defs, global.server, [], true).flatMap((def) => {
    const raw = defs.rawEntryOf(def);
    return raw ? [{ raw, ...(def.client ? { client: def.client } : {}) }] : [];
  });
  return referencedVariables(entries);
}

/** Reads definitions and whatever tool lists are known already; connects to nothing. */
export async function loadServeSetup(
  ctx: CommandContext,
  now: number,
  /** Given the config read: may the lists come from the catalogue start cache (metaOnlyStart)? */
  leanStart: (config: SmartConfig) => boolean = () => false,
): Promise<ServeSetup> {
  const { io, global } = ctx;
  const paths = resolvePaths(io, global.cache);
  const defs = await loadDefinitions(global, io, paths);
  const warnings = [...defs.warnings];
  const definitions = servedDefinitions(defs, global.server, warnings);
  const ttlSeconds = defs.config.cache?.ttlSeconds ?? DEFAULT_CACHE_TTL_SECONDS;
  // Remote lists are keyed by the login they were seen through (the token store), like every other command's.
  const cache =
    global.cache && ttlSeconds > 0
      ? {
          dir: paths.cacheDir,
          ttlMs: ttlSeconds * 1000,
          oauthStore: oauthTokenStorePath(paths.pathEnv),
          // A local server's list answers only while its files are unchanged (an edited script is listed again).
          origin: serverOrigin(io),
        }
      : null;
  let known = new Map<string, ServerSnapshot>();
  let full: ServeSetup['full'];
  if (global.snapshot.length > 0) {
    // A server only in the snapshot is listed and searchable; calling it needs a definition to start it. A file
    // checked before (the same record discover and audit keep) skips the depth walk of its tools. The catalogue
    // start cache answers first when it holds these files; the full read waits until a schema is needed.
    // Loaded here: a start with no --snapshot spawns its servers without the snapshot reader's modules.
    const [{ checkedSnapshots, readCatalogue }, { readSnapshotSet }] = await Promise.all([
      import('../app/services/catalogue/snapshot-files.js'),
      import('../core/snapshot.js'),
    ]);
    const checked = checkedSnapshots(paths);
    const served = (servers: ServerSnapshot[]): Map<string, ServerSnapshot> =>
      new Map(
        servers
          .filter((s) => s.status === 'ok' && (global.server.length === 0 || global.server.includes(s.name)))
          .map((s) => [s.name, s]),
      );
    // Without a cache folder readCatalogue reads the files in full (readSnapshotSet) and caches nothing.
    const cacheDir = leanStart(defs.config) ? paths.activeCacheDir : undefined;
    const set = await readCatalogue(global.snapshot, io.cwd, { cacheDir, checked, now: Date.now });
    known = served(set.servers);
    if (set.lean) full = async () => served((await readSnapshotSet(global.snapshot, io.cwd, checked)).servers);
  } else if (cache && anyCachedSnapshot(cache.dir)) {
    // A cache folder with no tool list in it (a first start) answers nothing: no server is keyed for a lookup.
    const hits = await Promise.all(definitions.map((d) => readCachedSnapshot(d, { ...cache, now })));
    hits.forEach((hit, i) => {
      if (hit) known.set(definitions[i]!.name, hit);
    });
  }
  if (definitions.length === 0 && known.size === 0)
    throw noServerError(
      defs.servers.filter((d) => global.server.length === 0 || global.server.includes(d.name)),
      global,
    );
  const held = heldServers(defs, global.server, definitions);
  return {
    definitions,
    ...(held.size > 0 ? { held } : {}),
    known,
    config: defs.config,
    configFile: defs.configFile,
    warnings,
    cache,
    usageStore: paths.usageStore,
    fromSnapshot: global.snapshot.length > 0,
    ...(full ? { full } : {}),
  };
}

/** The cached list of `def` taken with `capabilities` declared, when fresh. */
export async function readListing(
  def: ServerDefinition,
  cache: ServeSetup['cache'],
  now: number,
  capabilities: DeclaredCapabilities,
): Promise<ServerSnapshot | undefined> {
  if (!cache) return undefined;
  return readCachedSnapshot(def, { ...cache, now, capabilities });
}

/** Stores a live listing in the tool-list cache so the next start answers without starting the server. */
export async function storeListing(
  def: ServerDefinition,
  snap: ServerSnapshot,
  cache: ServeSetup['cache'],
  now: number,
  capabilities?: DeclaredCapabilities,
): Promise<void> {
  if (!cache) return;
  await writeCachedSnapshot(def, snap, {
    dir: cache.dir,
    now,
    oauthStore: cache.oauthStore,
    capabilities,
    origin: cache.origin,
  });
}
