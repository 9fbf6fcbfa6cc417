/**
 * Who a 2025 server's question belongs to. A server behind asks (elicitation/create, sampling/createMessage,
 * roots/list) inside its handling of a call, but its request does not say which call: over stdio nothing on the wire
 * ties the two, and serve shares one connection per server among all its clients. So serve never has to guess: per
 * server behind, a call whose client could be asked (it declared elicitation, sampling or roots) runs alone, and calls
 * that cannot be asked run side by side with each other. A question then arrives while exactly one call that can
 * answer it is in flight — it is that call's — or while none is, and serve answers it itself (declined, no roots,
 * refused). The price: calls of askers to one server wait for each other (a held 2026-07-28 call, between its
 * input_required rounds, for at most serve.inputTimeout).
 */

import { SmartError } from '../errors.js';

type Mode = 'alone' | 'shared';

/** Calls that wait at most for one server (a client sending thousands at once is refused past this, not queued). */
export const MAX_WAITING = 64;

interface Waiter {
  mode: Mode;
  grant: () => void;
}

interface Lane {
  /** Calls running now and how: one 'alone', or any number 'shared'. */
  running: number;
  mode?: Mode;
  queue: Waiter[];
}

export class AskGate {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly maxWaiting = MAX_WAITING) {}

  /** Runs `fn` once `server` admits it: `alone` (a call that may be asked) or `shared`; gives up when `signal` aborts. */
  async run<T>(server: string, mode: Mode, signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
    await this.enter(server, mode, signal);
    try {
      return await fn();
    } finally {
      this.leave(server);
    }
  }

  /** Calls waiting to be admitted to `server` (for tests and --debug). */
  waiting(server: string): number {
    return this.lanes.get(server)?.queue.length ?? 0;
  }

  private lane(server: string): Lane {
    let lane = this.lanes.get(server);
    if (!lane) this.lanes.set(server, (lane = { running: 0, queue: [] }));
    return lane;
  }

  private admits(lane: Lane, mode: Mode): boolean {
    return lane.running === 0 || (mode === 'shared' && lane.mode === 'shared');
  }

  private enter(server: string, mode: Mode, signal: AbortSignal | undefined): Promise<void> {
    const lane = this.lane(server);
    // First come, first served: a shared call does not pass a call waiting to run alone.
    if (lane.queue.length === 0 && this.admits(lane, mode)) {
      lane.running++;
      lane.mode = mode;
      return Promise.resolve();
    }
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (lane.queue.length >= this.maxWaiting)
      return Promise.reject(
        new SmartError('SERVE_SERVER_UNAVAILABLE', {
          server,
          reason: `${this.maxWaiting} calls are already waiting for it (calls that may be asked run one at a time, so that its questions reach the right client); try again when one has ended`,
        }),
      );
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        mode,
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
      lane.queue.push(waiter);
    });
  }

  private leave(server: string): void {
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
