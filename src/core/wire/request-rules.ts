/**
 * The rules on a client's requests that serve's two transports (stdio-wire.ts, http.ts) enforce alike, and the
 * words of their refusals. JSON-RPC 2.0: an empty batch is an Invalid Request; MCP: a request id is not reused
 * while that request is in flight (the SDK keys its bookkeeping by id, and the first request was never answered);
 * batches were removed in 2025-06-18. A request still open when serve stops is answered with SHUTTING_DOWN.
 */
export const INVALID_REQUEST = -32600;

/** JSON-RPC's implementation-defined server error, as the MCP SDKs use it for a connection that closed. */
export const SHUTTING_DOWN = -32000;

export type RequestId = string | number;

/** The first protocol revision without JSON-RPC batches. */
export const BATCHES_REMOVED_IN = '2025-06-18';

/** Whether a session negotiated at `version` takes no batches (revisions are dates, so they compare as strings). */
export const batchesRemoved = (version: string | undefined): boolean =>
  version !== undefined && version >= BATCHES_REMOVED_IN;

/**
 * Why a batch is refused; `per` is the transport's unit (a line on stdio, a POST over HTTP), `negotiated` the revision
 * the session's initialize negotiated, when it has one (both transports name it alike).
 */
export const batchRefusal = (per: 'line' | 'request', negotiated?: string): string =>
  `a JSON-RPC batch; MCP takes one message per ${per} (batches were removed in ${BATCHES_REMOVED_IN})` +
  (negotiated === undefined ? '' : `, and this session negotiated ${negotiated}`);

/**
 * Why an initialize request inside a batch is refused, alone (the other members are served): MCP 2025-03-26,
 * basic/lifecycle, "The initialize request MUST NOT be part of a JSON-RPC batch".
 */
export const initializeInBatch = (per: 'line' | 'request'): string =>
  'an initialize request must not be part of a JSON-RPC batch (no other message is possible until initialization ' +
  `has completed); send initialize alone, in a ${per} of its own`;

/** A batch member that is an initialize request (a method "initialize" and an id): owed initializeInBatch. */
export function isInitializeMember(m: unknown): m is { method: 'initialize'; id: RequestId } {
  if (typeof m !== 'object' || m === null) return false;
  const { method, id } = m as { method?: unknown; id?: unknown };
  return method === 'initialize' && (typeof id === 'string' || Number.isSafeInteger(id));
}

export const EMPTY_BATCH = 'an empty JSON-RPC batch ([]) holds no request; send one JSON-RPC message';

/** Why a request reusing the id of one in flight is refused. */
export const idInUse = (id: RequestId): string =>
  `request id ${JSON.stringify(id)} is already in use by a request in flight; send each request with an id of its own`;

/** What a request arriving while serve stops is told. */
export const stoppingRefusal = (signal: string): string =>
  `mcp-smart serve is shutting down (${signal}) and takes no new requests; send it again once serve is back`;

/** What a request still open when serve stops is told (`signal`: what stopped it). */
export const shuttingDown = (signal: string, graceMs: number): string =>
  `mcp-smart serve is shutting down (${signal}); this request did not finish within ${graceMs} ms and was ` +
  'abandoned, its outcome at the server unknown. Send it again once serve is back.';

/** The ids of the requests (a method and an id) in a message or a batch, in order. */
export function requestIds(body: unknown): RequestId[] {
  const ids: RequestId[] = [];
  for (const m of Array.isArray(body) ? (body as unknown[]) : [body]) {
    if (typeof m !== 'object' || m === null) continue;
    const { method, id } = m as { method?: unknown; id?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || Number.isSafeInteger(id))) ids.push(id as RequestId);
  }
  return ids;
}

/** A JSON-RPC error response. */
export const errorAnswer = (id: RequestId | null, code: number, message: string) => ({
  jsonrpc: '2.0' as const,
  id,
  error: { code, message },
});
