/**
 * The params of a `tools/call` that serve's wire paths (stdio-meta-calls.ts, stdio-forward-calls.ts,
 * http-forward-calls.ts) may take from the SDK: only the keys MCP defines for it, each of the plain shape the SDK's
 * schema accepts, and a `_meta` the path's own rule accepts. Anything else is left to the SDK's Server, which gives
 * its own answer or error. Also what those paths read alike: a request's id, a client's cancellation.
 */
import { isPlainObject } from '../core/config/key-path.js';

export type CallId = string | number;
export type CallParams = { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> };

const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);

/** `params` as a plain tools/call's when they are (and `metaOk` accepts their `_meta`); else undefined. */
export function wireCallParams(
  params: unknown,
  metaOk: (meta: Record<string, unknown>) => boolean,
): CallParams | undefined {
  if (!isPlainObject(params) || typeof params.name !== 'string') return undefined;
  for (const key in params) if (!PARAM_KEYS.has(key)) return undefined;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  const meta = params._meta;
  if (meta !== undefined && (!isPlainObject(meta) || !metaOk(meta))) return undefined;
  return params as CallParams;
}

/** The params of a plain forwarded call (the two forward paths): a `_meta` without a key of MCP's own. */
export function forwardParams(params: unknown): CallParams | undefined {
  // A progress token, a related task, the 2026-07-28 envelope or any other key of MCP's own is the SDK's to read.
  return wireCallParams(params, (meta) => {
    for (const key in meta) if (key === 'progressToken' || key.startsWith('io.modelcontextprotocol/')) return false;
    return true;
  });
}

/** A JSON-RPC request id as the SDK accepts it: a string or a whole number. */
export function isCallId(id: unknown): id is CallId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

/** The request a client's `notifications/cancelled` names, with its reason; undefined for any other message. */
export function cancelledCall(m: { method?: unknown; params?: unknown }): { id: CallId; reason: unknown } | undefined {
  if (m.method !== 'notifications/cancelled') return undefined;
  const p = m.params as { requestId?: unknown; reason?: unknown } | undefined;
  return { id: p?.requestId as CallId, reason: p?.reason };
}
