/** The only module that imports the MCP SDK: connects to servers and produces ServerSnapshots. */
import type { ServerDefinition, ServerSnapshot } from '../../types.js';

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
}

export interface ConnectOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** null/undefined: neither read nor write the cache. */
  cache?: ToolListCacheOptions | null;
  onProgress?: (p: ConnectProgress) => void;
  /** Keep the server's stderr on the snapshot (for --debug). */
  captureStderr?: boolean;
}

/** Connects to every server in parallel, each under its own timeout; failures become status "error". */
export async function connectServers(defs: ServerDefinition[], opts: ConnectOptions): Promise<ServerSnapshot[]> {
  void defs;
  void opts;
  throw new Error('not implemented');
}
