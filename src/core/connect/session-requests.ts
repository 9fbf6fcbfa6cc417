/**
 * Requests over a session's ready client, the result returned exactly as the server sent it: progress delivered in
 * arrival order (progress-tap.ts), and on a 2026-07-28 tools/call the Mcp-Param-* headers the tool's definition asks for.
 */
import { ResultSchema } from '@modelcontextprotocol/core';
import type { Client, Progress as ProgressInfo, Transport } from '@modelcontextprotocol/client';
import type { ToolSnapshot } from '../types.js';
import { DirectCalls, takesAnswers } from './direct-calls.js';
import { ProgressTap, type ProgressHandler } from './progress-tap.js';

export interface RequestOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Progress the server reports; the SDK puts its own progressToken on the request when this is set. */
  onprogress?: (progress: ProgressInfo) => void;
}

/** A result as the server sent it. */
export type Answer = Record<string, unknown>;

/** Whether a listed tool's inputSchema mentions x-mcp-header, per schema object: a call should not stringify it. */
const headerScans = new WeakMap<object, boolean>();

function declaresHeaders(schema: object | undefined): boolean {
  if (schema === undefined) return false;
  let found = headerScans.get(schema);
  if (found === undefined) {
    found = JSON.stringify(schema).includes('"x-mcp-header"');
    headerScans.set(schema, found);
  }
  return found;
}

/** One session's requests: the tap on its transports and the tool definitions it has listed. */
export class SessionRequests {
  private readonly tap = new ProgressTap();
  /** The tools this session listed, by name (their x-mcp-header declarations become Mcp-Param-* headers). */
  private readonly listedTools = new Map<string, ToolSnapshot>();
  private listing?: Promise<void>;
  /** A 2025 tools/call without progress on a stdio server goes out beside the Client (direct-calls.ts). */
  private direct?: DirectCalls;

  /** Watches a transport's messages for progress (before the SDK's Protocol sees them). */
  attach(t: Transport): void {
    this.tap.attach(t);
    if (takesAnswers(t)) {
      this.direct = new DirectCalls(t);
      t.taker = this.direct;
    }
  }

  /** A tool the session listed: a 2026-07-28 call to it sends the headers its definition asks for. */
  remember(tool: ToolSnapshot): void {
    this.listedTools.set(tool.name, tool);
  }

  /** Sends `method` on a ready client (it may throw at once, as the client does). */
  request(
    client: Client,
    method: string,
    params: Record<string, unknown> | undefined,
    opts: RequestOptions,
  ): Promise<Answer> {
    // Only a 2026-07-28 session sends header parameters; any other request goes out at once, no async layer.
    if (method === 'tools/call' && client.getProtocolEra() === 'modern') return this.modernCall(client, params, opts);
    return this.send(client, method, params, opts);
  }

  private async modernCall(client: Client, params: Record<string, unknown> | undefined, opts: RequestOptions) {
    const withHeaders = await this.headerParamTool(client, params, opts);
    if (!withHeaders) return this.send(client, 'tools/call', params, opts);
    // SEP-2243: the SDK's callTool sends the Mcp-Param-* headers the definition's x-mcp-header asks for.
    return client.callTool(params as never, {
      signal: opts.signal,
      timeout: opts.timeoutMs,
      onprogress: opts.onprogress,
      resetTimeoutOnProgress: opts.onprogress !== undefined,
      toolDefinition: withHeaders as never,
    });
  }

  private send(client: Client, method: string, params: Record<string, unknown> | undefined, opts: RequestOptions) {
    const onprogress = opts.onprogress;
    if (!onprogress) {
      const direct =
        method === 'tools/call' ? this.direct?.call(client, params, opts.timeoutMs, opts.signal) : undefined;
      return (
        direct ?? client.request({ method, params }, ResultSchema, { signal: opts.signal, timeout: opts.timeoutMs })
      );
    }
    return this.withProgress(client, method, params, opts, onprogress);
  }

  /**
   * Progress reaches `onprogress` through the tap, in arrival order; the SDK's own handler only resets the timeout —
   * and delivers, should the tap not have learnt the token on send.
   */
  private async withProgress(
    client: Client,
    method: string,
    params: Record<string, unknown> | undefined,
    opts: RequestOptions,
    onprogress: ProgressHandler,
  ) {
    this.tap.pending = onprogress;
    let tapped = false;
    try {
      const answer = client.request({ method, params }, ResultSchema, {
        signal: opts.signal,
        timeout: opts.timeoutMs,
        onprogress: (p) => {
          if (!tapped) onprogress(p);
        },
        resetTimeoutOnProgress: true,
      });
      tapped = this.tap.pending === undefined;
      this.tap.pending = undefined;
      return await answer;
    } finally {
      this.tap.forget(onprogress);
    }
  }

  /** The listed definition of the called tool when its inputSchema has x-mcp-header (asked on 2026-07-28 only). */
  private async headerParamTool(
    client: Client,
    params: Record<string, unknown> | undefined,
    opts: RequestOptions,
  ): Promise<ToolSnapshot | undefined> {
    const name = params?.name;
    if (typeof name !== 'string') return undefined;
    // A session that only calls (serve's lists came from the cache or another session) lists once, to know.
    if (!this.listedTools.has(name)) {
      this.listing ??= client
        .listTools(undefined, { signal: opts.signal, timeout: opts.timeoutMs })
        .then((r) => void r.tools.forEach((t) => this.listedTools.set(t.name, t as ToolSnapshot)))
        .catch(() => undefined);
      await this.listing;
    }
    const tool = this.listedTools.get(name);
    return tool && declaresHeaders(tool.inputSchema) ? tool : undefined;
  }
}
