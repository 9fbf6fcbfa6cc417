/**
 * How serve's runtime (runtime.ts) builds its parts from its options: the learner and the store it writes, the pool
 * of servers behind and how they reach back to the clients, and find_tool's finder with its ranking inputs.
 */
import { dirname } from 'node:path';
import { secretValues } from '../core/connect/secrets.js';
import { unattendedAnswer } from '../core/connect/unattended.js';
import { FileUsageStore } from '../core/store/file.js';
import type { Declaration } from './declared.js';
import { ToolFinder, type FinderDeps } from './find.js';
import type { InFlight } from './in-flight.js';
import { Learner } from './learn.js';
import { ServerPool } from './pool.js';
import type { RuntimeOptions } from './runtime-options.js';
import { unwrittenDir } from './unwritten.js';

/** The learner calls and finds feed: the usage store (none without learning), the recorded cases, the scope. */
export function learnerFor(opts: RuntimeOptions): Learner {
  const secrets = opts.setup.definitions.flatMap((d) => secretValues(d));
  const store = opts.learn ? (opts.store ?? new FileUsageStore(opts.setup.usageStore)) : undefined;
  return new Learner({
    store,
    // A database's calls a shutdown could not write are kept beside the user's own store, for the next serve.
    // Its answers wait until their learned call is committed (learn-commit.ts): a SIGKILL loses none of them.
    ...(store?.kind === 'postgres'
      ? { keepDir: unwrittenDir(dirname(opts.setup.usageStore), store.label), commit: {} }
      : {}),
    record: opts.record,
    user: opts.user,
    ...(opts.scope ? { scope: opts.scope } : {}),
    secrets,
    now: opts.now,
    log: opts.log,
    usage: opts.usage,
  });
}

/** What the servers behind reach back to: the clients' declaration, the calls in flight, serve's notice handler. */
export interface PoolHooks {
  declaration: Declaration;
  inFlight: InFlight;
  notification: (server: string, method: string, params: Record<string, unknown> | undefined) => void;
}

/** The servers behind, started on first use, each idle for its configured time at most. */
export function poolFor(opts: RuntimeOptions, hooks: PoolHooks): ServerPool {
  const { declaration, inFlight } = hooks;
  const config = opts.setup.config;
  const idle = (server: string): number => (config.serve?.servers?.[server]?.idleTimeout ?? 0) * 1000;
  return new ServerPool(opts.setup.definitions, {
    spawnTimeoutMs: opts.spawnTimeoutMs,
    callTimeoutMs: opts.callTimeoutMs,
    idleTimeoutMs: idle,
    capabilities: () => declaration.current(),
    // With no connected client that accepts it (an HTTP client that declared it has left), the request is still
    // answered: no roots, elicitation declined, sampling refused.
    onServerRequest: (server, method, params, signal) =>
      inFlight.askerFor(server, method)?.ask(method, params, signal) ?? unattendedAnswer(method),
    // A server asking for what serve did not declare to it (its session predates the declaration, held by a call):
    // the calling client is asked when its request declared it; else -32601, and a 2026-07-28 call fails -32021.
    onUndeclaredRequest: (server, method, params, signal) =>
      inFlight.askerFor(server, method, true)?.ask(method, params, signal),
    onNotification: (server, method, params) => hooks.notification(server, method, params),
    log: opts.log,
    ...(opts.debug ? { debug: opts.debug } : {}),
    now: opts.now,
    ...opts.pool,
  });
}

/** What find_tool reads from the runtime as it is at each find. */
export type FinderLinks = Pick<FinderDeps, 'view' | 'known' | 'found' | 'unavailable' | 'unstarted'>;

/** find_tool's finder: the served list, the ranking's usage and scope, the count cache and the index cache. */
export function finderFor(opts: RuntimeOptions, links: FinderLinks): ToolFinder {
  const { scope } = opts;
  return new ToolFinder({
    ...links,
    config: opts.setup.config,
    ...(opts.setup.held ? { held: opts.setup.held } : {}),
    usage: opts.usage,
    ...(scope ? { scope: (subject?: string) => scope.weights(subject) } : {}),
    now: opts.now,
    counting: opts.counting,
    indexCacheDir: opts.indexCacheDir,
    ...(opts.debug ? { debug: opts.debug } : {}),
  });
}
