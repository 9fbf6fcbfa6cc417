/**
 * Loading a run's setup once: server definitions from the config sources (app/services/definitions.ts) or saved snapshots,
 * live servers through the tool-list cache (app/services/connect-definitions.ts), our own config, and the per-user paths.
 * Every command starts here.
 */
import type { DefinitionResult } from '../../core/config/index.js';
import { GATE_LABEL } from '../../core/config/client-trust.js';
import { trustCommands } from '../../core/trust/project-gate.js';
import { hiddenToolsBySnapshot, visibilityRules, type VisibilityRules } from '../../core/config/tool-filter.js';
import { SmartError } from '../../process/errors.js';
import type { Io } from '../../process/io.js';
import { scrubMessage } from '../../process/secrets.js';
import type { ServerSnapshot, SmartConfig } from '../../core/types.js';
import { checkedSnapshots, readCatalogue } from './catalogue/snapshot-files.js';
import { connectDefinitions, printNotes } from './connect-definitions.js';
import type { GlobalOptions } from './context.js';
import {
  loadDefinitions,
  noServerError,
  notStartedWarning,
  ownConfig,
  selectServers,
  switchedOff,
} from './definitions.js';
import { resolvePaths, type SetupPaths } from './paths.js';

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
   * --snapshot runs may answer from the catalogue start cache (app/services/catalogue/snapshot-files.ts): tools then carry no schemas, only
   * what ranking reads. For commands that rank and print ids (discover), never for ones that count or show schemas.
   */
  lean?: boolean;
  /**
   * Takes the cache writes that need not happen before the answer (the catalogue start cache), so the command runs
   * them after printing; without it they are awaited while loading.
   */
  later?: (write: () => Promise<void>) => void;
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
  /** That rule's inputs, as serve reads them (discover leaves out what it hides, as serve does). */
  rules: VisibilityRules;
  /** SHA-256 of the --snapshot files' bytes when the servers came from them (a cache key for what follows). */
  snapshotDigest?: string;
  /** The servers came from the catalogue start cache: their tools carry no schemas (SetupLoad.lean). */
  lean?: boolean;
  paths: SetupPaths;
}

/** The setup of one run: snapshots for every selected server (from --snapshot files, or by connecting), config, paths. */
export async function loadSetup(opts: SetupOptions, io: Io, load: SetupLoad = {}): Promise<Setup> {
  const paths = resolvePaths(io, opts.cache);
  if (opts.snapshot.length > 0) {
    const checked = checkedSnapshots(paths);
    // Without a cache folder readCatalogue reads the files in full (readSnapshotSet) and caches nothing.
    const cacheDir = load.lean ? paths.activeCacheDir : undefined;
    const { servers, digest, lean } = await readCatalogue(opts.snapshot, io.cwd, {
      cacheDir,
      checked,
      now: Date.now,
      ...(load.later ? { later: load.later } : {}),
      ...(load.lean ? { leanTools: true } : {}),
    });
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
    const rules = visibilityRules([], defs.config.serve, defs.configFile);
    const hidden = hiddenToolsBySnapshot(selected, rules);
    return {
      servers: selected,
      config: defs.config,
      configFile: defs.configFile,
      hidden,
      rules,
      snapshotDigest: digest,
      ...(lean ? { lean } : {}),
      paths,
    };
  }
  const definitions = await loadDefinitions(opts, io, paths);
  for (const w of definitions.warnings) io.stderr(`warning: ${scrubMessage(w)}\n`);
  // -s is checked against every server found: one waiting for approval or switched off is not "no server named".
  const wanted = selectServers(definitions.servers, opts.server);
  const enabled = wanted.filter((s) => s.enabled);
  const off = opts.server.length > 0 ? wanted.filter((d) => switchedOff(d)) : [];
  for (const d of off) io.stderr(`warning: ${notStartedWarning(d)}\n`);
  if (enabled.length === 0) {
    const held = wanted.filter((d) => d.pendingTrust === true);
    if (held.length > 0) throw new SmartError('PROJECT_NOT_TRUSTED', { command: trustCommands(held).join('` and `') });
    // Listed, but their client would not load them (pending approval, untrusted folder or project).
    const gated = wanted.filter((d) => d.gate !== undefined);
    if (gated.length > 0)
      throw new SmartError('CLIENT_GATED', {
        servers: gated.map((d) => `${d.name} (${GATE_LABEL[d.gate!]})`).join(', '),
      });
    throw noServerError(wanted, opts);
  }
  let lean = false;
  const servers = await connectDefinitions(opts, io, enabled, {
    config: definitions.config,
    paths,
    fresh: load.fresh,
    ...(load.lean ? { lean: () => (lean = true) } : {}),
  });
  const rules = visibilityRules(enabled, definitions.config.serve, definitions.configFile);
  const hidden = hiddenToolsBySnapshot(servers, rules);
  return {
    servers,
    config: definitions.config,
    configFile: definitions.configFile,
    definitions,
    hidden,
    rules,
    ...(lean ? { lean } : {}),
    paths,
  };
}

/** Exit code 3 when any server failed, else 0. */
export function serverFailureCode(servers: ServerSnapshot[]): number {
  return servers.some((s) => s.status === 'error') ? 3 : 0;
}

/**
 * For the commands whose output has no place for a failed server (discover, condense, replay): a warning naming each
 * one and what its absence means, so exit 3 never comes without the server it is about. The exit code, as above.
 */
export function reportUnreachable(io: Io, servers: ServerSnapshot[], leftOut: string): number {
  for (const s of servers)
    if (s.status === 'error')
      io.stderr(`warning: server ${s.name} could not be reached (${s.error ?? 'no reason given'}); ${leftOut}\n`);
  return serverFailureCode(servers);
}
