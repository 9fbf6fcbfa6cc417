/**
 * The 2026-07-28 `subscriptions/listen` streams a client keeps open over HTTP, bounded per client (which client:
 * client-key.ts). The SDK's endpoint bounds them only in all (1,024), so one client opening that many shut every
 * other client out of list changes. A client needs one stream; past its bound a new one is refused (HTTP 429) while
 * its open ones go on, and a closed stream (cancelled, or its connection gone) gives its place back at once. A client
 * with no stream open holds nothing here.
 */
import type { ServerResponse } from 'node:http';

/** Listen streams one client keeps open at most. */
export const MAX_LISTENS_PER_CLIENT = 32;

export class ListenStreams {
  private readonly open = new Map<string, number>();

  constructor(private readonly max = MAX_LISTENS_PER_CLIENT) {}

  /** Streams `client` has open now. */
  of(client: string): number {
    return this.open.get(client) ?? 0;
  }

  /** Counts a stream of `client` until `res` closes; false (nothing counted) when the client has `max` open. */
  take(client: string, res: ServerResponse): boolean {
    const n = this.of(client);
    if (n >= this.max) return false;
    this.open.set(client, n + 1);
    res.once('close', () => {
      const left = this.of(client) - 1;
      if (left > 0) this.open.set(client, left);
      else this.open.delete(client);
    });
    return true;
  }

  refusal(): string {
    return listenRefusal(this.max);
  }
}

/** A listen refused past the bound: the limit, and what the client can do. */
export const listenRefusal = (max = MAX_LISTENS_PER_CLIENT): string =>
  `mcp-smart: this client already has ${max} subscriptions/listen streams open, the limit per client; cancel one, then listen again`;
