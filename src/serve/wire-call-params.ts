/**
 * The params of a `tools/call` that serve's stdio wire paths (stdio-meta-calls.ts, stdio-forward-calls.ts) may take
 * from the SDK: only the keys MCP defines for it, each of the plain shape the SDK's schema accepts, and a `_meta` the
 * path's own rule accepts. Anything else is left to the SDK's Server, which gives its own answer or error.
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
