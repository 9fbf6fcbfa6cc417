/**
 * The calls in flight to each server behind, and who answers a server's elicitation, sampling or roots request.
 * MCP sends such a request inside the server's handling of a call, but the wire does not say which call; so a call
 * whose client could be asked runs alone on its server (ask-gate.ts), and the client of the call in flight is asked
 * in that call's context. When that client does not accept it, or only calls that cannot be asked are in flight,
 * nobody is asked (another client's user must not answer for this one): mcp-smart answers itself. With no call in
 * flight (a server asking on its own), the one connected client that accepts it; with several, none (mcp-smart).
 */
import { AskGate } from './ask-gate.js';

/** A connected client that can answer a server's request ("elicitation", "sampling" in its capabilities). */
export interface Asker {
  capabilities: Record<string, unknown>;
  ask: (method: string, params: unknown, signal: AbortSignal) => Promise<Record<string, unknown>>;
  /** True while the call waits for its client's next round (bridge.ts): a server's new request is not this call's. */
  waiting?: () => boolean;
  /**
   * Told that the server behind asked for a capability this client's request did not declare (a 2026-07-28 request
   * then fails with MissingRequiredClientCapability, bridge.ts); the server itself is answered as before.
   */
  unmet?: (capability: string) => void;
}

/** Hooks a client session gives the runtime for one call. */
export interface CallContext {
  signal: AbortSignal;
  /**
   * The calling client, asked in the context of this call: over Streamable HTTP its request travels on the
   * call's own response stream (relatedRequestId), where a client waiting for the call's answer reads it.
   */
  asker?: Asker;
  /** Progress from the server behind, to be sent to the client under its own token. */
  onprogress?: (p: { progress: number; total?: number; message?: string }) => void;
  /**
   * Log messages (notifications/message) from the server behind while the call runs, for a client that takes them
   * per request (a 2026-07-28 request that set a log level; the level filter is the caller's).
   */
  onlog?: (params: Record<string, unknown>) => void;
  _meta?: Record<string, unknown>;
  /** Who calls (a verified token's subject and groups; serve.auth), for learning and the audit log. */
  caller?: { subject: string; groups: readonly string[] };
}

/** Whether a call's client could be asked something by the server behind (it declared one of the three). */
export function mayBeAsked(ctx: CallContext): boolean {
  const caps = ctx.asker?.capabilities;
  return caps !== undefined && ASKABLE.some((c) => caps[c] !== undefined);
}

const CAPABILITY_OF: Record<string, string> = {
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
  'sampling/createMessage': 'sampling',
};
const ASKABLE = Object.values(CAPABILITY_OF);

export class InFlight {
  /** The calls in flight per server behind, oldest first. */
  private readonly calls = new Map<string, CallContext[]>();
  /** Connected clients that can answer a server's request, by capability. */
  readonly askers = new Map<object, Asker>();

  /** Per server behind: a call that may be asked runs alone, the others side by side. */
  readonly gate = new AskGate();

  /**
   * Runs `fn` with `ctx` in flight to `server`, once the server's gate admits it. A 2026-07-28 call held between its
   * input_required rounds (bridge.ts: its asker says whether it is `waiting`) is not gated: holding the lane across
   * rounds stalled the official conformance suite's input_required scenarios (10 of 37 aborted), so such calls keep
   * the latest-call rule (`latest` skips a call waiting for its client).
   */
  track<T>(server: string, ctx: CallContext, fn: () => Promise<T>): Promise<T> {
    if (ctx.asker?.waiting !== undefined) return this.during(server, ctx, fn);
    return this.gate.run(server, mayBeAsked(ctx) ? 'alone' : 'shared', ctx.signal, () => this.during(server, ctx, fn));
  }

  private async during<T>(server: string, ctx: CallContext, fn: () => Promise<T>): Promise<T> {
    const inFlight = this.calls.get(server) ?? [];
    this.calls.set(server, inFlight);
    inFlight.push(ctx);
    try {
      return await fn();
    } finally {
      inFlight.splice(inFlight.indexOf(ctx), 1);
      if (inFlight.length === 0) this.calls.delete(server);
    }
  }

  /**
   * Who answers `method` from `server`: the client of its call in flight, if it accepts; else undefined (then
   * mcp-smart answers). `undeclared`: serve did not declare that capability to the server (nobody else is asked).
   * A call's client that does not accept it is told (`unmet`) when the server cannot go on without an answer: it
   * asked for what was not declared to it, or for sampling (an unattended refusal is an error to it; elicitation
   * declined and no roots are answers it can go on with).
   */
  askerFor(server: string, method: string, undeclared = false): Asker | undefined {
    const want = CAPABILITY_OF[method] ?? method;
    const accepts = (a: Asker | undefined): a is Asker => a?.capabilities[want] !== undefined;
    const latest = this.latest(server);
    if (latest) {
      const asker: Asker | undefined = latest.asker;
      if (accepts(asker)) return asker;
      if (undeclared || want === 'sampling') latest.asker?.unmet?.(want);
      return undefined;
    }
    if (undeclared) return undefined;
    // Asked outside any call: only the one client that could answer, never a guess among several.
    const able = [...this.askers.values()].filter(accepts);
    return able.length === 1 ? able[0] : undefined;
  }

  /** Where a log message the server sent now goes on its call's own stream (undefined: no such call). */
  logTo(server: string): CallContext['onlog'] {
    return this.latest(server)?.onlog;
  }

  /** The latest call not held waiting for its client (a call its client abandoned between rounds stays held a while). */
  private latest(server: string): CallContext | undefined {
    const calls = this.calls.get(server) ?? [];
    return [...calls].reverse().find((c) => c.asker?.waiting?.() !== true) ?? calls.at(-1);
  }
}
