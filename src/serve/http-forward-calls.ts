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
 * header or a supported one, the session's `initialize` answered, a client that declares none of elicitation,
 * sampling or roots (a server's request mid-call travels on the call's stream: the SDK's), no progress token or
 * other `_meta` key of MCP's own, and a tool of a server behind (not a meta-tool). Everything else — GET, DELETE,
 * resumption, a 2026-07-28 request, a client that may be asked — goes to the SDK as before. The session's checks
 * (Host/Origin, token, body limit, the session id and its owner) are http.ts's, before either path.
 *
 * The client's notifications/cancelled (a POST of its own, which still reaches the SDK) aborts a call run here and
 * no answer is sent, as the SDK's Server does; its response stays open, as the SDK's stream does, until the client
 * or the session closes it. A session closing aborts its calls here and ends their responses, as the SDK's
 * transport ends its streams.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS, type AuthInfo, type Server } from '@modelcontextprotocol/server';
import { audited } from './auth/audit-call.js';
import { callerOf } from './auth/verify.js';
import { clientAsker } from './client-asker.js';
import { clientKey } from './client-key.js';
import { plainWireResult } from './plain-result.js';
import type { ServeRuntime, ToolResult } from './runtime.js';
import { callServed } from './served-call.js';
import { outcomeOf, settle } from './settled-calls.js';
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
    if (server.getClientVersion() === undefined || clientAsker(server) !== undefined) return undefined;
    const open = this.openOf(server);
    if (open.has(id)) return undefined;
    const call: Open = { controller: new AbortController(), res, sessionId };
    open.set(id, call);
    return () => this.run({ server, sessionId, req, res, id, params, call, open, viaSdk });
  }

  private async run(c: {
    server: Server;
    sessionId: string;
    req: IncomingMessage;
    res: ServerResponse;
    id: Id;
    params: Params;
    call: Open;
    open: Map<Id, Open>;
    viaSdk: () => Promise<void>;
  }): Promise<void> {
    const authInfo = (c.req as IncomingMessage & { auth?: AuthInfo }).auth;
    const caller = callerOf(authInfo);
    const signal = c.call.controller.signal;
    const ctx = { signal, client: clientKey(caller?.subject), _meta: c.params._meta, ...(caller ? { caller } : {}) };
    const outcome = await outcomeOf<ToolResult>(
      audited(this.runtime, c.params, authInfo, caller, () => callServed(this.runtime, c.params, ctx)),
    );
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
      for (const { controller, res, sessionId } of calls.values()) {
        controller.abort(new Error('the session closed'));
        if (!res.headersSent && !res.destroyed) res.writeHead(200, sseHeaders(sessionId));
        if (!res.writableEnded && !res.destroyed) res.end();
      }
      calls.clear();
    };
    return open;
  }
}
