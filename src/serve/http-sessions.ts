/**
 * The 2025-era sessions of `serve --transport http`: each one an SDK Server on its own transport, kept while the
 * client uses it. A session with no request in flight and no open GET stream for `idleMs` is closed (a client that
 * left without DELETE), and at most `max` are kept: a new session past the cap closes the one whose last request
 * is the oldest, among those with none in flight. Closing a session closes
 * its Server, which releases what it holds in the runtime (list-change listener, elicitation/sampling asker).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/server';
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { cancelledCall, isCallId } from './wire-call-params.js';
import { batchesRemoved, batchRefusal, idInUse, INVALID_REQUEST, requestIds } from '../core/wire/request-rules.js';
import { HttpRefusal } from './http-body.js';

export interface SessionLimits {
  /** A session with nothing in flight this long is closed. */
  idleMs: number;
  /** Sessions kept open at most. */
  max: number;
}

export interface Session {
  transport: NodeStreamableHTTPServerTransport;
  server: Server;
  /** The token subject that opened it (serve.auth): only its requests reach it. Undefined: no identity. */
  owner?: string | undefined;
}

interface Entry extends Session {
  /** POST/DELETE requests of this session not yet answered. */
  requests: number;
  /** Open GET streams (a client that is still connected). */
  streams: number;
  /** When the last request arrived or was answered. */
  lastUsed: number;
  /** Requests in flight by JSON-RPC id: what stops counting one the client cancelled. */
  pending: Map<string, () => void>;
  /** The protocol revision its initialize negotiated. */
  version?: string;
  timer?: NodeJS.Timeout;
}

export class SessionTable {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly limits: SessionLimits,
    private readonly log: (text: string) => void = () => undefined,
    private readonly now: () => number = () => Date.now(),
  ) {}

  get size(): number {
    return this.entries.size;
  }

  servers(): Server[] {
    return [...this.entries.values()].map((e) => e.server);
  }

  get(id: string): Session | undefined {
    return this.entries.get(id);
  }

  /**
   * Room for one more session: true when under the cap, or once the session unused the longest (no request in
   * flight; an open GET stream does not count) has been closed; false when every session has a request in flight.
   */
  async makeRoom(): Promise<boolean> {
    if (this.entries.size < this.limits.max) return true;
    let oldest: [string, Entry] | undefined;
    for (const pair of this.entries)
      if (pair[1].requests === 0 && (!oldest || pair[1].lastUsed < oldest[1].lastUsed)) oldest = pair;
    if (!oldest) return false;
    this.log(`closing the session unused the longest: ${this.entries.size} are open, the limit (--max-sessions)`);
    await this.close(oldest[0]);
    return this.entries.size < this.limits.max;
  }

  add(id: string, session: Session): void {
    const entry: Entry = { ...session, requests: 0, streams: 0, lastUsed: this.now(), pending: new Map() };
    this.entries.set(id, entry);
    this.arm(id, entry);
  }

  /** Its initialize negotiated `version` (the SDK's Server tells its transport, http.ts). */
  negotiated(id: string, version: string): void {
    const entry = this.entries.get(id);
    if (entry) entry.version = version;
  }

  /**
   * Throws the refusal of a request the session cannot take: a batch once the session's revision has none, a
   * request reusing the id of one in flight (the SDK's transport routes answers by id: the first was never answered).
   */
  check(id: string, body: unknown): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    if (Array.isArray(body) && batchesRemoved(entry.version))
      throw new HttpRefusal(400, INVALID_REQUEST, `Invalid Request: ${batchRefusal('request', entry.version)}`);
    const ids = requestIds(body);
    const keys = ids.map((i) => JSON.stringify(i));
    const used = keys.findIndex((k, i) => entry.pending.has(k) || keys.indexOf(k) !== i);
    if (used !== -1)
      throw new HttpRefusal(
        400,
        INVALID_REQUEST,
        `Invalid Request: ${idInUse(ids[used]!)}`,
        Array.isArray(body) ? null : ids[used]!,
      );
  }

  /** Removes a session whose transport has closed (DELETE, or closed here). */
  forget(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.entries.delete(id);
  }

  /**
   * Serves one request of a known session, counting it as in flight until its response is finished or dropped: by
   * `run` when given (a call answered outside the SDK, http-forward-calls.ts), else by the session's transport.
   */
  async serve(
    id: string,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    run?: () => Promise<void>,
  ): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return;
    const kind = req.method === 'GET' ? 'streams' : 'requests';
    entry[kind] += 1;
    if (kind === 'requests') entry.lastUsed = this.now();
    clearTimeout(entry.timer);
    entry.timer = undefined;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      entry[kind] -= 1;
      if (kind === 'requests') entry.lastUsed = this.now();
      if (entry.requests + entry.streams === 0 && this.entries.get(id) === entry) this.arm(id, entry);
    };
    res.once('close', finish);
    // A request the client cancels gets no answer, and its response may stay open until the session closes: from the
    // cancellation on it is not in flight, or it would keep its session from idling out and from being evicted.
    // The ids of a batch (2025-03-26) are in use too; a cancellation stops counting a single request only.
    const keys = requestIds(body).map((i) => JSON.stringify(i));
    const mark = keys.length === 1 && !Array.isArray(body) ? finish : (): void => undefined;
    for (const key of keys) {
      entry.pending.set(key, mark);
      res.once('close', () => entry.pending.get(key) === mark && entry.pending.delete(key));
    }
    const cancelled = cancelledKey(body);
    if (cancelled !== undefined) {
      entry.pending.get(cancelled)?.();
      // Never answered now: its id is free again (the SDK routes a new request's answer to the new response).
      entry.pending.delete(cancelled);
    }
    try {
      await (run ? run() : entry.transport.handleRequest(req, res, body));
    } finally {
      if (res.writableEnded || res.destroyed) finish();
    }
  }

  async close(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.forget(id);
    await entry.server.close().catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((id) => this.close(id)));
  }

  private arm(id: string, entry: Entry): void {
    entry.timer = setTimeout(() => {
      if (entry.requests + entry.streams > 0) return;
      this.log(`closing a session idle for ${this.limits.idleMs} ms (--session-idle)`);
      void this.close(id);
    }, this.limits.idleMs);
    entry.timer.unref();
  }
}

/** The key of the request a single notifications/cancelled names; undefined for anything else. */
function cancelledKey(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const id = cancelledCall(body)?.id;
  return isCallId(id) ? JSON.stringify(id) : undefined;
}
