/** The only module that imports the MCP SDK: connects to servers and produces ServerSnapshots. */
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { Transport as SdkTransport } from '@modelcontextprotocol/client';
import { errorText } from '../../process/errors.js';
import type { ServerDefinition, ServerSnapshot } from '../types.js';
import { readCachedSnapshot, writeCachedSnapshot } from './cache.js';
import { serverIdentity, type ServerOrigin } from './server-identity.js';
import { DEFAULT_MAX_PAGES } from './list.js';
import { connectServer } from './session.js';
import type { OAuthOptions } from './oauth/provider.js';
import type { DeclaredCapabilities } from '../declared-capabilities.js';
import { mapLimited, SERVER_START_CONCURRENCY } from '../map-limited.js';

export { toolCacheKey, toolCacheFile } from './cache.js';
export type { OAuthOptions, OAuthInteractive } from './oauth/provider.js';

export interface ConnectProgress {
  server: string;
  phase: 'start' | 'done' | 'error' | 'cached';
  elapsedMs?: number;
}

export interface ToolListCacheOptions {
  dir: string;
  ttlMs: number;
  /** Current time in ms (passed in: core never reads the clock itself). */
  now: number;
  /** Where local servers start from: entries answer only while a server's files are unchanged (server-identity.ts). */
  origin?: ServerOrigin;
  /** List every server anew and store the lists (a gate's fresh run keeps the cache current for the next one). */
  writeOnly?: boolean;
}

export interface ConnectOptions {
  /** The largest message read from a server (stdio line or HTTP answer); default 256 MB. */
  maxMessageBytes?: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** null/undefined: neither read nor write the cache. */
  cache?: ToolListCacheOptions | null;
  onProgress?: (p: ConnectProgress) => void;
  /** Keep the server's stderr on the snapshot (for --debug). */
  captureStderr?: boolean;
  /** Stop a list whose cursor keeps going after this many pages (default 1,000). */
  maxPages?: number;
  /** Non-fatal problems, e.g. a cache file that could not be written. */
  onWarning?: (text: string) => void;
  /** Monotonic clock in ms for elapsedMs (default performance.now). */
  clock?: () => number;
  /** Replaces the real transports; tests pass the SDK's in-memory pair. */
  createTransport?: (def: ServerDefinition) => SdkTransport;
  /** OAuth for remote servers: the token store and, when asked for, a browser. */
  oauth?: OAuthOptions;
  /**
   * What to declare to the servers (a client's roots, elicitation, sampling): lists are taken, and cached, with it.
   * Requests the servers send under it are answered without a user (no roots, elicitation declined, sampling refused).
   */
  capabilities?: DeclaredCapabilities;
}

async function snapshotOne(def: ServerDefinition, opts: ConnectOptions): Promise<ServerSnapshot> {
  const cache = opts.cache ?? null;
  const identity = cache ? serverIdentity(def, cache.origin) : '';
  if (cache && cache.writeOnly !== true) {
    const hit = await readCachedSnapshot(def, {
      ...cache,
      identity,
      oauthStore: opts.oauth?.storeFile,
      capabilities: opts.capabilities,
    });
    if (hit) {
      opts.onProgress?.({ server: def.name, phase: 'cached' });
      return hit;
    }
  }
  opts.onProgress?.({ server: def.name, phase: 'start' });
  const snap = await connectServer(def, {
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
    maxPages: opts.maxPages ?? DEFAULT_MAX_PAGES,
    captureStderr: opts.captureStderr === true,
    clock: opts.clock ?? (() => performance.now()),
    createTransport: opts.createTransport,
    oauth: opts.oauth,
    capabilities: opts.capabilities,
    ...(opts.maxMessageBytes ? { maxMessageBytes: opts.maxMessageBytes } : {}),
  });
  opts.onProgress?.({ server: def.name, phase: snap.status === 'ok' ? 'done' : 'error', elapsedMs: snap.elapsedMs });
  if (cache && snap.status === 'ok') {
    try {
      await writeCachedSnapshot(def, snap, {
        ...cache,
        identity,
        oauthStore: opts.oauth?.storeFile,
        capabilities: opts.capabilities,
      });
    } catch (e) {
      opts.onWarning?.(`could not write the tool-list cache in ${cache.dir}: ${errorText(e)}`);
    }
  }
  return snap;
}

/**
 * Ad-hoc servers without an explicit name take serverInfo.name; clashes get "-2", "-3", … in definition order.
 * Explicitly named servers keep their names.
 */
export function applyServerNames(defs: ServerDefinition[], snaps: ServerSnapshot[]): ServerSnapshot[] {
  const taken = new Set(defs.filter((d) => !d.nameFromServer).map((d) => d.name));
  return snaps.map((snap, i) => {
    const def = defs[i];
    if (!def?.nameFromServer) return snap;
    const base = snap.serverInfo?.name?.trim() || def.name;
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
    taken.add(name);
    return { ...snap, name };
  });
}

/** Connects to every server, 16 at a time, each under its own timeout; failures become status "error". */
export async function connectServers(defs: ServerDefinition[], opts: ConnectOptions): Promise<ServerSnapshot[]> {
  // One listener on the caller's signal, fanned out to every server (avoids MaxListeners warnings).
  const outer = opts.signal;
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const forward = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  try {
    const snaps = await mapLimited(defs, SERVER_START_CONCURRENCY, (def) =>
      snapshotOne(def, { ...opts, signal: controller.signal }),
    );
    return applyServerNames(defs, snaps);
  } finally {
    outer?.removeEventListener('abort', forward);
  }
}
