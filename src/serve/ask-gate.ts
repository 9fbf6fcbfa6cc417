/**
 * Who a 2025 server's question belongs to. A server behind asks (elicitation/create, sampling/createMessage,
 * roots/list) inside its handling of a call, but its request does not say which call: over stdio nothing on the wire
 * ties the two, and serve shares one connection per server among all its clients. So serve never has to guess: per
 * server behind, a call whose client could be asked (it declared elicitation, sampling or roots) runs alone, and calls
 * that cannot be asked run side by side with each other. A question then arrives while exactly one call that can
 * answer it is in flight — it is that call's — or while none is, and serve answers it itself (declined, no roots,
 * refused). The price: calls of askers to one server wait for each other.
 *
 * A 2026-07-28 call held by the bridge between its input_required rounds keeps a Pass: its server is blocked on the
 * answer, so it cannot ask again, and the call leaves the gate while its client decides (a client that never comes
 * back holds up nobody); the retry that resumes it enters again, ahead of calls not yet started, before its answers
 * reach the server. So at any moment at most one call that may be asked is running on a server, whichever era.
 */

import { SmartError } from '../process/errors.js';

type Mode = 'alone' | 'shared';

/**
 * Calls of one client that wait at most for one server (a client sending thousands at once is refused past this, not
 * queued). Which client a call is from: client-key.ts.
 */
export const MAX_WAITING_PER_CLIENT = 64;
/** Calls that wait at most for one server, all clients together. */
export const MAX_WAITING = 256;

interface Waiter {
  mode: Mode;
  /** A held call resuming: admitted before calls not yet started (after other resuming calls). */
  resuming: boolean;
  /** Its client (client-key.ts); undefined: one client for all such calls. */
  client?: string;
  /** Its client's calls already waiting when it came: the queue takes one call of each client in turn. */
  turn: number;
  grant: () => void;
}

/**
 * One call's place on a server's gate, which it can leave while held (waiting for its client) and enter again to
 * resume. `close` ends it for good: a re-entry still waiting then gives its place straight back.
 */
export class Pass {
  private state: 'in' | 'out' | 'closed' = 'in';

  constructor(
    private readonly gate: AskGate,
    readonly server: string,
    readonly mode: Mode,
  ) {}

  /** True while the call holds its place (running, not held). */
  get inside(): boolean {
    return this.state === 'in';
  }

  private get ended(): boolean {
    return this.state === 'closed';
  }

  /** The call waits for its client: the server's next call may run. */
  leave(): void {
    if (this.state !== 'in') return;
    this.state = 'out';
    this.gate.leave(this.server);
  }

  /** The call resumes: waits for the gate (ahead of new calls) unless `signal` aborts first. */
  async enter(signal: AbortSignal): Promise<void> {
    if (this.state !== 'out') return;
    await this.gate.enter(this.server, this.mode, signal, true);
    // Closed while it waited (the call ended meanwhile): its place goes straight back.
    if (this.ended) return this.gate.leave(this.server);
    this.state = 'in';
  }

  /** The call ended (answered, failed, cancelled or released). */
  close(): void {
    const was = this.state;
    this.state = 'closed';
    if (was === 'in') this.gate.leave(this.server);
  }
}

interface Lane {
  /** Calls running now and how: one 'alone', or any number 'shared'. */
  running: number;
  mode?: Mode;
  queue: Waiter[];
}

export class AskGate {
  private readonly lanes = new Map<string, Lane>();

  constructor(
    private readonly maxWaiting = MAX_WAITING,
    private readonly maxPerClient = MAX_WAITING_PER_CLIENT,
  ) {}

  /** Runs `fn` once `server` admits it: `alone` (a call that may be asked) or `shared`; gives up when `signal` aborts. */
  async run<T>(
    server: string,
    mode: Mode,
    signal: AbortSignal | undefined,
    fn: () => Promise<T>,
    client?: string,
  ): Promise<T> {
    const pass = await this.admit(server, mode, signal, client);
    try {
      return await fn();
    } finally {
      pass.close();
    }
  }

  /** Waits until `server` admits a call (as `run`); the Pass it gets can leave and enter again (a held call). */
  async admit(server: string, mode: Mode, signal: AbortSignal | undefined, client?: string): Promise<Pass> {
    await this.enter(server, mode, signal, false, client);
    return new Pass(this, server, mode);
  }

  /** Calls waiting to be admitted to `server`, of one client when `client` is given (for tests and --debug). */
  waiting(server: string, client?: string): number {
    const queue = this.lanes.get(server)?.queue ?? [];
    return client === undefined ? queue.length : queue.filter((w) => w.client === client).length;
  }

  private lane(server: string): Lane {
    let lane = this.lanes.get(server);
    if (!lane) this.lanes.set(server, (lane = { running: 0, queue: [] }));
    return lane;
  }

  private admits(lane: Lane, mode: Mode): boolean {
    return lane.running === 0 || (mode === 'shared' && lane.mode === 'shared');
  }

  /** @internal (Pass) */
  enter(
    server: string,
    mode: Mode,
    signal: AbortSignal | undefined,
    resuming: boolean,
    client?: string,
  ): Promise<void> {
    const lane = this.lane(server);
    // First come, first served within a client: a shared call does not pass its client's call waiting to run alone.
    // Between clients in turn: a call goes after the calls of every client that has no more waiting than its own
    // has, so a client with many calls waiting holds another's up by one of its calls, not by all of them. A resuming
    // call passes calls that have not started (its client has answered; the server is waiting for that answer).
    const mine = resuming ? 0 : lane.queue.filter((w) => !w.resuming && w.client === client).length;
    const ahead = resuming ? lane.queue.filter((w) => w.resuming).length : placeOf(lane.queue, mine);
    // A new call runs at once only with nobody waiting (a shared one never passes a waiting call that runs alone).
    if ((resuming ? ahead === 0 : lane.queue.length === 0) && this.admits(lane, mode)) {
      lane.running++;
      lane.mode = mode;
      return Promise.resolve();
    }
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const full = !resuming && (mine >= this.maxPerClient || lane.queue.length >= this.maxWaiting);
    if (full)
      return Promise.reject(
        new SmartError('SERVE_SERVER_UNAVAILABLE', {
          server,
          reason:
            mine >= this.maxPerClient
              ? `this client already has ${this.maxPerClient} calls waiting for it, the limit per client (calls that may be asked run one at a time, so that its questions reach the right client); try again when one has ended`
              : `${this.maxWaiting} calls are already waiting for it, the limit for all clients (calls that may be asked run one at a time, so that its questions reach the right client); try again when one has ended`,
        }),
      );
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        mode,
        resuming,
        client,
        turn: mine,
        grant: () => {
          signal?.removeEventListener('abort', gone);
          resolve();
        },
      };
      const gone = (): void => {
        const at = lane.queue.indexOf(waiter);
        if (at < 0) return;
        lane.queue.splice(at, 1);
        this.admitNext(server, lane);
        reject(signal!.reason as Error);
      };
      signal?.addEventListener('abort', gone, { once: true });
      lane.queue.splice(ahead, 0, waiter);
    });
  }

  /** @internal (Pass) */
  leave(server: string): void {
    const lane = this.lanes.get(server);
    if (!lane) return;
    lane.running--;
    if (lane.running === 0) lane.mode = undefined;
    this.admitNext(server, lane);
  }

  private admitNext(server: string, lane: Lane): void {
    while (lane.queue.length > 0 && this.admits(lane, lane.queue[0]!.mode)) {
      const next = lane.queue.shift()!;
      lane.running++;
      lane.mode = next.mode;
      next.grant();
    }
    if (lane.running === 0 && lane.queue.length === 0) this.lanes.delete(server);
  }
}

/** Where a new call whose client has `turn` calls waiting goes: after resuming calls and every call of a turn ≤ its. */
function placeOf(queue: readonly Waiter[], turn: number): number {
  let at = queue.length;
  while (at > 0 && !queue[at - 1]!.resuming && queue[at - 1]!.turn > turn) at--;
  return at;
}
