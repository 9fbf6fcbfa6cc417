/**
 * Connecting a run's definitions: through the tool-list cache (or the catalogue start cache of configured servers)
 * unless asked for fresh lists, with the live progress line; what comes back is checked and scrubbed, and the
 * servers' notes and the cache's age are said once on stderr.
 */
import { shortReason } from '../../core/connect/failure-text.js';
import { DEFAULT_CACHE_TTL_SECONDS } from '../../core/connect/cache.js';
import { serverOrigin } from '../../core/connect/server-identity.js';
import { declaredCapabilities } from '../../core/declared-capabilities.js';
import { malformedToolsNotes, validateTools } from '../../core/tool-validate.js';
import type { Io } from '../../process/io.js';
import { scrubServerText } from '../../process/secrets.js';
import { throwIfStopped, whileHandlingSignals } from '../../process/signals.js';
import type { ServerDefinition, ServerSnapshot, SmartConfig } from '../../core/types.js';
import { configuredKey, readConfiguredCatalogue, writeConfiguredCatalogue } from './catalogue/configured-servers.js';
import type { GlobalOptions } from './context.js';
import { oauthOptions } from './oauth.js';
import type { SetupPaths } from './paths.js';
import { createProgress } from './progress.js';
import { messageCap } from './message-cap.js';

/** The global options connecting depends on (a GlobalOptions satisfies it). */
export type ConnectOptions = Pick<GlobalOptions, 'client' | 'cache' | 'timeoutMs' | 'debug' | 'format' | 'authOpen'>;

/**
 * Connects to the given definitions (through the tool-list cache unless `fresh`), with the live progress line, and
 * returns their snapshots scrubbed, notes printed; a signal while connecting ends the run.
 */
export async function connectDefinitions(
  opts: ConnectOptions,
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
  // A fresh run reads no cached list but stores what it listed, so the next run starts from the current lists.
  const cache =
    opts.cache && ttlSeconds > 0
      ? {
          dir: paths.cacheDir,
          ttlMs: ttlSeconds * 1000,
          now: Date.now(),
          origin: serverOrigin(io),
          ...(load.fresh === true ? { writeOnly: true } : {}),
        }
      : null;
  const oauth = oauthOptions({ io, global: opts });
  // As that client sees them: servers may register tools only for clients that declare roots or elicitation.
  const capabilities = declaredCapabilities(opts.client);
  const start =
    cache && ctx.lean && load.fresh !== true ? { ...cache, oauthStore: oauth.storeFile, capabilities } : undefined;
  const at = start && (await configuredKey(enabled, start));
  const lean = at && readConfiguredCatalogue(at, start);
  if (lean) {
    ctx.lean?.();
    progress.done();
    return finishConnect(opts, io, lean, ctx.cacheNote);
  }
  // The SDK is loaded only when connecting live, so snapshot runs start fast.
  const { connectServers } = await import('../../core/connect/index.js');
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
      ...messageCap(io.env),
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
  opts: ConnectOptions,
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
  if (checked.problems.length === 0 && checked.remarks.length === 0) return s;
  return {
    ...s,
    tools: checked.tools,
    notes: [...(s.notes ?? []), ...malformedToolsNotes(checked, 'the cached tool list', 'holds', s.notes)],
  };
}

/** Problems on servers whose tools still count, once each on stderr (never on stdout: --json stays one document). */
export function printNotes(io: Io, servers: readonly ServerSnapshot[]): void {
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
