/**
 * Which client a request comes from, for what serve bounds per client: the calls it has held between input_required
 * rounds (bridge.ts) and the calls it has waiting for a server's ask gate (ask-gate.ts).
 *
 * - A verified access token (serve.auth): its subject, whichever session or connection it comes on.
 * - Else over HTTP: the peer's address. A 2026-07-28 client is sessionless, and what it could name itself by (its
 *   declared clientInfo, a new 2025 session) it could change on every request to escape its bound; the address it
 *   cannot. So clients on one machine without tokens share one bound, and so do clients behind one proxy: give each
 *   client its own token to bound them apart. A shared --token-env bearer names nobody (the address counts).
 * - Over stdio: the one client serve has.
 *
 * The bound lives as long as what it counts: a 2025 session that closes (DELETE, idle, --max-sessions) ends its
 * calls (the SDK aborts them), a stdio client leaving stops serve, and a sessionless client's held calls end at
 * serve.inputTimeout; nothing is kept per client beyond its calls.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const peer = new AsyncLocalStorage<string>();

/** Runs `fn` (one HTTP request's handling) with the request's peer address known to the handlers it reaches. */
export function withPeer<T>(address: string | undefined, fn: () => T): T {
  return peer.run(address ?? 'unknown', fn);
}

/** The key of the client calling now: `subject` (a verified token's) when given, else its address, else stdio's. */
export function clientKey(subject: string | undefined): string {
  if (subject !== undefined) return `subject:${subject}`;
  const address = peer.getStore();
  return address === undefined ? 'stdio' : `address:${address}`;
}
