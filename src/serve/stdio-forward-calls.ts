/**
 * A 2025 client on stdio: its plain `tools/call` of a tool forwarded to a server behind is run outside the SDK's
 * Server. A profile of one forwarded echo call put about a sixth of serve's own time per call in the SDK Server's
 * per-request work (its JSON-RPC classifiers on the way in and out, the request's era schema check, the handler
 * context, the result's era schema parse); none of it depends on the call. The call runs through the same function
 * as the SDK's handler (served-call.ts: routing, the server pool, the result check, learning, telemetry), audited
 * alike, with its own cancellation: the client's notifications/cancelled aborts it and no answer is sent, as the
 * SDK does. A result whose 2025 encoding is plainly itself (text blocks, structuredContent, isError) is written
 * here; any other outcome — an error, images, annotations, a result without content — is handed to the SDK's Server
 * with its outcome (settled-calls.ts), which answers it exactly as before.
 *
 * Taken only when nothing of the SDK's request context is needed: the connection's `initialize` answered, no
 * progress token, no `_meta` key of MCP's own, a tool of a server behind (not a meta-tool), and an id not in use.
 * Everything else goes to the SDK's Server as before. A client that declares elicitation, sampling or roots is asked
 * a server's request during the call as the SDK's handler asks it (client-asker.ts, as sdk-server.ts): a request of the SDK's
 * Server to its client (on stdio the one connection; the call's id rides nowhere on that wire).
 */
import type { JSONRPCMessage, Server } from '@modelcontextprotocol/server';
import { audited } from './auth/audit-call.js';
import { clientKey } from './client-key.js';
import { clientAsker } from './client-asker.js';
import type { ServeRuntime, ToolResult } from './runtime.js';
import { callServed } from './served-call.js';
import { outcomeOf, settle } from './settled-calls.js';
import { plainWireResult } from './plain-result.js';
import {
  cancelledCall,
  forwardParams,
  isCallId,
  type CallId as Id,
  type CallParams as Params,
} from './wire-call-params.js';

export class StdioForwardCalls {
  /** Calls being run here: id → their abort (the client's cancellation). */
  private readonly open = new Map<Id, AbortController>();

  constructor(
    private readonly runtime: ServeRuntime,
    private readonly send: (message: JSONRPCMessage) => Promise<void>,
    /** The connection's SDK Server, once there is one. */
    private readonly server: () => Server | undefined,
    /** Hands a message to the SDK's Server. */
    private readonly deliver: (message: JSONRPCMessage) => void,
  ) {}

  /** Takes a call this path runs (true); false for anything else. A cancellation aborts a call run here. */
  take(message: JSONRPCMessage): boolean {
    const m = message as { method?: unknown; id?: unknown; params?: unknown };
    const cancelled = cancelledCall(m);
    if (cancelled) {
      this.open.get(cancelled.id)?.abort(cancelled.reason);
      return false;
    }
    if (m.method !== 'tools/call') return false;
    const id = m.id;
    if (!isCallId(id)) return false;
    const params = forwardParams(m.params);
    if (!params || this.open.has(id)) return false;
    const served = this.runtime.view.byName.get(params.name);
    if (!served?.entry || served.meta !== undefined) return false;
    const server = this.server();
    if (!server || server.getClientVersion() === undefined) return false;
    const controller = new AbortController();
    this.open.set(id, controller);
    void this.run(message, id, params, controller, server);
    return true;
  }

  private async run(
    message: JSONRPCMessage,
    id: Id,
    params: Params,
    controller: AbortController,
    server: Server,
  ): Promise<void> {
    const ctx = {
      signal: controller.signal,
      asker: clientAsker(server),
      client: clientKey(undefined),
      _meta: params._meta,
    };
    const outcome = await outcomeOf<ToolResult>(
      audited(this.runtime, params, undefined, undefined, () => callServed(this.runtime, params, ctx)),
    );
    this.open.delete(id);
    // A cancelled call gets no answer (as the SDK's Server).
    if (controller.signal.aborted) return;
    const wire = outcome.ok ? plainWireResult(outcome.value) : undefined;
    if (wire) {
      await this.send({ jsonrpc: '2.0', id, result: wire }).catch(() => undefined);
      return;
    }
    settle(server, id, outcome);
    this.deliver(message);
  }
}
