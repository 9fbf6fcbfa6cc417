/**
 * The W3C trace context of an HTTP request (`traceparent`, `tracestate` headers) carried into its JSON-RPC requests'
 * `params._meta`, where serve's telemetry reads it (and where the MCP semantic conventions put it): a `_meta` that
 * names its own `traceparent` keeps it (the MCP context is the caller's own; the HTTP one may be a proxy's).
 */
import type { IncomingHttpHeaders } from 'node:http';

const one = (value: string | string[] | undefined): string | undefined =>
  typeof value === 'string' ? value : value?.join(',');

/** `body` (one JSON-RPC message or a batch) with the headers' trace context in each request's `_meta`. */
export function withTraceHeaders(body: unknown, headers: IncomingHttpHeaders): unknown {
  const traceparent = one(headers.traceparent);
  if (traceparent === undefined) return body;
  const tracestate = one(headers.tracestate);
  const carry = (message: unknown): unknown => {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return message;
    const m = message as { method?: unknown; params?: unknown };
    if (typeof m.method !== 'string') return message;
    const params = typeof m.params === 'object' && m.params !== null ? (m.params as Record<string, unknown>) : {};
    const meta =
      typeof params._meta === 'object' && params._meta !== null ? (params._meta as Record<string, unknown>) : {};
    if (typeof meta.traceparent === 'string') return message;
    const context = { traceparent, ...(tracestate !== undefined ? { tracestate } : {}) };
    return { ...m, params: { ...params, _meta: { ...meta, ...context } } };
  };
  return Array.isArray(body) ? body.map(carry) : carry(body);
}
