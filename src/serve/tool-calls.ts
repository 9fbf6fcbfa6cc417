/**
 * A tool call on its way to the server behind: call_tool's checks (resolve, read-only, arguments), the forwarded
 * request in flight as the client's call, its trace, and the outcome the learner counts.
 */
import { SmartError, isSmartError } from '../process/errors.js';
import { scrubSentError } from '../process/secrets.js';
import type { CatalogEntry, ServedView } from './served-view.js';
import type { CallContext, InFlight } from './in-flight.js';
import type { Learner } from './learn.js';
import { ArgumentValidator, argumentsObject, isReadOnly, resolveTool, textResult } from './meta.js';
import type { ServerPool } from './pool.js';
import { resultProblem } from './result-check.js';
import type { RuntimeOptions, ToolResult } from './runtime-options.js';
import type { ServedList } from './served-list.js';

const META_EXTRA_KEYS = new Set(['progressToken']);

/** The client's `_meta` for the server behind, without serve's own keys; undefined when nothing is left. */
function forwardedMeta(meta: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (meta === undefined) return undefined;
  const kept = Object.fromEntries(Object.entries(meta).filter(([k]) => !META_EXTRA_KEYS.has(k)));
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** A proxy-level failure as a tool result the model can read; server-side JSON-RPC errors pass through. */
export function failureResult(e: unknown): ToolResult {
  if (isSmartError(e)) return textResult(`mcp-smart: ${e.message}`, true);
  throw e;
}

export interface ToolCallParts {
  opts: Pick<RuntimeOptions, 'activate' | 'callTimeoutMs' | 'clock' | 'telemetry'>;
  pool: ServerPool;
  inFlight: InFlight;
  learner: Learner;
  served: ServedList;
  /** The user label a caller's calls are learned under (none without a token). */
  userOf: (caller: CallContext['caller']) => string | undefined;
  /** The refusal for a tool id whose server is not running (not-running.ts), else undefined. */
  notRunning: (name: string) => SmartError | undefined;
  /** Resolves once a re-list of the server (its list_changed, sent before its answer) is done (relist.ts). */
  relisted: (server: string) => Promise<void>;
}

export class ToolCalls {
  private readonly validator = new ArgumentValidator();

  constructor(private readonly parts: ToolCallParts) {}

  /** call_tool / call_tool_read: resolve in `view`, check read-only, validate, forward. */
  async callThroughMeta(
    args: Record<string, unknown>,
    readOnly: boolean,
    ctx: CallContext,
    view: ServedView,
  ): Promise<ToolResult> {
    const { served } = this.parts;
    const entry = resolveTool(view, args.name, this.parts.notRunning);
    if (readOnly && !isReadOnly(entry.tool)) {
      const call = served.view.tools.find((t) => t.meta === 'call')?.name ?? 'call_tool';
      throw new SmartError('SERVE_NOT_READ_ONLY', { name: entry.id, call });
    }
    const toolArgs = argumentsObject(entry.id, args.arguments);
    await this.validator.check(entry, toolArgs);
    const result = await this.forward(entry, toolArgs, ctx);
    if (this.parts.opts.activate) await served.activate(entry.id);
    return result;
  }

  /** Forwards a call to the server behind and returns its result unchanged. */
  async forward(entry: CatalogEntry, args: Record<string, unknown> | undefined, ctx: CallContext): Promise<ToolResult> {
    const { opts, learner, userOf } = this.parts;
    const started = opts.clock();
    let ok = false;
    const trace = opts.telemetry?.toolCall(entry.server, entry.tool.name, ctx._meta);
    try {
      const params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> } = {
        name: entry.tool.name,
      };
      if (args !== undefined) params.arguments = args;
      const meta = trace ? trace.meta(forwardedMeta(ctx._meta)) : forwardedMeta(ctx._meta);
      if (meta) params._meta = meta;
      const result = await this.inCall(entry.server, ctx, 'tools/call', params);
      const problem = resultProblem(result);
      if (problem) throw new SmartError('SERVE_BAD_RESULT', { server: entry.server, tool: entry.tool.name, problem });
      ok = result.isError !== true;
      trace?.answered(result);
      // A server that changed its tools during the call said so before it answered: the client hears serve's
      // list_changed first too, so its next model request can offer the new tools (as with the server directly).
      await this.parts.relisted(entry.server);
      return ok ? result : scrubSentError(result);
    } catch (e) {
      trace?.failed(e);
      // The server's own JSON-RPC error goes on to the client with its message: hidden as an error result's text.
      if (e instanceof Error && !isSmartError(e)) e.message = scrubSentError(e.message);
      throw e;
    } finally {
      await learner.called(entry.id, ok, Math.round(opts.clock() - started), userOf(ctx.caller));
    }
  }

  /** A request to a server behind, in flight as `ctx`'s call: the server's requests meanwhile go to its client. */
  inCall(server: string, ctx: CallContext, method: string, params: Record<string, unknown>): Promise<ToolResult> {
    const { opts, inFlight, pool } = this.parts;
    const timed = { timeoutMs: opts.callTimeoutMs, signal: ctx.signal, onprogress: ctx.onprogress };
    return inFlight.track(server, ctx, () => pool.run(server, (s) => s.request(method, params, timed), ctx.signal));
  }
}
