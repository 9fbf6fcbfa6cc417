/**
 * The calls in flight to each server behind, and who answers a server's elicitation, sampling or roots request.
 * MCP sends such a request inside the server's handling of a call, but the wire does not say which call: the client
 * whose call to that server is in flight (the latest when several are) is asked in that call's context. When that
 * client does not accept it, nobody is asked (another client's user must not answer for this one): mcp-smart answers
 * itself. With no call in flight (a server asking on its own), any connected client that accepts it.
 */

/** A connected client that can answer a server's request ("elicitation", "sampling" in its capabilities). */
export interface Asker {
  capabilities: Record<string, unknown>;
  ask: (method: string, params: unknown, signal: AbortSignal) => Promise<Record<string, unknown>>;
  /** True while the call waits for its client's next round (bridge.ts): a server's new request is not this call's. */
  waiting?: () => boolean;
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
  _meta?: Record<string, unknown>;
}

const CAPABILITY_OF: Record<string, string> = {
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
  'sampling/createMessage': 'sampling',
};

export class InFlight {
  /** The calls in flight per server behind, oldest first. */
  private readonly calls = new Map<string, CallContext[]>();
  /** Connected clients that can answer a server's request, by capability. */
  readonly askers = new Map<object, Asker>();

  /** Runs `fn` with `ctx` in flight to `server`. */
  async track<T>(server: string, ctx: CallContext, fn: () => Promise<T>): Promise<T> {
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

  askerFor(server: string, method: string): Asker | undefined {
    const want = CAPABILITY_OF[method] ?? method;
    const accepts = (a: Asker | undefined): a is Asker => a?.capabilities[want] !== undefined;
    const calls = this.calls.get(server) ?? [];
    // The latest call not held waiting for its client (a call its client abandoned between rounds stays held a while).
    const latest = [...calls].reverse().find((c) => c.asker?.waiting?.() !== true) ?? calls.at(-1);
    if (latest) return accepts(latest.asker) ? latest.asker : undefined;
    return [...this.askers.values()].find(accepts);
  }
}
