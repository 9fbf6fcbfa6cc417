/**
 * Streamable HTTP for `serve`: a 2026-07-28 request is served statelessly by a fresh SDK Server (closed with its
 * exchange); a 2025 client opens a session with initialize and keeps one Server until it leaves, goes idle
 * (http-sessions.ts) or serve stops. A request that opens no session (any 2025 request without Mcp-Session-Id but
 * initialize, or an initialize the transport refuses) keeps nothing. Security: binds 127.0.0.1 by default, checks
 * Host and Origin (http-guard.ts), requires a bearer token when --token-env is given, and refuses a non-loopback
 * bind without one. Limits and timeouts: HTTP_LIMITS, documented in docs/serve-and-adopt.md.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type AuthInfo,
  type Server,
  type Transport,
} from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { SmartError } from '../process/errors.js';
import { checkContentType, HttpRefusal, MAX_BODY_BYTES, readJsonBody } from './http-body.js';
import { hostGuard, isLoopback, tokenMatches, type HostGuard } from './http-guard.js';
import { SessionTable, type SessionLimits } from './http-sessions.js';
import type { HttpForwardCalls } from './http-forward-calls.js';
import type { AuthGate } from './auth/gate.js';
import { withTraceHeaders } from './telemetry/carrier.js';
import { clientKey, withPeer } from './client-key.js';
import { isToolCall, quietUntilFirstMessage } from './http-first-byte.js';
import { StreamResume } from './http-resume.js';
import type { StateKeys } from './replica/seal.js';
import type { OtherLists } from './served-list.js';
import { ListenStreams } from './listen-limit.js';
import { callerOf } from './auth/caller.js';
import { rememberOpener } from './auth/scoped-routes.js';
import { HttpDrain } from './http-drain.js';
import { markInitializeMembers, refuseMarkedMembers, sessionlessBatchAnswers } from './http-batch-initialize.js';

export { isLoopback } from './http-guard.js';

/** What `serve --transport http` accepts and for how long (docs/serve-and-adopt.md: "Limits (HTTP)"). */
export const HTTP_LIMITS = {
  maxBodyBytes: MAX_BODY_BYTES,
  /** A request's headers must arrive within this (slow or half-open requests are answered 408 and closed). */
  headersTimeoutMs: 10_000,
  /** A request, headers and body, must arrive within this. */
  requestTimeoutMs: 60_000,
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: 5_000,
  /** TCP keep-alive probes start after this long without traffic on a connection. */
  tcpKeepAliveMs: 60_000,
  /** How often Node checks the two request timeouts. */
  connectionsCheckingIntervalMs: 1_000,
  /** A 2025 session with no request in flight this long is closed (--session-idle). */
  sessionIdleMs: 30 * 60_000,
  /** 2025 sessions kept open at most (--max-sessions). */
  maxSessions: 1_000,
} as const;

export interface HttpOptions {
  host: string;
  port: number;
  /** The bearer token clients must send; undefined: none (loopback only). */
  token?: string;
  /** Tokens of an OpenID issuer (auth/gate.ts), made once the bound URL (the default audience) is known. */
  auth?: (url: string) => AuthGate;
  createServer: () => Server;
  log: (text: string) => void;
  /** Lines shown with --debug only (sessions closed for idleness or the cap). */
  debug?: (text: string) => void;
  sessions?: Partial<SessionLimits>;
  /**
   * Replica to replica (replica/replicas.ts): answers its own path (signed with the shared key, so before the bearer
   * token check) and says whether it did.
   */
  internal?: (path: string, req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
  /** Requests wait for this before they are served: the port is bound first, so a busy one fails fast. */
  ready?: Promise<void>;
  /** Telemetry is on: a `traceparent` header is the trace context of requests whose `_meta` names none. */
  traceHeader?: boolean;
  /** The shared state key: signs the event ids of 2025 calls' streams, so any replica answers their resume. */
  keys?: StateKeys;
  /** Answers a 2025 session's plain forwarded tools/call outside the SDK (http-forward-calls.ts). */
  calls?: Pick<HttpForwardCalls, 'take'>;
}

export interface HttpHandle {
  url: string;
  /** The Servers of the open 2025 sessions. */
  servers: () => Server[];
  /** Tells the 2026-07-28 clients listening (subscriptions/listen) that the tool list changed. */
  toolsChanged: () => void;
  /** Tells them that the prompt or resource lists changed (servers arriving late, a server's own list_changed). */
  othersChanged: (changed: OtherLists) => void;
  /** Tells the 2026-07-28 clients whose subscriptions/listen named `uri` that the resource changed. */
  resourceUpdated: (uri: string) => void;
  /** Stops taking requests and answers those still open after `graceMs` (http-drain.ts); returns how many. */
  drain: HttpDrain['drain'];
  close: () => Promise<void>;
}

function reject(res: ServerResponse, status: number, code: number, message: string, id: unknown = null): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }));
}

/** The token subject a request carries (auth/gate.ts put it on `req.auth`); undefined without identities. */
const subjectOf = (req: IncomingMessage): string | undefined =>
  callerOf((req as IncomingMessage & { auth?: AuthInfo }).auth)?.subject;

/** The id of a JSON-RPC request body, echoed in an error about it. */
const idOf = (body: unknown): unknown => (typeof body === 'object' && body !== null && 'id' in body ? body.id : null);

/** The request line and headers as a web Request, for the SDK's era classification (the body is passed parsed). */
function webRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, { method: req.method, headers });
}

/** A listen failure as the usage error it is (exit 2), naming the flag to change. */
function listenError(e: NodeJS.ErrnoException, host: string, port: number): Error {
  if (e.code === 'EADDRINUSE') return new SmartError('SERVE_PORT_IN_USE', { host, port });
  if (e.code === 'EACCES') return new SmartError('SERVE_PORT_DENIED', { host, port });
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN')
    return new SmartError('SERVE_HOST_UNAVAILABLE', { host });
  return e;
}

/** Binds (port 0 picks a free one) and resolves once listening; requests are served once `ready` resolves. */
export async function startHttp(opts: HttpOptions): Promise<HttpHandle> {
  if (!isLoopback(opts.host) && !opts.token && !opts.auth)
    throw new SmartError('SERVE_INSECURE_BIND', { host: opts.host });
  const bindHost = opts.host.replace(/^\[(.*)\]$/, '$1');
  const sessions = new SessionTable(
    {
      idleMs: opts.sessions?.idleMs ?? HTTP_LIMITS.sessionIdleMs,
      max: opts.sessions?.max ?? HTTP_LIMITS.maxSessions,
    },
    opts.debug,
  );
  // Known once bound (the port may be 0 until then); requests arrive only after.
  const bound: { guard?: HostGuard; auth?: AuthGate } = {};
  const modernHandler = createMcpHandler(() => opts.createServer(), {
    legacy: 'reject',
    maxRequestBodySize: HTTP_LIMITS.maxBodyBytes,
  });
  const modern = toNodeHandler(modernHandler);
  const listens = new ListenStreams();
  const resume = opts.keys && new StreamResume(opts.keys);
  const draining = new HttpDrain();

  /** A 2025 request without a session: only initialize opens one; a Server that opened none is closed again. */
  const openSession = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    const noSession = {
      code: -32000,
      message: 'Bad Request: no Mcp-Session-Id header; send initialize to open a session',
    };
    const refused = req.method === 'POST' ? sessionlessBatchAnswers(body, noSession) : undefined;
    if (refused) return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(refused));
    if (req.method !== 'POST' || !isInitializeRequest(body))
      return reject(res, 400, noSession.code, noSession.message, idOf(body));
    if (!(await sessions.makeRoom()))
      return reject(
        res,
        503,
        -32000,
        `Service Unavailable: all ${sessions.size} sessions are busy (--max-sessions); try again`,
        idOf(body),
      );
    const server = opts.createServer();
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.add(id, { transport, server, owner: subjectOf(req) });
        rememberOpener(server, callerOf((req as { auth?: AuthInfo }).auth));
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.forget(transport.sessionId);
    };
    // The Server tells its transport the revision its initialize answered (its batch rule, http-sessions.ts).
    (transport as Transport).setProtocolVersion = (version) => {
      if (transport.sessionId) sessions.negotiated(transport.sessionId, version);
    };
    await server.connect(transport);
    refuseMarkedMembers(transport);
    try {
      await transport.handleRequest(req, res, body);
    } finally {
      if (transport.sessionId === undefined || !sessions.get(transport.sessionId))
        await server.close().catch(() => undefined);
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!bound.guard!.host(req.headers.host))
      return reject(res, 403, -32000, `Forbidden: Host "${req.headers.host ?? ''}" is not this server`);
    if (!bound.guard!.origin(req.headers.origin, req.headers.host))
      return reject(res, 403, -32000, `Forbidden: Origin "${req.headers.origin}" is not allowed`);
    const path = (req.url ?? '/').split('?')[0];
    if (opts.internal && path !== '/mcp' && (await opts.internal(path ?? '', req, res))) return;
    if (opts.token && !tokenMatches(req.headers.authorization, opts.token))
      return reject(res, 401, -32000, 'Unauthorized: send "Authorization: Bearer <token>"');
    // The metadata documents, and a refusal of a request without a valid token; else the token rides on req.auth.
    if (bound.auth && (await bound.auth.answer(req, res))) return;
    if (path !== '/mcp') return reject(res, 404, -32000, 'Not found: the MCP endpoint is /mcp');
    let body: unknown;
    if (req.method === 'POST') {
      checkContentType(req);
      body = await readJsonBody(req, HTTP_LIMITS.maxBodyBytes);
      if (opts.traceHeader) body = withTraceHeaders(body, req.headers);
    }
    await opts.ready;
    // In flight until answered; refused once serve is stopping.
    if (req.method === 'POST' && !draining.admit(res, body)) return;
    const sessionId = req.headers['mcp-session-id'];
    // A 2026-07-28 request (its _meta names the version): stateless, one Server for the exchange.
    if (typeof sessionId !== 'string' && !(await isLegacyRequest(webRequest(req), body))) {
      // A listen stream is its client's until it closes: bounded per client (listen-limit.ts).
      const listen = (body as { method?: unknown } | undefined)?.method === 'subscriptions/listen';
      const client = listen ? clientKey(callerOf((req as { auth?: AuthInfo }).auth)?.subject) : '';
      if (listen && !listens.take(client, res)) return reject(res, 429, -32603, listens.refusal(), idOf(body));
      return modern(req, res, body);
    }
    if (typeof sessionId !== 'string') return openSession(req, res, body);
    // A 2025 call's stream resumed (Last-Event-ID ours), its replica gone: answered by any (http-resume.ts).
    if (resume?.answer(req, res, sessionId, subjectOf(req))) return;
    // A session is bound to the subject that opened it (MCP security best practices, session hijacking): another
    // subject's request is answered as if it did not exist, so a session id learned elsewhere is of no use.
    const session = sessions.get(sessionId);
    if (session && session.owner !== subjectOf(req))
      opts.debug?.('refused a request for a session another subject opened');
    if (!session || session.owner !== subjectOf(req))
      return reject(res, 404, -32001, 'Session not found (closed, or idle too long): initialize again', idOf(body));
    // A 2025 call: no byte before its first message, so a replica that dies meanwhile fails it at the client (a
    // 2026-07-28 call's stream opens at once, as the 2026 conformance suite checks: its client reads the whole body).
    // Its events name the call, for that answer once the stream has begun.
    const viaSdk = (): Promise<void> => {
      if (isToolCall(body)) {
        quietUntilFirstMessage(res);
        resume?.mark(res, sessionId, idOf(body), subjectOf(req));
      }
      return session.transport.handleRequest(req, res, body);
    };
    // A batch its revision has not, an id in flight: refused before either path takes it.
    sessions.check(sessionId, body);
    // An initialize in a batch: that member refused on the batch's stream, the others served (http-batch-initialize.ts).
    body = markInitializeMembers(body);
    // A plain forwarded call is answered outside the SDK (http-forward-calls.ts); anything else by the session's.
    const run = opts.calls?.take(session.server, sessionId, req, res, body, viaSdk);
    return sessions.serve(sessionId, req, res, body, run ?? viaSdk);
  };

  const http: HttpServer = createServer(
    {
      headersTimeout: HTTP_LIMITS.headersTimeoutMs,
      requestTimeout: HTTP_LIMITS.requestTimeoutMs,
      keepAliveTimeout: HTTP_LIMITS.keepAliveTimeoutMs,
      connectionsCheckingInterval: HTTP_LIMITS.connectionsCheckingIntervalMs,
    },
    (req, res) => {
      // The peer's address names the client of a request without a verified token (client-key.ts).
      withPeer(req.socket.remoteAddress, () => handle(req, res)).catch((e: unknown) => {
        if (e instanceof HttpRefusal) {
          // A body refused before it all arrived: the connection is not reused.
          if (!req.complete) res.setHeader('connection', 'close');
          if (!res.headersSent) return reject(res, e.status, e.code, e.message, e.id);
          return;
        }
        opts.log(`HTTP request failed: ${e instanceof Error ? e.message : String(e)}`);
        if (!res.headersSent) reject(res, 500, -32603, 'Internal error');
      });
    },
  );
  // A peer that vanished without closing (an open GET stream, a half-open request) is found by TCP keep-alive.
  http.on('connection', (socket) => socket.setKeepAlive(true, HTTP_LIMITS.tcpKeepAliveMs));
  await new Promise<void>((resolve, fail) => {
    http.once('error', (e: NodeJS.ErrnoException) => fail(listenError(e, opts.host, opts.port)));
    http.listen(opts.port, bindHost, () => resolve());
  });
  const stopped = new Promise<void>((resolve) => http.once('close', () => resolve()));
  const port = (http.address() as AddressInfo).port;
  bound.guard = hostGuard(bindHost, port);
  const shownHost = bindHost.includes(':') ? `[${bindHost}]` : bindHost;
  const url = `http://${shownHost}:${port}/mcp`;
  if (opts.auth) bound.auth = opts.auth(url);
  return {
    url,
    servers: () => sessions.servers(),
    toolsChanged: () => modernHandler.notify.toolsChanged(),
    othersChanged: (changed) => {
      if (changed.prompts) modernHandler.notify.promptsChanged();
      if (changed.resources) modernHandler.notify.resourcesChanged();
    },
    resourceUpdated: (uri) => modernHandler.notify.resourceUpdated(uri),
    drain: (graceMs, refusal, abandoned) => {
      // No new connections; those open may still send (refused) while the calls in flight finish.
      http.close();
      return draining.drain(graceMs, refusal, abandoned);
    },
    close: async () => {
      await sessions.closeAll();
      await modernHandler.close().catch(() => undefined);
      http.closeAllConnections();
      // A drain stopped listening already: its 'close' may have passed (with no connection open), so it is awaited.
      if (http.listening) http.close();
      await stopped;
    },
  };
}
