/** Turns the global options into ServerSnapshots: from --snapshot files, or by reading configs and connecting. */
import { homedir } from 'node:os';
import { SmartError } from '../errors.js';
import { loadServerDefinitions, type DefinitionRequest, type DefinitionResult } from '../core/config/index.js';
import { hiddenToolsBySnapshot } from '../core/config/tool-filter.js';
import { readSnapshotFiles } from '../core/snapshot.js';
import { userCacheDir, type PathEnv } from '../core/paths.js';
import type { ServerSnapshot, SmartConfig } from '../types.js';
import type { CommandContext } from './context.js';
import { createProgress } from './progress.js';
import { oauthOptions } from './oauth-options.js';
import { throwIfStopped, whileHandlingSignals } from '../signals.js';
import { rememberSecrets, scrubMessage, scrubServerText } from '../secrets.js';
import { secretValuesOf } from '../core/redact.js';
import { shortReason } from '../core/connect/failure-text.js';
import { malformedToolsNote, validateTools } from '../core/tool-validate.js';

export interface LoadedServers {
  servers: ServerSnapshot[];
  config: SmartConfig;
  configFile?: string;
  definitions?: DefinitionResult;
  /** Server name → tools its client's config hides from the model (the snapshots still list them). */
  hidden?: Record<string, string[]>;
}

const DEFAULT_CACHE_TTL_SECONDS = 3600;

/** The user's home, env and platform, for locating per-user cache and data folders. */
export function pathEnvOf(ctx: CommandContext): PathEnv {
  const { io } = ctx;
  return { env: io.env, platform: io.platform, home: io.env.HOME || io.env.USERPROFILE || homedir() };
}

/** The count cache lives in the user cache folder; `--no-cache` turns it off along with the tool-list cache. */
export function countCacheDir(ctx: CommandContext): string | undefined {
  if (!ctx.global.cache) return undefined;
  return userCacheDir(pathEnvOf(ctx));
}

/** Reads server definitions (no connecting) from the global options. */
export async function loadDefinitions(ctx: CommandContext): Promise<DefinitionResult> {
  const defs = await loadServerDefinitions(definitionRequest(ctx));
  rememberSecrets(secretValuesOf(defs.servers, ctx.io.env, defs.referencedVars));
  return defs;
}

function definitionRequest(ctx: CommandContext): DefinitionRequest {
  const { io, global } = ctx;
  return {
    configFiles: global.config,
    adhoc: global.adhoc,
    demo: global.demo,
    cwd: io.cwd,
    env: io.env,
    platform: io.platform,
    home: pathEnvOf(ctx).home,
    nodePath: process.execPath,
    ...(global.client ? { client: global.client } : {}),
  };
}

function selectServers<T extends { name: string }>(items: T[], wanted: string[]): T[] {
  if (wanted.length === 0) return items;
  const known = new Set(items.map((s) => s.name));
  for (const name of wanted) {
    if (!known.has(name))
      throw new SmartError('UNKNOWN_SERVER', { name, known: [...known].sort().join(', ') || '(none)' });
  }
  return items.filter((s) => wanted.includes(s.name));
}

/** Snapshots for every selected server. Failed servers are included with status "error". */
export async function loadServers(ctx: CommandContext, opts: { fresh?: boolean } = {}): Promise<LoadedServers> {
  const { io, global } = ctx;
  if (global.snapshot.length > 0) {
    const servers = await readSnapshotFiles(global.snapshot, io.cwd);
    if (global.adhoc.length > 0 || global.demo) {
      io.stderr('warning: --snapshot replaces connecting, so --stdio, --url and --demo were ignored.\n');
    }
    if (global.client)
      io.stderr('warning: --client selects from client configs, which a --snapshot run does not read.\n');
    // Our own config (weights, patterns, thresholds) still applies when analysing a snapshot,
    // but client configs are not searched: a snapshot run must not depend on this machine's setup.
    const defs = await loadServerDefinitions({
      ...definitionRequest(ctx),
      adhoc: [],
      demo: false,
      ownConfigOnly: true,
    });
    const config = defs.config;
    const configFile = defs.configFile;
    printNotes(ctx, servers);
    return { servers: selectServers(servers, global.server), config, configFile };
  }
  const definitions = await loadDefinitions(ctx);
  for (const w of definitions.warnings) io.stderr(`warning: ${scrubMessage(w)}\n`);
  const enabled = selectServers(
    definitions.servers.filter((s) => s.enabled),
    global.server,
  );
  if (enabled.length === 0) throw new SmartError('NO_SERVERS');
  const ttlSeconds = definitions.config.cache?.ttlSeconds ?? DEFAULT_CACHE_TTL_SECONDS;
  const progress = createProgress(ctx, enabled.length);
  // The SDK is loaded only when connecting live, so snapshot runs start fast.
  const { connectServers } = await import('../core/connect/index.js');
  // Live server processes must be ended on a signal: this phase handles SIGINT/SIGTERM itself.
  const connected = await whileHandlingSignals(() =>
    connectServers(enabled, {
      timeoutMs: global.timeoutMs,
      signal: io.signal,
      cache:
        global.cache && ttlSeconds > 0 && opts.fresh !== true
          ? { dir: userCacheDir(pathEnvOf(ctx)), ttlMs: ttlSeconds * 1000, now: Date.now() }
          : null,
      onProgress: progress.update,
      captureStderr: global.debug,
      oauth: oauthOptions(ctx),
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
  printNotes(ctx, servers);
  printCacheAge(ctx, servers);
  // A signal during connecting ends the run here: nothing is measured or written from aborted servers.
  throwIfStopped();
  if (global.debug) {
    for (const s of servers) {
      if (s.stderr) io.stderr(`--- stderr of ${s.name} ---\n${s.stderr}${s.stderr.endsWith('\n') ? '' : '\n'}`);
    }
  }
  const hidden = hiddenToolsBySnapshot(servers, enabled);
  return { servers, config: definitions.config, configFile: definitions.configFile, definitions, hidden };
}

/** A cache file is data from disk like a snapshot: its tools pass the same edge check. */
function revalidateCached(s: ServerSnapshot): ServerSnapshot {
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
function printNotes(ctx: CommandContext, servers: readonly ServerSnapshot[]): void {
  for (const s of servers) for (const n of s.notes ?? []) ctx.io.stderr(`note: ${s.name}: ${n}\n`);
}

/** Said once when answers come from the tool-list cache, with the age of the oldest list. */
function printCacheAge(ctx: CommandContext, servers: readonly ServerSnapshot[]): void {
  const cached = servers.filter((s) => s.cached);
  if (cached.length === 0) return;
  const oldest = Math.min(...cached.map((s) => s.cachedAt ?? Date.now()));
  const minutes = Math.max(0, Math.round((Date.now() - oldest) / 60_000));
  const age = minutes < 1 ? 'less than a minute' : minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
  ctx.io.stderr(
    `note: ${cached.length} server${cached.length === 1 ? '' : 's'} from cache, ${age} old; --no-cache to refresh\n`,
  );
}

/** Exit code 3 when any server failed, else 0. */
export function serverFailureCode(servers: ServerSnapshot[]): number {
  return servers.some((s) => s.status === 'error') ? 3 : 0;
}
