/**
 * Streamable HTTP for `serve`: one SDK Server per client session. Security: binds 127.0.0.1 by default,
 * checks Host and Origin against the bound address (DNS-rebinding protection), requires a bearer token
 * when --token-env is given, and refuses a non-loopback bind without one.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, isLegacyRequest, type Server } from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { SmartError } from '../errors.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export interface HttpOptions {
  host: string;
  port: number;
  /** The bearer token clients must send; undefined: none (loopback only). */
  token?: string;
  createServer: () => Server;
  log: (text: string) => void;
}

export interface HttpHandle {
  url: string;
  servers: () => Server[];
  /** Tells the 2026-07-28 clients listening (subscriptions/listen) that the tool list changed. */
  toolsChanged: () => void;
  close: () => Promise<void>;
}

/** Host names a request may carry for this bind: the bound host, and the loopback names when bound to loopback. */
function allowedHosts(host: string, port: number): Set<string> {
  const names = isLoopback(host) ? ['127.0.0.1', 'localhost', '[::1]'] : [host.includes(':') ? `[${host}]` : host];
  return new Set(names.map((n) => `${n}:${port}`.toLowerCase()));
}

function reject(res: ServerResponse, status: number, message: string): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1]!.trim());
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

/** The request line and headers as a web Request, for the SDK's era classification (the body is passed parsed). */
function webRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, { method: req.method, headers });
}

/** Starts listening; resolves once bound (port 0 picks a free one). */
export async function startHttp(opts: HttpOptions): Promise<HttpHandle> {
  if (!isLoopback(opts.host) && !opts.token) throw new SmartError('SERVE_INSECURE_BIND', { host: opts.host });
  const sessions = new Map<string, { transport: NodeStreamableHTTPServerTransport; server: Server }>();
  let hosts = new Set<string>();
  const modernHandler = createMcpHandler(() => opts.createServer(), { legacy: 'reject' });
  const modern = toNodeHandler(modernHandler);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const host = (req.headers.host ?? '').toLowerCase();
    // A remote bind is protected by its token and answers under any name; loopback answers only its own names.
    const ownNames = isLoopback(opts.host) ? hosts : new Set([host]);
    if (!ownNames.has(host)) return reject(res, 403, `Forbidden: Host "${host}" is not this server`);
    const origin = req.headers.origin;
    if (origin !== undefined) {
      let originHost = '';
      try {
        originHost = new URL(origin).host.toLowerCase();
      } catch {
        // an unparsable Origin is refused below
      }
      if (!ownNames.has(originHost)) return reject(res, 403, `Forbidden: Origin "${origin}" is not allowed`);
    }
    if (opts.token && !tokenMatches(req.headers.authorization, opts.token))
      return reject(res, 401, 'Unauthorized: send "Authorization: Bearer <token>"');
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/mcp') return reject(res, 404, 'Not found: the MCP endpoint is /mcp');
    const sessionId = req.headers['mcp-session-id'];
    let body: unknown;
    if (req.method === 'POST') {
      try {
        body = await readBody(req);
      } catch {
        return reject(res, 400, 'Bad request: the body is not JSON');
      }
    }
    // A 2026-07-28 request (its _meta names the version): stateless, one Server for the request.
    if (typeof sessionId !== 'string' && !(await isLegacyRequest(webRequest(req), body))) return modern(req, res, body);
    const known = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (known) return known.transport.handleRequest(req, res, body);
    if (typeof sessionId === 'string') return reject(res, 404, 'Session not found: initialize again');
    if (req.method !== 'POST') return reject(res, 400, 'Bad request: no session; send initialize first');
    const server = opts.createServer();
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, server }),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      opts.log(`HTTP request failed: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) reject(res, 500, 'Internal error');
    });
  });
  await new Promise<void>((resolve, fail) => {
    http.once('error', fail);
    http.listen(opts.port, opts.host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  hosts = allowedHosts(opts.host, port);
  const shownHost = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${shownHost}:${port}/mcp`,
    servers: () => [...sessions.values()].map((s) => s.server),
    toolsChanged: () => modernHandler.notify.toolsChanged(),
    close: async () => {
      await modernHandler.close();
      await Promise.all([...sessions.values()].map((s) => s.server.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
