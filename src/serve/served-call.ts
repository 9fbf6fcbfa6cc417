/**
 * A `tools/call` of a served tool: a meta-tool answered here, or the call forwarded to its server. Shared by the SDK
 * Server's handler (sdk-server.ts) and the 2025 stdio connection's meta-tool path (stdio-meta-calls.ts).
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { SmartError } from '../process/errors.js';
import { checkArgumentDepth, hiddenError } from './meta.js';
import { ServeRuntime, type CallContext, type ToolResult } from './runtime.js';

/** JSON-RPC error for a request the proxy itself cannot route. */
export const routeError = (e: SmartError): ProtocolError =>
  new ProtocolError(ProtocolErrorCode.InvalidParams, e.message);

/** Runs a served tool: a meta-tool, or a call forwarded to its server. */
export async function callServed(
  runtime: ServeRuntime,
  params: { name: string; arguments?: Record<string, unknown> },
  ctx: CallContext,
): Promise<ToolResult> {
  await runtime.settled();
  const viewNow = () => runtime.identities.viewFor(runtime.view, ctx.caller);
  let served = viewNow().byName.get(params.name);
  // A name not served yet, while servers are still starting (a client that calls without listing first): it is
  // looked up again once they have listed (each start is bounded by --spawn-timeout).
  if (!served && !runtime.first.settled) {
    await runtime.first.listed();
    served = viewNow().byName.get(params.name);
  }
  const hidden = served ? undefined : hiddenError(viewNow(), params.name);
  // Refused by the caller's serve.auth filter (the tool is served to others): an error result naming the rule.
  if (hidden && runtime.view.byName.has(params.name)) return ServeRuntime.failureResult(hidden);
  if (hidden) throw routeError(hidden);
  if (!served)
    throw routeError(
      new SmartError('SERVE_UNKNOWN_TOOL', {
        name: params.name,
        // Tools mode serves no find_tool: the hint names it only where it is served.
        hint: [...viewNow().byName.values()].some((t) => t.meta === 'find')
          ? 'Call tools/list for the served names, or find_tool to search.'
          : 'Call tools/list for the served names.',
      }),
    );
  const args = params.arguments ?? {};
  try {
    // Serve may have started from the catalogue start cache: every call waits for the schemas (once).
    await runtime.loaded();
    // A meta-tool answers from every server's list: it waits for the servers still starting (each bounded).
    if (served.meta) await runtime.first.listed();
    // The caller's view as it is now (a meta-tool waited for the servers' lists).
    const view = viewNow();
    switch (served.meta) {
      case 'find':
        return await runtime.findTool(args, ctx.caller, ctx._meta);
      case 'describe':
        return runtime.describeTool(args, view);
      case 'list':
        return runtime.listTools(args, view);
      case 'call':
        return await runtime.callThroughMeta(args, false, ctx, view);
      case 'callRead':
        return await runtime.callThroughMeta(args, true, ctx, view);
      default:
        // Deeper arguments overflowed the stack on their way to the server: refused here, as call_tool refuses them.
        checkArgumentDepth(params.name, params.arguments, 'Its input schema is in tools/list.');
        return await runtime.forward(served.entry!, params.arguments, ctx);
    }
  } catch (e) {
    return ServeRuntime.failureResult(e);
  }
}
