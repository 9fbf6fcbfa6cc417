/**
 * The request body of `serve --transport http`: read once, bounded, and parsed here, before any SDK Server is made,
 * so a request that cannot be served costs nothing to keep. Each refusal is a JSON-RPC error with its HTTP status.
 */
import type { IncomingMessage } from 'node:http';

/** The largest request body accepted (4 MiB, the SDK's own default for its HTTP entry). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A request refused before it reached a session: the HTTP status and a JSON-RPC error. */
export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    /** Close the connection after answering (the rest of the body is not read). */
    readonly closeConnection = false,
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
    true,
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

/** Reads and parses a POST body of at most `limit` bytes; undefined for an empty body. */
export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpRefusal(400, PARSE_ERROR, 'Parse error: the request body is not valid JSON');
  }
}
