/**
 * Wiring a `serve --transport http` process as a replica: the keys that seal request state (seal.ts's stateKeys:
 * --state-key-file, else env MCP_SMART_STATE_KEY_FILE, else a random key of this process: a single replica behaves as
 * before; read with the flags, before serve loads this), its id (new each start: what a process held dies with it),
 * the address other replicas reach it at (env MCP_SMART_REPLICA_URL, else the URL it listens on) and, with a
 * PostgreSQL store, its registration there.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connectionString, expandStoreUrl, isPostgresUrl } from '../../core/store/url.js';
import type { Bridge } from '../bridge.js';
import { ReplicaRegistry } from './registry.js';
import { INTERNAL_PATH, Replicas } from './replicas.js';
import type { StateKeys } from './seal.js';

export const REPLICA_URL_ENV = 'MCP_SMART_REPLICA_URL';

export interface ReplicaHandle {
  id: string;
  /** Answers the internal endpoint; false when the path is not its own. */
  internal: (path: string, req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
  close: () => Promise<void>;
}

/** Seals the bridge's states for this replica and registers it (PostgreSQL store only). */
export function startReplica(opts: {
  keys: StateKeys;
  bridge: Bridge;
  url: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The usage store serve learns into (--store, else the config's): a PostgreSQL one holds the registry. */
  store?: { spec: string; where: string } | undefined;
  roundTimeoutMs: number;
  log: (text: string) => void;
  debug?: ((text: string) => void) | undefined;
}): ReplicaHandle {
  const id = randomUUID();
  const address = new URL(opts.env[REPLICA_URL_ENV] || opts.url).origin;
  const store = opts.store && isPostgresUrl(opts.store.spec) ? opts.store : undefined;
  const registry = store
    ? new ReplicaRegistry(connectionString(expandStoreUrl(store.spec, opts.env, store.where), opts.env), opts.log)
    : undefined;
  const replicas = new Replicas({
    id,
    address,
    keys: opts.keys,
    registry,
    roundTimeoutMs: opts.roundTimeoutMs,
    now: () => Date.now(),
    log: opts.log,
    debug: opts.debug,
  });
  opts.debug?.(`replica ${id} at ${address}; request state sealed with ${opts.keys.source}`);
  opts.bridge.states = replicas;
  registry?.start(id, address);
  return {
    id,
    internal: async (path, req, res) => {
      if (path !== INTERNAL_PATH) return false;
      await replicas.handleInternal(req, res, opts.bridge);
      return true;
    },
    close: async () => registry?.stop(id),
  };
}
