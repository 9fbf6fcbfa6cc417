/**
 * The request body of `serve --transport http`: read once, bounded, and parsed here, before any SDK Server is made,
 * so a request that cannot be served costs nothing to keep. Each refusal is a JSON-RPC error with its HTTP status.
 */
import type { IncomingMessage } from 'node:http';
import { messageTooDeep, TOO_DEEP } from '../core/wire/nesting.js';
import { EMPTY_BATCH, INVALID_REQUEST, type RequestId } from '../core/wire/request-rules.js';

/** The largest request body accepted (4 MiB, the SDK's own default for its HTTP entry). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A request refused before it reached a session: the HTTP status and a JSON-RPC error (for the request `id`). */
export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly id: RequestId | null = null,
  ) {
    super(message);
  }
}

const PARSE_ERROR = -32700;
const SERVER_ERROR = -32000;

const mib = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) ? 1 : 0)} MiB`;

export function tooLarge(limit: number): HttpRefusal {
  return new HttpRefusal(
    413,
    SERVER_ERROR,
    `Payload Too Large: the request body is over mcp-smart serve's limit of ${mib(limit)} (${limit} bytes); send a smaller request`,
  );
}

/** A POST body must be JSON: the Streamable HTTP transport's rule (415 otherwise). */
export function checkContentType(req: IncomingMessage): void {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json')
    throw new HttpRefusal(
      415,
      SERVER_ERROR,
      `Unsupported Media Type: Content-Type must be application/json (got ${type === '' ? 'none' : `"${type}"`})`,
    );
}

/** Past the limit, up to this much more is read and dropped before answering 413, so the client can finish sending. */
const DRAIN_BYTES = 8 * MAX_BODY_BYTES;

/**
 * Reads and parses a POST body of at most `limit` bytes; undefined for an empty body. A larger body is not kept:
 * its rest is read and dropped, and the 413 comes once it has arrived (a client still sending would otherwise see
 * the connection reset instead of the answer); one more than DRAIN_BYTES over is answered at once and the
 * connection closed. The request timeout bounds how long either may take.
 */
export function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit + DRAIN_BYTES) return reject(tooLarge(limit));
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (chunks.length) chunks.length = 0;
      if (size > limit + DRAIN_BYTES) reject(tooLarge(limit));
    });
    req.on('error', reject);
    req.on('end', () => {
      if (size > limit) return reject(tooLarge(limit));
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve(undefined);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return reject(new HttpRefusal(400, PARSE_ERROR, 'Parse error: the request body is not valid JSON'));
      }
      // The SDK's schema walk and serializer would overflow the stack on it (an HTTP 500): refused here.
      if (messageTooDeep(text, body)) return reject(new HttpRefusal(400, INVALID_REQUEST, `Bad Request: ${TOO_DEEP}`));
      // JSON-RPC 2.0: an empty batch is an Invalid Request, answered with one error (the SDK took it for notifications).
      if (Array.isArray(body) && body.length === 0)
        return reject(new HttpRefusal(400, INVALID_REQUEST, `Invalid Request: ${EMPTY_BATCH}`));
      resolve(body);
    });
  });
}
