/**
 * A 2025 client's plain `tools/call` over Streamable HTTP, in an established session, run outside the SDK's
 * transport and Server. A profile of one forwarded echo call (bench/RESULTS.md, branch httpcall) put most of serve's
 * own time per HTTP call in work that does not depend on the call: the Node request turned into a web Request and
 * the answer's web Response (a ReadableStream) written back through the adapter, the transport's JSON-RPC schema
 * parse and stream bookkeeping, and the SDK Server's dispatch (its classifiers, the request's era schema check,
 * the handler context, the result's era schema parse), with the garbage all of it leaves.
 *
 * Such a call runs here through the same function as the SDK's handler (served-call.ts: routing, the server pool,
 * the result check, learning, telemetry), audited alike with the request's token, and a result whose 2025 encoding
 * is plainly itself (plain-result.ts) is written as the SDK's transport would write it: one SSE event on a 200
 * response with the same headers. Any other outcome — an error, images, annotations — is left for the SDK's Server
 * (settled-calls.ts) and the request handed to the session's transport, which answers it exactly as before.
 *
 * Taken only when the SDK would take the request without a word and nothing of its request context is needed: a POST
 * of one JSON-RPC request (no batch) with an id not in use, an Accept naming both JSON and SSE, no Mcp-Protocol-Version
 * header or a supported one, the session's `initialize` answered, no progress token or other `_meta` key of MCP's
 * own, and a tool of a server behind (not a meta-tool). Everything else — GET, DELETE, resumption, a 2026-07-28
 * request — goes to the SDK as before. The session's checks (Host/Origin, token, body limit, the session id and its
 * owner) are http.ts's, before either path.
 *
 * A client that declared elicitation, sampling or roots (every real one: Claude Code, Gemini CLI, Codex, VS Code)
 * may be asked something by the server behind during the call, on the call's own stream (the POST's SSE response,
 * relatedRequestId), and its answer comes in a POST of its own that the SDK's transport routes by the id the SDK's
 * Server gave the question. Until such a question nothing of the call has been written, so at the first one the
 * call is handed to the SDK still running (settled-calls.ts `adopt`): the request goes to the session's transport
 * as on the SDK path (its stream, headers, keep-alives, event ids), the SDK's tools/call handler takes the call's
 * place without running it again, every question is sent through that handler's context (as sdk-server.ts asks),
 * and it answers with the call's outcome. A call that asks nothing — nearly all — stays here. The question's id is
 * the SDK Server's own (its request counter), so it meets no other, and the client's answer reaches it as on the SDK
 * path. roots/list is such a question too (serve keeps no copy of a client's roots). Unlike the SDK path, a question
 * for a call already cancelled (the SDK would still send it) or whose client has gone (the SDK's transport would
 * hold it until its request timeout, 60 s) is answered with an error at once.
 *
 * The client's notifications/cancelled (a POST of its own, which still reaches the SDK) aborts a call run here and
 * no answer is sent, as the SDK's Server does; its response stays open, as the SDK's stream does, until the client
 * or the session closes it. A session closing aborts its calls here and ends their responses, as the SDK's
 * transport ends its streams.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { audited } from './auth/audit-call.js';
import { callerOf } from './auth/caller.js';
import { clientAsker } from './client-asker.js';
import { clientKey } from './client-key.js';
import { plainWireResult } from './plain-result.js';
import type { Asker, ServeRuntime, ToolResult } from './runtime.js';
import { callServed } from './served-call.js';
import { adopt, outcomeOf, settle, unclaimed, unwrap, type Outcome } from './settled-calls.js';
import {
  cancelledCall,
  forwardParams,
  isCallId,
  type CallId as Id,
  type CallParams as Params,
} from './wire-call-params.js';

/** A call run here: its abort (the client's cancellation, the session's end) and its response. */
interface Open {
  controller: AbortController;
  res: ServerResponse;
  sessionId: string;
  /** Its outcome is known: nothing more can be asked. */
  finished?: boolean;
  /** Handed to the SDK (its server asked the client something): the SDK's transport owns the response. */
  handed?: Handover;
}

/** A call handed to the SDK while it runs. */
interface Handover {
  /** The context of the SDK's handler, once it took the call: the questions go through it. */
  ctx: Promise<ServerContext>;
  /** Gives the SDK's handler the call's outcome to answer with. */
  end: (outcome: Outcome) => void;
  /** The SDK's handling of the request: settled once its response is done. */
  sdk: Promise<void>;
}

/** One call's run: what `take` read, and its entry among the session's open calls. */
interface Run {
  server: Server;
  sessionId: string;
  req: IncomingMessage;
  res: ServerResponse;
  id: Id;
  params: Params;
  call: Open;
  open: Map<Id, Open>;
  viaSdk: () => Promise<void>;
}

/** The headers of the SDK transport's answer to a POST holding a request (an SSE stream), in its adapter's order. */
const sseHeaders = (sessionId: string): Record<string, string> => ({
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'content-type': 'text/event-stream',
  'mcp-session-id': sessionId,
  'x-accel-buffering': 'no',
});

/** True when the SDK's transport would pass this POST's headers without a word (else it answers them itself). */
function plainHeaders(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  if (accept === undefined || !accept.includes('application/json') || !accept.includes('text/event-stream'))
    return false;
  const version = req.headers['mcp-protocol-version'];
  return version === undefined || (typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version));
}

export class HttpForwardCalls {
  /** Per session (its Server): the calls being run here, by JSON-RPC id. */
  private readonly sessions = new WeakMap<Server, Map<Id, Open>>();

  constructor(private readonly runtime: ServeRuntime) {}

  /**
   * The runner of a POST this path answers (it resolves once the call is answered, here or by `viaSdk`); undefined
   * for any other request, which goes to the SDK. A cancellation aborts a call run here (and still reaches the SDK).
   */
  take(
    server: Server,
    sessionId: string,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    viaSdk: () => Promise<void>,
  ): (() => Promise<void>) | undefined {
    if (req.method !== 'POST' || typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    const m = body as { jsonrpc?: unknown; method?: unknown; id?: unknown; params?: unknown };
    const cancelled = cancelledCall(m);
    if (cancelled) {
      this.sessions.get(server)?.get(cancelled.id)?.controller.abort(cancelled.reason);
      return undefined;
    }
    if (m.method !== 'tools/call' || m.jsonrpc !== '2.0') return undefined;
    const id = m.id;
    if (!isCallId(id)) return undefined;
    for (const key in m)
      if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return undefined;
    const params = forwardParams(m.params);
    if (!params || !plainHeaders(req)) return undefined;
    const served = this.runtime.view.byName.get(params.name);
    if (!served?.entry || served.meta !== undefined) return undefined;
    if (server.getClientVersion() === undefined) return undefined;
    const open = this.openOf(server);
    if (open.has(id)) return undefined;
    const call: Open = { controller: new AbortController(), res, sessionId };
    open.set(id, call);
    return () => this.run({ server, sessionId, req, res, id, params, call, open, viaSdk });
  }

  private async run(c: Run): Promise<void> {
    const authInfo = (c.req as IncomingMessage & { auth?: AuthInfo }).auth;
    const caller = callerOf(authInfo);
    const signal = c.call.controller.signal;
    const asker = this.askerOf(c);
    const ctx = {
      signal,
      client: clientKey(caller?.subject),
      _meta: c.params._meta,
      ...(asker ? { asker } : {}),
      ...(caller ? { caller } : {}),
    };
    const outcome = await outcomeOf<ToolResult>(
      audited(this.runtime, c.params, authInfo, caller, () => callServed(this.runtime, c.params, ctx)),
    );
    c.call.finished = true;
    const handed = c.call.handed;
    if (handed) {
      // The SDK answers (or, the call cancelled, does not) on its stream.
      handed.end(outcome);
      await handed.sdk.finally(() => c.open.delete(c.id));
      return;
    }
    // A cancelled call gets no answer (as the SDK's Server); its response stays open, as the SDK's stream does,
    // until the client or the session closes it (a closed session's response was ended with it).
    if (signal.aborted && !c.res.destroyed && !c.res.writableEnded) {
      c.res.once('close', () => c.open.delete(c.id));
      return;
    }
    c.open.delete(c.id);
    if (signal.aborted) return;
    const wire = outcome.ok ? plainWireResult(outcome.value) : undefined;
    if (!wire) {
      settle(c.server, c.id, outcome);
      return c.viaSdk();
    }
    // The client gone meanwhile: the answer has nowhere to go (as on the SDK's stream).
    if (c.res.destroyed || c.res.writableEnded) return;
    // Written in one piece: the first write corks the socket until the next tick, so the end goes with it.
    c.res.writeHead(200, sseHeaders(c.sessionId));
    c.res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: c.id, result: wire })}\n\n`);
    c.res.end();
  }

  /**
   * The client as the asker of this call, when it declared elicitation, sampling or roots (as sdk-server.ts's): its
   * first question hands the call to the SDK, and each is asked through the SDK handler's context.
   */
  private askerOf(c: Run): Asker | undefined {
    const declared = clientAsker(c.server);
    if (!declared) return undefined;
    return {
      capabilities: declared.capabilities,
      ask: async (method, params, signal) => {
        if (!c.call.handed) {
          // Nothing to hand over: the call is over, cancelled, or its client gone (a stream the SDK's transport would
          // never end). The server behind is answered with an error at once.
          if (c.call.finished) throw new Error('mcp-smart: the call was answered; its client cannot be asked now');
          if (c.call.controller.signal.aborted) throw new Error('mcp-smart: the call was cancelled; nobody is asked');
          if (c.res.destroyed || c.res.writableEnded) throw new Error('mcp-smart: the client of the call is gone');
          c.call.handed = this.handOver(c);
        }
        const sdkCtx = await untilAborted(c.call.handed.ctx, signal);
        return clientAsker(c.server, sdkCtx)!.ask(method, params, signal);
      },
    };
  }

  /** Hands a running call to the session's transport and the SDK's tools/call handler (settled-calls.ts adopt). */
  private handOver(c: Run): Handover {
    let give!: (ctx: ServerContext) => void;
    let fail!: (error: Error) => void;
    const ctx = new Promise<ServerContext>((resolve, reject) => ((give = resolve), (fail = reject)));
    ctx.catch(() => undefined);
    let end!: (outcome: Outcome) => void;
    const outcome = new Promise<Outcome>((resolve) => (end = resolve));
    const controller = c.call.controller;
    adopt(c.server, c.id, async (sdkCtx) => {
      const sdkSignal = sdkCtx.mcpReq.signal;
      sdkSignal.addEventListener('abort', () => controller.abort(sdkSignal.reason), { once: true });
      // Cancelled while the request was on its way to the SDK (whose Server did not know the call then): told again
      // now, so the SDK sends no answer, as for any call cancelled.
      if (controller.signal.aborted && !sdkSignal.aborted)
        c.server.transport?.onmessage?.({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: c.id, reason: String(controller.signal.reason) },
        });
      give(sdkCtx);
      return unwrap(await outcome);
    });
    const sdk = c.viaSdk().finally(() => {
      // The transport answered the request itself (the session closed meanwhile): nobody to ask.
      if (unclaimed(c.server, c.id))
        fail(new Error('mcp-smart: the call’s stream is gone; its client cannot be asked'));
    });
    // Awaited once the call ends (run); a failure meanwhile is not an unhandled rejection.
    sdk.catch(() => undefined);
    return { ctx, end, sdk };
  }

  /** The session's open calls; its Server's close aborts them and ends their responses. */
  private openOf(server: Server): Map<Id, Open> {
    let open = this.sessions.get(server);
    if (open) return open;
    open = new Map();
    this.sessions.set(server, open);
    const calls = open;
    const onclose = server.onclose;
    server.onclose = () => {
      onclose?.();
      for (const { controller, res, sessionId, handed } of calls.values()) {
        controller.abort(new Error('the session closed'));
        // A call handed to the SDK: its transport ends the stream it owns.
        if (handed) continue;
        if (!res.headersSent && !res.destroyed) res.writeHead(200, sseHeaders(sessionId));
        if (!res.writableEnded && !res.destroyed) res.end();
      }
      calls.clear();
    };
    return open;
  }
}

/** `promise`, or the abort of `signal` before it settles. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onabort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onabort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onabort));
  });
}
