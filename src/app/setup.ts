/**
 * Loading a run's setup once: server definitions from the config sources (or saved snapshots), live servers
 * through the tool-list cache, our own config, and the per-user paths. Every command and `serve` start here.
 */
import { SmartError } from '../errors.js';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { DefinitionRequest, DefinitionResult } from '../core/config/index.js';
import { GATE_LABEL } from '../core/config/client-trust.js';
import { SMART_CONFIG_NAME } from '../core/config/locate.js';
import { hiddenToolsBySnapshot, visibilityRules } from '../core/config/tool-filter.js';
import { declaredCapabilities } from '../core/declared-capabilities.js';
import { secretValuesOf } from '../core/redact.js';
import { shortReason } from '../core/connect/failure-text.js';
import { malformedToolsNote, validateTools } from '../core/tool-validate.js';
import type { Io } from '../io.js';
import { throwIfStopped, whileHandlingSignals } from '../signals.js';
import { rememberSecrets, scrubMessage, scrubServerText } from '../secrets.js';
import type { ServerDefinition, ServerSnapshot, SmartConfig } from '../types.js';
import type { GlobalOptions } from './context.js';
import { oauthOptions } from './oauth.js';
import { gateProjectServers, printHeld } from './project-trust.js';
import { resolvePaths, type SetupPaths } from './paths.js';
import { createProgress } from './progress.js';
import { checkedSnapshots, readCatalogue } from './catalogue.js';
import { configuredKey, readConfiguredCatalogue, writeConfiguredCatalogue } from './configured-catalogue.js';

/** The global options the setup depends on (a GlobalOptions satisfies it). */
export type SetupOptions = Pick<
  GlobalOptions,
  | 'config'
  | 'snapshot'
  | 'adhoc'
  | 'server'
  | 'client'
  | 'demo'
  | 'cache'
  | 'timeoutMs'
  | 'debug'
  | 'format'
  | 'authOpen'
  | 'trustProject'
>;

/** How one run loads: `fresh` lists every live server anew (gates never answer from the tool-list cache). */
export interface SetupLoad {
  fresh?: boolean;
  /**
   * --snapshot runs may answer from the catalogue start cache (app/catalogue.ts): tools then carry no schemas, only
   * what ranking reads. For commands that rank and print ids (discover), never for ones that count or show schemas.
   */
  lean?: boolean;
}

export interface Setup {
  /** One snapshot per selected server; failed servers have status "error". */
  servers: ServerSnapshot[];
  /** mcp-smart.config.json after validation (weights, patterns, thresholds, budget, cache). */
  config: SmartConfig;
  configFile?: string;
  /** The definitions read from the config sources; absent when the servers came from --snapshot files. */
  definitions?: DefinitionResult;
  /** Server name → tools hidden from the model by the one visibility rule (client filters, serve section). */
  hidden?: Record<string, string[]>;
  /** SHA-256 of the --snapshot files' bytes when the servers came from them (a cache key for what follows). */
  snapshotDigest?: string;
  /** The servers came from the catalogue start cache: their tools carry no schemas (SetupLoad.lean). */
  lean?: boolean;
  paths: SetupPaths;
}

/** How long a cached tool list answers before its server is asked again, unless the config sets cache.ttlSeconds. */
export const DEFAULT_CACHE_TTL_SECONDS = 3600;

function definitionRequest(opts: SetupOptions, io: Io, paths: SetupPaths): DefinitionRequest {
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
 * approved come back disabled with `pendingTrust` (app/project-trust.ts); `gate.ask` false never prompts (listing),
 * `gate.skip` leaves them as read (`trust`, which approves them).
 */
export async function loadDefinitions(
  opts: SetupOptions,
  io: Io,
  paths?: SetupPaths,
  gate: { ask?: boolean; skip?: boolean } = {},
): Promise<DefinitionResult> {
  const { loadServerDefinitions } = await import('../core/config/index.js');
  const at = paths ?? resolvePaths(io, opts.cache);
  const defs = await loadServerDefinitions(definitionRequest(opts, io, at));
  rememberSecrets(secretValuesOf(defs.servers, io.env, defs.referencedVars));
  if (gate.skip !== true) {
    const held = await gateProjectServers(defs, io, at, { trustProject: opts.trustProject, ask: gate.ask });
    if (gate.ask !== false) printHeld(io, held);
  }
  return defs;
}

/** The items named by --server (all when none is named); a name no item has is UNKNOWN_SERVER, listing the known ones. */
export function selectServers<T extends { name: string }>(items: T[], wanted: string[]): T[] {
  if (wanted.length === 0) return items;
  const known = new Set(items.map((s) => s.name));
  for (const name of wanted) {
    if (!known.has(name))
      throw new SmartError('UNKNOWN_SERVER', { name, known: [...known].sort().join(', ') || '(none)' });
  }
  return items.filter((s) => wanted.includes(s.name));
}

/**
 * The --config files and the project's own config of a --snapshot run. With neither (no --config, no
 * mcp-smart.config.json in the folder) there is nothing to read, and the config loader with its JSONC and TOML
 * parsers is not even loaded (about a third of a cold snapshot run's module loading).
 */
async function ownConfig(
  opts: SetupOptions,
  io: Io,
  paths: SetupPaths,
): Promise<Pick<DefinitionResult, 'config' | 'configFile'>> {
  if (opts.config.length === 0 && (await isMissing(join(io.cwd, SMART_CONFIG_NAME)))) return { config: {} };
  const { loadServerDefinitions } = await import('../core/config/index.js');
  return loadServerDefinitions({ ...definitionRequest(opts, io, paths), adhoc: [], demo: false, ownConfigOnly: true });
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

/** The setup of one run: snapshots for every selected server (from --snapshot files, or by connecting), config, paths. */
export async function loadSetup(opts: SetupOptions, io: Io, load: SetupLoad = {}): Promise<Setup> {
  const paths = resolvePaths(io, opts.cache);
  if (opts.snapshot.length > 0) {
    const checked = checkedSnapshots(paths);
    // Without a cache folder readCatalogue reads the files in full (readSnapshotSet) and caches nothing.
    const cacheDir = load.lean ? paths.activeCacheDir : undefined;
    const { servers, digest, lean } = await readCatalogue(opts.snapshot, io.cwd, { cacheDir, checked, now: Date.now });
    if (opts.adhoc.length > 0 || opts.demo) {
      io.stderr('warning: --snapshot replaces connecting, so --stdio, --url and --demo were ignored.\n');
    }
    if (opts.client)
      io.stderr('warning: --client selects from client configs, which a --snapshot run does not read.\n');
    // Our own config (weights, patterns, thresholds) still applies when analysing a snapshot,
    // but client configs are not searched: a snapshot run must not depend on this machine's setup.
    const defs = await ownConfig(opts, io, paths);
    printNotes(io, servers);
    const selected = selectServers(servers, opts.server);
    // No client config is read here, so only our own serve section can hide tools (as serve --snapshot does).
    const hidden = hiddenToolsBySnapshot(selected, visibilityRules([], defs.config.serve, defs.configFile));
    return {
      servers: selected,
      config: defs.config,
      configFile: defs.configFile,
      hidden,
      snapshotDigest: digest,
      ...(lean ? { lean } : {}),
      paths,
    };
  }
  const definitions = await loadDefinitions(opts, io, paths);
  for (const w of definitions.warnings) io.stderr(`warning: ${scrubMessage(w)}\n`);
  const enabled = selectServers(
    definitions.servers.filter((s) => s.enabled),
    opts.server,
  );
  if (enabled.length === 0) {
    const wanted = definitions.servers.filter((d) => opts.server.length === 0 || opts.server.includes(d.name));
    if (wanted.some((d) => d.pendingTrust === true)) throw new SmartError('PROJECT_NOT_TRUSTED');
    // Listed, but their client would not load them (pending approval, untrusted folder or project).
    const gated = wanted.filter((d) => d.gate !== undefined);
    if (gated.length > 0)
      throw new SmartError('CLIENT_GATED', {
        servers: gated.map((d) => `${d.name} (${GATE_LABEL[d.gate!]})`).join(', '),
      });
    throw new SmartError('NO_SERVERS');
  }
  let lean = false;
  const servers = await connectDefinitions(opts, io, enabled, {
    config: definitions.config,
    paths,
    fresh: load.fresh,
    ...(load.lean ? { lean: () => (lean = true) } : {}),
  });
  const hidden = hiddenToolsBySnapshot(
    servers,
    visibilityRules(enabled, definitions.config.serve, definitions.configFile),
  );
  return {
    servers,
    config: definitions.config,
    configFile: definitions.configFile,
    definitions,
    hidden,
    ...(lean ? { lean } : {}),
    paths,
  };
}

/**
 * Connects to the given definitions (through the tool-list cache unless `fresh`), with the live progress line, and
 * returns their snapshots scrubbed, notes printed; a signal while connecting ends the run.
 */
export async function connectDefinitions(
  opts: SetupOptions,
  io: Io,
  enabled: ServerDefinition[],
  ctx: {
    config: SmartConfig;
    paths: SetupPaths;
    fresh?: boolean;
    /** False when an earlier connect of this run already said that answers come from the cache. */
    cacheNote?: boolean;
    /**
     * Servers all answered from the tool-list cache may come from the catalogue start cache (SetupLoad.lean); called
     * when they did.
     */
    lean?: () => void;
  },
): Promise<ServerSnapshot[]> {
  const { paths } = ctx;
  const load = { fresh: ctx.fresh };
  const ttlSeconds = ctx.config.cache?.ttlSeconds ?? DEFAULT_CACHE_TTL_SECONDS;
  const progress = createProgress(io, opts.format, enabled.length);
  const cache =
    opts.cache && ttlSeconds > 0 && load.fresh !== true
      ? { dir: paths.cacheDir, ttlMs: ttlSeconds * 1000, now: Date.now() }
      : null;
  const oauth = oauthOptions({ io, global: opts });
  // As that client sees them: servers may register tools only for clients that declare roots or elicitation.
  const capabilities = declaredCapabilities(opts.client);
  const start = cache && ctx.lean ? { ...cache, oauthStore: oauth.storeFile, capabilities } : undefined;
  const at = start && (await configuredKey(enabled, start));
  const lean = at && readConfiguredCatalogue(at, start);
  if (lean) {
    ctx.lean?.();
    progress.done();
    return finishConnect(opts, io, lean, ctx.cacheNote);
  }
  // The SDK is loaded only when connecting live, so snapshot runs start fast.
  const { connectServers } = await import('../core/connect/index.js');
  // Live server processes must be ended on a signal: this phase handles SIGINT/SIGTERM itself.
  const connected = await whileHandlingSignals(() =>
    connectServers(enabled, {
      timeoutMs: opts.timeoutMs,
      signal: io.signal,
      cache,
      onProgress: progress.update,
      captureStderr: opts.debug,
      oauth,
      capabilities,
    }),
  );
  progress.done();
  // Whatever a server sent back (an echoed header, a URL with its query) is scrubbed before anything shows it.
  const servers = connected.map(revalidateCached).map((s) => ({
    ...s,
    ...(s.error !== undefined ? { error: scrubServerText(s.error.length > 600 ? shortReason(s.error) : s.error) } : {}),
    ...(s.notes !== undefined ? { notes: s.notes.map(scrubServerText) } : {}),
    ...(s.stderr !== undefined ? { stderr: scrubServerText(s.stderr) } : {}),
  }));
  if (at && start) await writeConfiguredCatalogue(at, servers, start);
  return finishConnect(opts, io, servers, ctx.cacheNote);
}

/** Notes, the cache age, the end of a stopped run and (--debug) each server's stderr, after connecting. */
function finishConnect(
  opts: SetupOptions,
  io: Io,
  servers: ServerSnapshot[],
  cacheNote: boolean | undefined,
): ServerSnapshot[] {
  printNotes(io, servers);
  if (cacheNote !== false) printCacheAge(io, servers);
  // A signal during connecting ends the run here: nothing is measured or written from aborted servers.
  throwIfStopped();
  if (opts.debug) {
    for (const s of servers) {
      if (s.stderr) io.stderr(`--- stderr of ${s.name} ---\n${s.stderr}${s.stderr.endsWith('\n') ? '' : '\n'}`);
    }
  }
  return servers;
}

/** A cache file is data from disk like a snapshot: its tools pass the same edge check. */
export function revalidateCached(s: ServerSnapshot): ServerSnapshot {
  if (!s.cached) return s;
  const checked = validateTools(s.tools);
  if (checked.problems.length === 0) return s;
  return {
    ...s,
    tools: checked.tools,
    notes: [...(s.notes ?? []), malformedToolsNote(checked, 'the cached tool list')],
  };
}

/** Problems on servers whose tools still count, once each on stderr (never on stdout: --json stays one document). */
function printNotes(io: Io, servers: readonly ServerSnapshot[]): void {
  for (const s of servers) for (const n of s.notes ?? []) io.stderr(`note: ${s.name}: ${n}\n`);
}

/** Said once when answers come from the tool-list cache, with the age of the oldest list. */
function printCacheAge(io: Io, servers: readonly ServerSnapshot[]): void {
  const cached = servers.filter((s) => s.cached);
  if (cached.length === 0) return;
  const oldest = Math.min(...cached.map((s) => s.cachedAt ?? Date.now()));
  const minutes = Math.max(0, Math.round((Date.now() - oldest) / 60_000));
  const age = minutes < 1 ? 'less than a minute' : minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
  io.stderr(
    `note: ${cached.length} server${cached.length === 1 ? '' : 's'} from cache, ${age} old; --no-cache to refresh\n`,
  );
}

/** Exit code 3 when any server failed, else 0. */
export function serverFailureCode(servers: ServerSnapshot[]): number {
  return servers.some((s) => s.status === 'error') ? 3 : 0;
}
