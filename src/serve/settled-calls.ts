/**
 * Calls already run outside the SDK's Server (stdio-forward-calls.ts, http-forward-calls.ts) whose outcome that
 * path does not write itself — an error, or a result it cannot show is exactly what the SDK's 2025 result codec
 * would send — are handed to the SDK's Server with their outcome: its tools/call handler (sdk-server.ts) answers
 * with it instead of running the call again, so the SDK validates, encodes and writes the answer as for any other
 * call (audited once, by the path that ran it). An HTTP call whose server behind asks its client something is
 * handed over still running (`adopt`): the SDK's handler gives the path its context (the call's stream) and answers
 * with the outcome once the call ends.
 */
import type { ServerContext } from '@modelcontextprotocol/server';

type Id = string | number;
export type Outcome<T = unknown> = { ok: true; value: T } | { ok: false; error: unknown };
/** What the SDK's handler answers a handed-over call with, given its own context. */
type Answer = (ctx: ServerContext) => unknown;

/** What `call` gave or threw, as an outcome (the forward paths' run, whatever it ends with). */
export async function outcomeOf<T>(call: Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await call };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The value of an outcome, or its error thrown. */
export function unwrap(outcome: Outcome): unknown {
  if (outcome.ok) return outcome.value;
  throw outcome.error;
}

/** Per client connection (its SDK Server): request id → what the SDK's handler answers it with. */
const waiting = new WeakMap<object, Map<Id, Answer>>();

function leave(server: object, id: Id, answer: Answer): void {
  let calls = waiting.get(server);
  if (!calls) waiting.set(server, (calls = new Map<Id, Answer>()));
  calls.set(id, answer);
}

/** Leaves `outcome` for the SDK Server `server` to answer request `id` with. */
export function settle(server: object, id: Id, outcome: Outcome): void {
  leave(server, id, () => unwrap(outcome));
}

/** Leaves request `id`, still running, for the SDK Server `server` to answer with what `answer` gives its context. */
export function adopt(server: object, id: Id, answer: (ctx: ServerContext) => Promise<unknown>): void {
  leave(server, id, answer);
}

/** Removes what was left for request `id` and not taken; true when there was such a thing. */
export function unclaimed(server: object, id: Id): boolean {
  return waiting.get(server)?.delete(id) ?? false;
}

/** What was left for request `id` (taken: each is answered once): a function of the handler's context. */
export function takeSettled(server: object, id: Id): Answer | undefined {
  const calls = waiting.get(server);
  const answer = calls?.get(id);
  if (!answer) return undefined;
  calls!.delete(id);
  return answer;
}
