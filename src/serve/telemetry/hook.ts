/**
 * What serve's call path asks of telemetry: a span and metrics per forwarded call and per find_tool. The runtime
 * holds a `Telemetry` only when it is on (otel.ts, loaded on demand); when off the hook is `undefined` and a call
 * pays one optional-chaining check. Nothing here imports OpenTelemetry.
 */
import { isSmartError } from '../../process/errors.js';

/** How a forwarded call ended (the span's `mcp_smart.outcome`, the calls counter's label). */
export type CallOutcome = 'ok' | 'error_result' | 'protocol_error' | 'timeout';

export interface CallTrace {
  /** The `_meta` to send the server behind: the client's, with this span as the caller (`traceparent`). */
  meta(clientMeta: Record<string, unknown> | undefined): Record<string, unknown> | undefined;
  /** The server answered with a result (`isError: true` is an error result). */
  answered(result: Record<string, unknown>): void;
  /** The call failed: a JSON-RPC error, a timeout, the server gone, or a result serve refused. */
  failed(error: unknown): void;
}

export interface FindTrace {
  /** find_tool answered naming `found` tools (0: a miss; undefined: it refused its arguments, an error result). */
  answered(found: number | undefined): void;
  failed(error: unknown): void;
}

export interface Telemetry {
  /** A `tools/call` forwarded to `server`'s `tool`; `clientMeta` is the client's `_meta` (its `traceparent`). */
  toolCall(server: string, tool: string, clientMeta: Record<string, unknown> | undefined): CallTrace;
  findTool(clientMeta: Record<string, unknown> | undefined): FindTrace;
  /** Exports what is buffered and stops, within `withinMs`. */
  shutdown(withinMs: number): Promise<void>;
}

/** A failure's outcome and its `error.type` (the JSON-RPC code, `timeout`, or serve's error code). */
export function failureOf(error: unknown): { outcome: CallOutcome; errorType: string; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  if (isSmartError(error)) {
    if (error.code === 'SERVE_CALL_TIMEOUT') return { outcome: 'timeout', errorType: 'timeout', message };
    return { outcome: 'protocol_error', errorType: error.code, message };
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'number') return { outcome: 'protocol_error', errorType: String(code), message };
  if ((error as { name?: unknown } | null)?.name === 'AbortError')
    return { outcome: 'protocol_error', errorType: 'cancelled', message };
  return { outcome: 'protocol_error', errorType: (error as Error | null)?.name ?? 'Error', message };
}
