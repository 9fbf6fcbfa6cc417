/**
 * Calls already run outside the SDK's Server (stdio-forward-calls.ts) whose outcome that path does not write itself
 * — an error, or a result it cannot show is exactly what the SDK's 2025 result codec would send — are handed to the
 * SDK's Server with their outcome: its tools/call handler (sdk-server.ts) answers with it instead of running the
 * call again, so the SDK validates, encodes and writes the answer as for any other call (audited once, by the path
 * that ran it).
 */
type Id = string | number;
export type Outcome<T = unknown> = { ok: true; value: T } | { ok: false; error: unknown };

/** What `call` gave or threw, as an outcome (the forward paths' run, whatever it ends with). */
export async function outcomeOf<T>(call: Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await call };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Per client connection (its SDK Server): request id → the outcome waiting for the SDK's handler. */
const waiting = new WeakMap<object, Map<Id, Outcome>>();

/** Leaves `outcome` for the SDK Server `server` to answer request `id` with. */
export function settle(server: object, id: Id, outcome: Outcome): void {
  let calls = waiting.get(server);
  if (!calls) waiting.set(server, (calls = new Map<Id, Outcome>()));
  calls.set(id, outcome);
}

/** The outcome left for request `id` (taken: each is answered once), as a function giving or throwing it. */
export function takeSettled(server: object, id: Id): (() => unknown) | undefined {
  const calls = waiting.get(server);
  const outcome = calls?.get(id);
  if (!outcome) return undefined;
  calls!.delete(id);
  return () => {
    if (outcome.ok) return outcome.value;
    throw outcome.error;
  };
}
