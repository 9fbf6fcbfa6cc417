/**
 * The servers behind `serve`: each starts on its first use, is restarted after a crash with back-off,
 * is marked unhealthy after repeated failures, may stop when idle, and is closed with its whole process tree.
 * One bad server never holds up another: every slot is independent.
 */
import { capabilitiesKey, type DeclaredCapabilities } from '../core/declared-capabilities.js';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/server';
import type { ServerRequestHandler, ServerSession, ServerSessionOptions } from '../core/connect/server-session.js';
import { DEFAULT_MAX_PAGES } from '../core/connect/list.js';
import type { ServerProcess } from '../core/connect/server-process.js';
import type { OAuthOptions, SmartOAuthProvider } from '../core/connect/oauth/provider.js';
import { SmartError, errorText } from '../process/errors.js';
import type { ServerDefinition, ServerSnapshot } from '../core/types.js';
import { SessionCalls } from './draining.js';
import { unsetReason } from './unset-variables.js';

/** Failures in a row after which a server is reported unhealthy. */
export const UNHEALTHY_AFTER = 3;
const MAX_BACKOFF_MS = 30_000;
const BASE_BACKOFF_MS = 500;

export interface PoolOptions {
  spawnTimeoutMs: number;
  callTimeoutMs: number;
  /** Milliseconds without a call after which a server is stopped (0: never). */
  idleTimeoutMs: (server: string) => number;
  /** What to declare to the servers (decided once the client has initialized). */
  capabilities: () => DeclaredCapabilities;
  onServerRequest?: (server: string, ...rest: Parameters<ServerRequestHandler>) => ReturnType<ServerRequestHandler>;
  /** A server asked for a capability not declared to it (see ServerSessionOptions.onUndeclaredRequest). */
  onUndeclaredRequest?: (
    server: string,
    ...rest: Parameters<ServerRequestHandler>
  ) => ReturnType<ServerRequestHandler> | undefined;
  onNotification?: (server: string, method: string, params: Record<string, unknown> | undefined) => void;
  log: (text: string) => void;
  /** --debug: says when each server's start begins (before its process is spawned). */
  debug?: (text: string) => void;
  now: () => number;
  /** Replaces the real transports (tests use the SDK's in-memory pair). */
  createTransport?: ServerSessionOptions['createTransport'];
  /**
   * Stored OAuth tokens for remote servers (never interactive: serve opens no browser). One provider per server
   * lives as long as the pool, so an expired token is refreshed on the next 401 without a restart.
   */
  oauth?: OAuthOptions;
  /** The process started ahead for this server at serve's start (prespawn.ts), taken by its first start. */
  prespawned?: (def: ServerDefinition) => ServerProcess | undefined;
}

export type Health = 'idle' | 'starting' | 'running' | 'backoff' | 'unhealthy';

interface Slot {
  def: ServerDefinition;
  session?: ServerSession;
  starting?: Promise<ServerSession>;
  failures: number;
  retryAt: number;
  lastError?: string;
  inFlight: number;
  idleTimer?: NodeJS.Timeout;
  starts: number;
  auth?: Promise<SmartOAuthProvider | undefined>;
  /** What the running session was started with (MCP fixes a client's capabilities at initialize). */
  declared?: DeclaredCapabilities;
}

/** Back-off before the next start: none after the first failure, then 1 s, 2 s, 4 s … up to 30 s. */
export function backoffMs(failures: number): number {
  return failures <= 1 ? 0 : Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (failures - 1));
}

export class ServerPool {
  private readonly slots = new Map<string, Slot>();
  private readonly calls = new SessionCalls<ServerSession>();
  private closed = false;
  /** Aborted by closeAll: a start still under way then ends its process at once instead of finishing initialize. */
  private readonly closing = new AbortController();

  constructor(
    defs: readonly ServerDefinition[],
    private readonly opts: PoolOptions,
  ) {
    for (const def of defs) this.slots.set(def.name, { def, failures: 0, retryAt: 0, inFlight: 0, starts: 0 });
  }

  has(server: string): boolean {
    return this.slots.has(server);
  }

  health(server: string): { state: Health; failures: number; lastError?: string } {
    const slot = this.slots.get(server);
    if (!slot) return { state: 'unhealthy', failures: 0, lastError: 'no definition to start it' };
    const unset = unsetReason(slot.def);
    if (unset) return { state: 'unhealthy', failures: slot.failures, lastError: unset };
    let state: Health = slot.session?.state === 'ready' ? 'running' : slot.starting ? 'starting' : 'idle';
    if (state !== 'running' && slot.failures >= UNHEALTHY_AFTER) state = 'unhealthy';
    else if (state === 'idle' && slot.retryAt > this.opts.now()) state = 'backoff';
    return { state, failures: slot.failures, lastError: slot.lastError };
  }

  /** How many times each server was started (for tests and the benchmark). */
  starts(): Record<string, number> {
    return Object.fromEntries([...this.slots].map(([name, s]) => [name, s.starts]));
  }

  /** What the server's running session was started declaring (undefined when it is not running). */
  declaredWith(server: string): DeclaredCapabilities | undefined {
    const slot = this.slots.get(server);
    return slot?.session?.state === 'ready' ? slot.declared : undefined;
  }

  /** The sessions that are running now. */
  running(): ServerSession[] {
    return [...this.slots.values()].flatMap((s) => (s.session?.state === 'ready' ? [s.session] : []));
  }

  /** Process ids of the running stdio servers. */
  pids(): number[] {
    const sessions = [...this.slots.values()].map((s) => s.session);
    return [...sessions, ...this.calls.draining()].flatMap((s) => {
      const pid = s?.pid();
      return pid === undefined ? [] : [pid];
    });
  }

  /** True when what is declared now (the connected clients' roots, elicitation, sampling) differs from the session's. */
  private lacksCapabilities(slot: Slot): boolean {
    const now = this.opts.capabilities();
    // The same declaration object (serve's Declaration replaces it only when it changes): nothing to compare.
    if (now === slot.declared) return false;
    return capabilitiesKey(now) !== capabilitiesKey(slot.declared);
  }

  private slot(server: string): Slot {
    const slot = this.slots.get(server);
    if (!slot) throw new SmartError('SERVE_SERVER_UNAVAILABLE', { server, reason: 'it has no definition to start it' });
    return slot;
  }

  private fail(slot: Slot, reason: string): void {
    slot.failures++;
    slot.lastError = reason;
    slot.retryAt = this.opts.now() + backoffMs(slot.failures);
    if (slot.failures === UNHEALTHY_AFTER)
      this.opts.log(`server "${slot.def.name}" is unhealthy after ${slot.failures} failures: ${reason}`);
  }

  /** The running session, starting the server if needed. */
  async session(server: string): Promise<ServerSession> {
    const slot = this.slot(server);
    if (this.closed) throw new SmartError('SERVE_SERVER_UNAVAILABLE', { server, reason: 'serve is shutting down' });
    if (slot.session?.state === 'ready') {
      if (!this.lacksCapabilities(slot)) return slot.session;
      // A client that declares other capabilities (elicitation, sampling, roots) arrived after this server started:
      // restart it, so it lists the tools that client sees and its requests can reach that client. Calls running on
      // the old session finish there (draining.ts).
      const stale = slot.session;
      slot.session = undefined;
      this.clearIdle(slot);
      const running = this.calls.count(stale);
      this.opts.log(
        `server "${server}" restarts to declare what a newly connected client accepts` +
          (running > 0 ? ` (the old process ends when its ${running} call(s) in flight do)` : ''),
      );
      await this.calls.retire(stale);
    }
    if (slot.starting) {
      // A start under way declares what was declared when it began: one that a client's declaration has overtaken
      // since (a cold start racing the client's first request) is restarted, or that client misses its tools.
      const started = await slot.starting;
      return slot.session === started && this.lacksCapabilities(slot) ? this.session(server) : started;
    }
    const wait = slot.retryAt - this.opts.now();
    if (wait > 0)
      throw new SmartError('SERVE_SERVER_BACKOFF', {
        server,
        seconds: Math.ceil(wait / 1000),
        reason: slot.lastError ?? 'it failed',
      });
    slot.starting = this.start(slot).finally(() => (slot.starting = undefined));
    return slot.starting;
  }

  private async start(slot: Slot): Promise<ServerSession> {
    const name = slot.def.name;
    // A variable the definition needs is not set: the server is not started with an empty string in its place.
    const unset = unsetReason(slot.def);
    if (unset) {
      this.fail(slot, unset);
      throw new SmartError('SERVE_SERVER_UNAVAILABLE', { server: name, reason: unset });
    }
    this.opts.debug?.(`server "${name}" starting`);
    const answer = this.opts.onServerRequest;
    const notify = this.opts.onNotification;
    // The SDK client loads only when a server first starts: a start answered from the cache never needs it.
    const { ServerSession } = await import('../core/connect/server-session.js');
    if (this.opts.oauth && !slot.auth) {
      const { createOAuthProvider } = await import('../core/connect/oauth/provider.js');
      slot.auth = createOAuthProvider(slot.def, this.opts.oauth);
    }
    const authProvider = await slot.auth?.catch(() => undefined);
    const declared = this.opts.capabilities();
    slot.declared = declared;
    const session: ServerSession = new ServerSession(slot.def, {
      authProvider,
      maxPages: DEFAULT_MAX_PAGES,
      createTransport: this.opts.createTransport,
      capabilities: declared,
      prespawned: this.opts.createTransport ? undefined : this.opts.prespawned?.(slot.def),
      onServerRequest: answer ? (method, params, signal) => answer(name, method, params, signal) : undefined,
      onNotification: notify ? (method, params) => notify(name, method, params) : undefined,
      onUndeclaredRequest: (method, params, signal) => this.opts.onUndeclaredRequest?.(name, method, params, signal),
      onClose: () => {
        if (slot.session !== session) return;
        slot.session = undefined;
        this.clearIdle(slot);
        if (!this.closed) {
          const reason = session.describe(new Error('the connection closed'), this.opts.spawnTimeoutMs).message;
          this.fail(slot, reason);
          this.opts.log(`server "${name}" stopped: ${reason}`);
          void session.close();
        }
      },
    });
    slot.starts++;
    try {
      await session.start({ timeoutMs: this.opts.spawnTimeoutMs, signal: this.closing.signal });
    } catch (e) {
      const reason = errorText(e);
      this.fail(slot, reason);
      throw new SmartError('SERVE_SERVER_UNAVAILABLE', { server: name, reason }, { cause: e });
    }
    if (this.closed) {
      await session.close();
      throw new SmartError('SERVE_SERVER_UNAVAILABLE', { server: name, reason: 'serve is shutting down' });
    }
    slot.session = session;
    this.armIdle(slot);
    return session;
  }

  /**
   * Runs `fn` on the server's session: starts it if needed, accounts failures, keeps the idle clock. A call whose
   * `signal` aborted (its client cancelled it, or serve did: a held call's bound) is not the server's failure.
   */
  async run<T>(server: string, fn: (session: ServerSession) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const slot = this.slot(server);
    // A running session that takes the call as it is (nearly every call) is used without session()'s await.
    const running = slot.session;
    const session =
      !this.closed && running?.state === 'ready' && !this.lacksCapabilities(slot)
        ? running
        : await this.session(server);
    slot.inFlight++;
    this.calls.begin(session);
    this.clearIdle(slot);
    try {
      const out = await fn(session);
      slot.failures = 0;
      slot.lastError = undefined;
      return out;
    } catch (e) {
      if (session.state !== 'ready') {
        // The server went away during the call: say how, naming it.
        const reason = session.describe(e, this.opts.callTimeoutMs).message;
        throw new SmartError('SERVE_SERVER_UNAVAILABLE', { server, reason }, { cause: e });
      }
      if (signal?.aborted) throw e;
      if (isTimeout(e)) {
        // A slow tool is not a failed server: it keeps answering other calls, so a later crash of it restarts at once
        // (counting timeouts as failures held the restart back for seconds).
        slot.lastError = `no answer within ${this.opts.callTimeoutMs} ms`;
        throw new SmartError('SERVE_CALL_TIMEOUT', { server, ms: this.opts.callTimeoutMs }, { cause: e });
      }
      throw e;
    } finally {
      slot.inFlight--;
      this.calls.end(session);
      this.armIdle(slot);
    }
  }

  /** Starts (if needed) and lists everything the server has, as a snapshot. */
  async list(server: string): Promise<ServerSnapshot> {
    const slot = this.slot(server);
    return this.run(server, async (session) => {
      const listed = await session.listEverything(undefined, this.opts.spawnTimeoutMs, DEFAULT_MAX_PAGES);
      const snap: ServerSnapshot = {
        name: server,
        transport: session.transportKind,
        source: slot.def.source,
        status: 'ok',
        ...listed.lists,
      };
      if (session.serverInfo) snap.serverInfo = session.serverInfo;
      if (session.protocolVersion) snap.protocolVersion = session.protocolVersion;
      if (session.instructions !== undefined) snap.instructions = session.instructions;
      return snap;
    });
  }

  private clearIdle(slot: Slot): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
  }

  private armIdle(slot: Slot): void {
    const ms = this.opts.idleTimeoutMs(slot.def.name);
    if (ms <= 0 || slot.inFlight > 0 || !slot.session) return;
    this.clearIdle(slot);
    slot.idleTimer = setTimeout(() => {
      const session = slot.session;
      if (!session || slot.inFlight > 0) return;
      slot.session = undefined;
      this.opts.log(`server "${slot.def.name}" stopped after ${ms} ms idle`);
      void session.close();
    }, ms);
    slot.idleTimer.unref();
  }

  /** Ends every server and its whole process tree. */
  async closeAll(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    const draining = this.calls.closeAll();
    await Promise.all(
      [...this.slots.values()].map(async (slot) => {
        this.clearIdle(slot);
        const pending = slot.starting?.catch(() => undefined);
        const session = slot.session;
        slot.session = undefined;
        await session?.close();
        const late = await pending;
        await late?.close();
        await (await slot.auth?.catch(() => undefined))?.close();
      }),
    );
    await draining;
  }
}

function isTimeout(e: unknown): boolean {
  return e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout;
}
