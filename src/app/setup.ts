/**
 * Loading a run's setup once: server definitions from the config sources (or saved snapshots), live servers
 * through the tool-list cache, our own config, and the per-user paths. Every command and `serve` start here.
 */
import { SmartError } from '../errors.js';
import { loadServerDefinitions, type DefinitionRequest, type DefinitionResult } from '../core/config/index.js';
import { readSnapshotFiles } from '../core/snapshot.js';
import type { Io } from '../io.js';
import type { ServerSnapshot, SmartConfig } from '../types.js';
import type { GlobalOptions } from './context.js';
import { resolvePaths, type SetupPaths } from './paths.js';
import { createProgress } from './progress.js';

/** The global options the setup depends on (a GlobalOptions satisfies it). */
export type SetupOptions = Pick<
  GlobalOptions,
  'config' | 'snapshot' | 'adhoc' | 'server' | 'demo' | 'cache' | 'timeoutMs' | 'debug' | 'format'
>;

export interface Setup {
  /** One snapshot per selected server; failed servers have status "error". */
  servers: ServerSnapshot[];
  /** mcp-smart.config.json after validation (weights, patterns, thresholds, budget, cache). */
  config: SmartConfig;
  configFile?: string;
  /** The definitions read from the config sources; absent when the servers came from --snapshot files. */
  definitions?: DefinitionResult;
  paths: SetupPaths;
}

const DEFAULT_CACHE_TTL_SECONDS = 3600;

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
  };
}

/** Reads the server definitions (no connecting) from the config sources the options name. */
export async function loadDefinitions(opts: SetupOptions, io: Io, paths?: SetupPaths): Promise<DefinitionResult> {
  return loadServerDefinitions(definitionRequest(opts, io, paths ?? resolvePaths(io, opts.cache)));
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

/** The setup of one run: snapshots for every selected server (from --snapshot files, or by connecting), config, paths. */
export async function loadSetup(opts: SetupOptions, io: Io): Promise<Setup> {
  const paths = resolvePaths(io, opts.cache);
  if (opts.snapshot.length > 0) {
    const servers = await readSnapshotFiles(opts.snapshot, io.cwd);
    if (opts.adhoc.length > 0 || opts.demo) {
      io.stderr('warning: --snapshot replaces connecting, so --stdio, --url and --demo were ignored.\n');
    }
    // Our own config (weights, patterns, thresholds) still applies when analysing a snapshot,
    // but client configs are not searched: a snapshot run must not depend on this machine's setup.
    const defs = await loadServerDefinitions({
      ...definitionRequest(opts, io, paths),
      adhoc: [],
      demo: false,
      ownConfigOnly: true,
    });
    return { servers: selectServers(servers, opts.server), config: defs.config, configFile: defs.configFile, paths };
  }
  const definitions = await loadDefinitions(opts, io, paths);
  for (const w of definitions.warnings) io.stderr(`warning: ${w}\n`);
  const enabled = selectServers(
    definitions.servers.filter((s) => s.enabled),
    opts.server,
  );
  if (enabled.length === 0) throw new SmartError('NO_SERVERS');
  const ttlSeconds = definitions.config.cache?.ttlSeconds ?? DEFAULT_CACHE_TTL_SECONDS;
  const progress = createProgress(io, opts.format, enabled.length);
  // The SDK is loaded only when connecting live, so snapshot runs start fast.
  const { connectServers } = await import('../core/connect/index.js');
  const servers = await connectServers(enabled, {
    timeoutMs: opts.timeoutMs,
    signal: io.signal,
    cache: opts.cache && ttlSeconds > 0 ? { dir: paths.cacheDir, ttlMs: ttlSeconds * 1000, now: Date.now() } : null,
    onProgress: progress.update,
    captureStderr: opts.debug,
  });
  progress.done();
  if (opts.debug) {
    for (const s of servers) {
      if (s.stderr) io.stderr(`--- stderr of ${s.name} ---\n${s.stderr}${s.stderr.endsWith('\n') ? '' : '\n'}`);
    }
  }
  return { servers, config: definitions.config, configFile: definitions.configFile, definitions, paths };
}

/** Exit code 3 when any server failed, else 0. */
export function serverFailureCode(servers: ServerSnapshot[]): number {
  return servers.some((s) => s.status === 'error') ? 3 : 0;
}
