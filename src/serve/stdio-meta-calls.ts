/**
 * A 2025 client on stdio: its `tools/call` of a meta-tool that answers from serve's own catalogue (find_tool,
 * describe_tool, list_tools) is answered on the wire, outside the SDK's Server. Those tools never ask the client
 * anything nor send progress, so nothing of the SDK's per-request work is needed for them: the request's schema
 * check, the handler context, the result's schema check and era codec, and the JSON-RPC classifiers on the way out
 * (a profile of find_tool over stdio put them at about a fifth of its time over the ranking). The answer is the
 * one the SDK's Server gives (served-call.ts, the same function; audited alike). Anything else — another tool, a
 * request shaped unusually in any way (the SDK then answers it, errors included), a call before `initialize` was
 * answered — goes to the SDK's Server as before. A cancelled call answered here sends no answer, as the SDK's.
 * A forwarded call is not taken: its result passes the SDK's 2025 result check and normalisation, a 2026-era
 * server's input_required is fulfilled by the SDK's legacy shim, and its progress, cancellation and the server's
 * requests to the client ride the SDK's request context — all of which this path would have to do alike.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { audited } from './auth/audit-call.js';
import { clientKey } from './client-key.js';
import type { ServeRuntime } from './runtime.js';
import { callServed } from './served-call.js';
import {
  cancelledCall,
  isCallId,
  wireCallParams,
  type CallId as Id,
  type CallParams as Params,
} from './wire-call-params.js';

/** The meta-tools answered here: they read the catalogue and never reach a server or the client. */
const OWN = new Set<string | undefined>(['find', 'describe', 'list']);
/** JSON-RPC "Internal error", what the SDK answers for a handler's error without a code of its own. */
const INTERNAL_ERROR = -32603;
const INVALID_PARAMS = -32602;
const RESOURCE_NOT_FOUND = -32002;
/** The signal of a call answered here: meta-tools run to the end (a cancelled one's answer is dropped). */
const NEVER_ABORTED = new AbortController().signal;

/** The request's params when it is a well-formed `tools/call` this path may answer; else undefined. */
function callParams(params: unknown): Params | undefined {
  return wireCallParams(params, (meta) => {
    const token = meta.progressToken;
    return token === undefined || typeof token === 'string' || typeof token === 'number';
  });
}

export class StdioMetaCalls {
  /** Calls being answered here: id → cancelled. */
  private readonly open = new Map<Id, boolean>();

  constructor(
    private readonly runtime: ServeRuntime,
    private readonly send: (message: JSONRPCMessage) => Promise<void>,
    /** Whether the connection's `initialize` has been answered (before that, everything is the SDK's). */
    private readonly initialized: () => boolean,
  ) {}

  /**
   * Takes a message this path answers (true); false for anything else, which goes on to the SDK. A cancellation is
   * noted for a call answered here and passed on all the same.
   */
  take(message: JSONRPCMessage): boolean {
    const m = message as { method?: unknown; id?: unknown; params?: unknown };
    const cancelled = cancelledCall(m);
    if (cancelled) {
      if (this.open.has(cancelled.id)) this.open.set(cancelled.id, true);
      return false;
    }
    if (m.method !== 'tools/call') return false;
    const id = m.id;
    if (!isCallId(id)) return false;
    const params = callParams(m.params);
    if (!params || !OWN.has(this.runtime.view.byName.get(params.name)?.meta) || !this.initialized()) return false;
    // A request reusing the id of one still answered here is the SDK's to handle.
    if (this.open.has(id)) return false;
    this.open.set(id, false);
    void this.answer(id, params);
    return true;
  }

  private async answer(id: Id, params: Params): Promise<void> {
    let response: JSONRPCMessage;
    try {
      const ctx = { signal: NEVER_ABORTED, client: clientKey(undefined), _meta: params._meta };
      const result = await audited(this.runtime, params, undefined, undefined, () =>
        callServed(this.runtime, params, ctx),
      );
      response = { jsonrpc: '2.0', id, result };
    } catch (e) {
      // As the SDK's Server answers a handler's error: its code when it has one, its message, its data.
      const err = e as { code?: unknown; message?: unknown; data?: unknown };
      const thrown = Number.isSafeInteger(err.code) ? (err.code as number) : INTERNAL_ERROR;
      // The 2025 era has no "resource not found" code: the SDK's codec answers it as invalid params.
      const code = thrown === RESOURCE_NOT_FOUND ? INVALID_PARAMS : thrown;
      const message = typeof err.message === 'string' ? err.message : 'Internal error';
      response = {
        jsonrpc: '2.0',
        id,
        error: { code, message, ...(err.data !== undefined ? { data: err.data } : {}) },
      };
    }
    const cancelled = this.open.get(id);
    this.open.delete(id);
    if (cancelled) return;
    await this.send(response).catch(() => undefined);
  }
}
