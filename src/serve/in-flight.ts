/**
 * The calls in flight to each server behind, and who answers a server's elicitation, sampling or roots request.
 * MCP sends such a request inside the server's handling of a call, but the wire does not say which call; so a call
 * whose client could be asked runs alone on its server (ask-gate.ts), and the client of the call running is asked
 * in that call's context. A 2026-07-28 call the bridge holds between input_required rounds leaves the gate while
 * held (its server waits for the answer, so it asks nothing new) and enters again before the answer goes out: the
 * call running is the only one a question can belong to, in either era. When that client does not accept it, or
 * only calls that cannot be asked are running, or several held calls and none running, nobody is asked (another
 * client's user must not answer for this one): mcp-smart answers itself. With no call in flight (a server asking on
 * its own), the one connected client that accepts it; with several, none (mcp-smart).
 */
import { AskGate, type Pass } from './ask-gate.js';

/** A connected client that can answer a server's request ("elicitation", "sampling" in its capabilities). */
export interface Asker {
  capabilities: Record<string, unknown>;
  ask: (method: string, params: unknown, signal: AbortSignal) => Promise<Record<string, unknown>>;
  /** True while the call waits for its client's next round (bridge.ts): a server's new request is not this call's. */
  waiting?: () => boolean;
  /**
   * A call held between rounds (bridge.ts) is given its Pass on the gate of each server it runs on: it leaves the
   * gate while held and enters again before its client's answers reach the server. Returns the hook's removal.
   */
  onPass?: (pass: Pass) => () => void;
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
  /** Which client the call is from, for the bounds kept per client (client-key.ts); undefined: one client. */
  client?: string;
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
   * input_required rounds gets its Pass (`onPass`): it does not keep the gate while its client decides (holding it
   * across rounds stalled 10 of the official conformance suite's 37 2026-07-28 serve scenarios, whose clients drop
   * held calls), and its retry enters again ahead of calls not started yet.
   */
  async track<T>(server: string, ctx: CallContext, fn: () => Promise<T>): Promise<T> {
    const pass = await this.gate.admit(server, mayBeAsked(ctx) ? 'alone' : 'shared', ctx.signal, ctx.client);
    const detach = ctx.asker?.onPass?.(pass);
    try {
      return await this.during(server, ctx, fn);
    } finally {
      detach?.();
      pass.close();
    }
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
    if (this.calls.has(server)) {
      const latest = this.latest(server);
      // Several calls held for their clients and none running: whose it is cannot be known (mcp-smart answers).
      if (!latest) return undefined;
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

  /**
   * The call a request from `server` now belongs to: the latest one running (not held waiting for its client; the
   * gate lets only one that may be asked run at a time), else the only call in flight; undefined when several are
   * held and none runs.
   */
  private latest(server: string): CallContext | undefined {
    const calls = this.calls.get(server) ?? [];
    return (
      [...calls].reverse().find((c) => c.asker?.waiting?.() !== true) ?? (calls.length === 1 ? calls[0] : undefined)
    );
  }
}
