/**
 * One server's live lifecycle: start (stdio spawn without a shell, or Streamable HTTP with SSE fallback),
 * list with pagination, forward calls, health, and close — which ends the whole process tree.
 */
import { setMaxListeners } from 'node:events';
import { ResultSchema } from '@modelcontextprotocol/core';
import {
  Client,
  UnauthorizedError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  ProtocolError,
  ProtocolErrorCode,
  SdkErrorCode,
  SdkError,
} from '@modelcontextprotocol/client';
import type {
  Transport,
  JsonSchemaValidator,
  jsonSchemaValidator,
  ClientCapabilities,
  Progress as ProgressInfo,
} from '@modelcontextprotocol/client';
import { SmartError, errorText } from '../../process/errors.js';
import type { ServerDefinition, ServerSnapshot, ToolSnapshot, Transport as TransportKind } from '../types.js';
import { eraOf, fallForward, probeFallsBack, probeTimeout } from './era.js';
import { rememberedVersion, rememberVersion } from './era-memo.js';
import { describeFailure, networkFailure, Progress, reasonOf, redact, secretValues, Stop } from './failure.js';
import { optionalListNote } from './failure-text.js';
import {
  checkObjectEntries,
  checkToolEntries,
  listAllPages,
  malformedToolsError,
  type ListCacheHint,
  type RequestFn,
} from './list.js';
import type { SmartOAuthProvider } from './oauth/provider.js';
import type { DeclaredCapabilities } from '../declared-capabilities.js';
import { MAX_MESSAGE_BYTES, createStdioHandle, type StdioHandle } from './stdio.js';
import { boundedFetch } from './bounded-fetch.js';

/** The requests a server sends its client mid-call, each behind a client capability. */
const ASKS = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);

const CLIENT_INFO = { name: 'mcp-smart', version: '0.1.0' };

/**
 * Tool output is passed on unchanged, never validated here. The SDK's default builds a fresh Ajv per Client
 * (about 9 ms each), which delays every spawn after the first when many servers start together.
 */
const NO_OUTPUT_VALIDATION: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/** A request the server sends to its client (elicitation, sampling, roots), answered by whoever owns the session. */
export type ServerRequestHandler = (
  method: string,
  params: Record<string, unknown> | undefined,
  signal: AbortSignal,
) => Promise<Record<string, unknown>>;

export interface ServerSessionOptions {
  /** Stop a list whose cursor keeps going after this many pages. */
  maxPages?: number;
  /** Replaces the real transports (tests use the SDK's in-memory pair). */
  createTransport?: (def: ServerDefinition) => Transport;
  /** Capabilities declared to the server; elicitation/sampling/roots only when `onServerRequest` can answer them. */
  capabilities?: DeclaredCapabilities;
  onServerRequest?: ServerRequestHandler;
  /**
   * Asked when the server sends elicitation/create, sampling/createMessage or roots/list although that capability was
   * not declared to it: an answer, or undefined for -32601 Method not found (what the SDK answers without a handler).
   */
  onUndeclaredRequest?: (...args: Parameters<ServerRequestHandler>) => ReturnType<ServerRequestHandler> | undefined;
  /** Every notification the server sends that the SDK does not consume itself (list changes, resource updates, logs). */
  onNotification?: (method: string, params: Record<string, unknown> | undefined) => void;
  /** The connection ended after a successful start (the server exited, crashed or hung up). */
  onClose?: () => void;
  /** OAuth for a remote server: supplies tokens to the transport and refreshes them on a 401. */
  authProvider?: SmartOAuthProvider;
  /** The largest message read from the server, over stdio or HTTP (default MAX_MESSAGE_BYTES, 256 MB). */
  maxMessageBytes?: number;
}

export interface RequestOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Progress the server reports; the SDK puts its own progressToken on the request when this is set. */
  onprogress?: (progress: ProgressInfo) => void;
}

export type SessionState = 'new' | 'starting' | 'ready' | 'closed';

export type Lists = Pick<
  ServerSnapshot,
  'tools' | 'prompts' | 'resources' | 'resourceTemplates' | 'listCache' | 'listCaches'
>;

export interface Listed {
  lists: Lists;
  /** Malformed tool entries: the well-formed ones are kept in `lists`. */
  malformed?: SmartError;
  /** Optional lists (prompts, resources) that failed: notes on a server whose tools still count. */
  notes?: string[];
}

/** Records the negotiated protocol version: the Client hands it to any transport that accepts it. */
function tapProtocolVersion(t: Transport, onVersion: (v: string) => void): Transport {
  const original = t.setProtocolVersion?.bind(t);
  t.setProtocolVersion = (v: string) => {
    onVersion(v);
    original?.(v);
  };
  return t;
}

type ProgressHandler = (progress: ProgressInfo) => void;

/** A result as the server sent it. */
type Answer = Record<string, unknown>;

/**
 * Delivers progress in the order it arrived. The SDK's Protocol dispatches notifications a microtask later but
 * handles a response at once, deleting the request's progress handler: a server that sends its last progress and
 * its result together (one stdio chunk) would lose that progress. This tap sees each message before the Protocol
 * does: the progress token of an outgoing request that wants progress is learnt on send (the SDK sends inside
 * `request()`, synchronously), its notifications are delivered at once, and its response ends the mapping.
 */
class ProgressTap {
  private readonly handlers = new Map<string | number, ProgressHandler>();
  /** The handler of the request being sent now (set just before `client.request`). */
  pending?: ProgressHandler;

  attach(t: Transport): void {
    const send = t.send.bind(t);
    t.send = (message, options) => {
      const token = (message as { params?: { _meta?: { progressToken?: unknown } } }).params?._meta?.progressToken;
      if (
        this.pending &&
        'method' in message &&
        'id' in message &&
        (typeof token === 'string' || typeof token === 'number')
      ) {
        this.handlers.set(token, this.pending);
        this.pending = undefined;
      }
      return send(message, options);
    };
    const earlier = t.onmessage;
    t.onmessage = (message, extra) => {
      earlier?.(message, extra);
      if ('method' in message && message.method === 'notifications/progress' && !('id' in message)) {
        const { progressToken, ...rest } = (message.params ?? {}) as { progressToken?: string | number };
        if (progressToken !== undefined) this.handlers.get(progressToken)?.(rest as ProgressInfo);
      } else if ('id' in message && !('method' in message)) this.handlers.delete(message.id as string | number);
    };
  }

  forget(handler: ProgressHandler): void {
    for (const [token, h] of this.handlers) if (h === handler) this.handlers.delete(token);
    if (this.pending === handler) this.pending = undefined;
  }
}

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

/** Resolves with `work`, or rejects with Stop on the time limit or the caller's abort. */
export async function withLimit<T>(work: Promise<T>, ms: number, signal: AbortSignal | undefined): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Stop('timeout')), ms);
    onAbort = () => reject(new Stop('abort'));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  work.catch(() => undefined); // after a timeout the abandoned work rejects; its outcome no longer matters
  try {
    return await Promise.race([work, stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/** A live connection to one server. Not reusable: after close, make a new session to restart. */
export class ServerSession {
  readonly progress = new Progress();
  readonly secrets: string[];
  state: SessionState = 'new';
  transportKind: TransportKind;
  protocolVersion?: string;
  private client?: Client;
  private readonly progressTap = new ProgressTap();
  /** The tools this session listed, by name (their x-mcp-header declarations become Mcp-Param-* headers). */
  private readonly listedTools = new Map<string, ToolSnapshot>();
  private listing?: Promise<void>;
  private stdio?: StdioHandle;
  private readonly transports: Transport[] = [];
  private closing?: Promise<void>;

  constructor(
    readonly def: ServerDefinition,
    private readonly opts: ServerSessionOptions = {},
  ) {
    this.secrets = secretValues(def);
    this.transportKind = def.transport;
  }

  get serverInfo(): ServerSnapshot['serverInfo'] {
    return this.client?.getServerVersion();
  }

  get instructions(): string | undefined {
    return this.client?.getInstructions();
  }

  get capabilities(): Record<string, unknown> {
    return (this.client?.getServerCapabilities() as Record<string, unknown> | undefined) ?? {};
  }

  /** The stdio server's process id (the leader of its process group). */
  pid(): number | undefined {
    return this.stdio?.pid();
  }

  stderrText(): string | undefined {
    const text = this.stdio?.stderr.toString();
    return text ? redact(text, this.secrets) : undefined;
  }

  /** Starts the server and initializes within `timeoutMs`; throws a catalogued, redacted SmartError. */
  async start(opts: { timeoutMs: number; signal?: AbortSignal }): Promise<void> {
    const controller = new AbortController();
    try {
      await withLimit(this.open(controller.signal, opts.timeoutMs), opts.timeoutMs, opts.signal);
    } catch (e) {
      controller.abort();
      const failure = this.describe(e, opts.timeoutMs);
      await this.close();
      throw failure;
    }
  }

  /** A redacted SmartError for anything that went wrong on this session. */
  describe(e: unknown, timeoutMs: number): SmartError {
    return describeFailure(e, this.def, this.stdio, this.progress, timeoutMs, this.secrets);
  }

  /** Connects and initializes without a time limit of its own (the caller races it against one). */
  async open(signal: AbortSignal, timeoutMs: number): Promise<void> {
    this.state = 'starting';
    const def = this.def;
    if (this.opts.createTransport) {
      await this.connectClient(this.opts.createTransport(def), signal, timeoutMs);
    } else if (def.transport === 'stdio') {
      if (!def.command)
        throw new SmartError('CONNECT_SPAWN_FAILED', { command: '(none)', reason: 'the definition has no command' });
      const command = def.command;
      await this.connectEra(signal, false, (pin) => {
        this.stdio = createStdioHandle({
          command,
          args: def.args ?? [],
          env: def.env,
          cwd: def.cwd,
          maxMessageBytes: this.opts.maxMessageBytes ?? MAX_MESSAGE_BYTES,
        });
        return this.connectClient(this.stdio.transport, signal, timeoutMs, pin);
      });
    } else {
      await this.openRemote(signal, timeoutMs);
    }
    const client = this.client;
    if (!client) throw new SmartError('CONNECT_PROTOCOL', { phase: 'initialize', reason: 'no client' });
    if (this.state !== 'starting') throw new SmartError('CONNECT_ABORTED', { phase: 'initialize' });
    this.state = 'ready';
    client.onclose = () => {
      const was = this.state;
      this.state = 'closed';
      if (was === 'ready') this.opts.onClose?.();
    };
  }

  private async openRemote(signal: AbortSignal, timeoutMs: number): Promise<void> {
    const def = this.def;
    if (!def.url) throw new SmartError('CONNECT_FAILED', { target: '(no url)', reason: 'the definition has no url' });
    let url: URL;
    try {
      url = new URL(def.url);
    } catch (e) {
      throw new SmartError('CONNECT_FAILED', { target: def.url, reason: 'not a valid URL' }, { cause: e });
    }
    const requestInit = def.headers ? { headers: { ...def.headers } } : undefined;
    const authProvider = this.opts.authProvider;
    // Answers are capped as stdio messages are, counted after decompression (bounded-fetch.ts).
    const fetch = boundedFetch(authProvider?.fetch, this.opts.maxMessageBytes ?? MAX_MESSAGE_BYTES);
    const options = { requestInit, authProvider, fetch };
    if (def.transport === 'sse') {
      this.transportKind = 'sse';
      await this.connectClient(new SSEClientTransport(url, options), signal, timeoutMs);
      return;
    }
    try {
      await this.connectEra(signal, true, (pin) =>
        this.connectClient(new StreamableHTTPClientTransport(url, options), signal, timeoutMs, pin),
      );
    } catch (httpError) {
      // An authorization answer came over Streamable HTTP: the server speaks it, SSE would not help.
      const authFailure = httpError instanceof UnauthorizedError || httpError instanceof SmartError;
      if (!def.autoTransport || signal.aborted || authFailure) throw httpError;
      // Nothing listening, or no such host: an SSE attempt at the same address cannot fare better.
      const unreachable = networkFailure(httpError);
      if (unreachable)
        throw new SmartError('CONNECT_FAILED', { target: def.url, reason: unreachable }, { cause: httpError });
      await this.resetClient();
      this.transportKind = 'sse';
      try {
        await this.connectClient(new SSEClientTransport(url, options), signal, timeoutMs);
      } catch (sseError) {
        throw new SmartError(
          'CONNECT_FAILED',
          { target: def.url, reason: `Streamable HTTP: ${errorText(httpError)}; SSE fallback: ${errorText(sseError)}` },
          { cause: sseError },
        );
      }
    }
  }

  /**
   * Over Streamable HTTP (`probe`), a server not seen before is opened in the 2026-07-28 era: the SDK's `auto`
   * negotiation sends `server/discover` and itself falls back to `initialize` on the answers a 2025 server gives
   * (400, 404, 405, -32601); anything else it rejects on (a 500, a dropped connection, a probe timeout) gets a
   * fresh 2025 connection here. Otherwise — and always on stdio — the 2025 era first: a server that refuses it with
   * -32022 naming 2026-07-28 gets a fresh connection pinned to that version (a new process on stdio: the refused
   * client closed the first). A server seen modern earlier (in this process or the cache) is reached pinned at once.
   */
  private async connectEra(
    signal: AbortSignal,
    probe: boolean,
    connect: (pin?: string) => Promise<void>,
  ): Promise<void> {
    const seen = rememberedVersion(this.def);
    if (probe && seen === undefined) {
      try {
        await connect('auto');
        rememberVersion(this.def, this.protocolVersion);
        return;
      } catch (e) {
        if (!probeFallsBack(e, this.opts.authProvider !== undefined) || signal.aborted) throw e;
        await this.resetClient();
      }
    }
    const known = seen !== undefined && eraOf(seen) === 'modern' ? seen : undefined;
    try {
      await connect(known);
    } catch (e) {
      // Pinned from memory but no longer modern (the server was replaced by a 2025 one): the 2025 handshake.
      const downgraded = known !== undefined && e instanceof SdkError && e.code === SdkErrorCode.EraNegotiationFailed;
      const forward = known ? undefined : fallForward(e);
      if ((!forward && !downgraded) || signal.aborted) throw e;
      await this.resetClient();
      try {
        await connect(forward?.version);
      } catch (second) {
        // A trial of 2026-07-28 that fails too: the server's own refusal says more.
        throw forward && !forward.sure ? e : second;
      }
    }
    rememberVersion(this.def, this.protocolVersion);
  }

  /** Drops a failed attempt's client and transports before the next attempt (the version it heard goes too). */
  private async resetClient(): Promise<void> {
    await this.closeTransports();
    this.client = undefined;
    this.protocolVersion = undefined;
  }

  private async connectClient(t: Transport, signal: AbortSignal, timeoutMs: number, pin?: string): Promise<void> {
    const capabilities = (this.opts.capabilities ?? {}) as ClientCapabilities;
    const client = new Client(CLIENT_INFO, {
      capabilities,
      jsonSchemaValidator: NO_OUTPUT_VALIDATION,
      ...(pin === 'auto' && { versionNegotiation: { mode: 'auto', probe: { timeoutMs: probeTimeout(timeoutMs) } } }),
      ...(pin && pin !== 'auto' && { versionNegotiation: { mode: { pin } } }),
    });
    const answer = this.opts.onServerRequest;
    if (answer && capabilities.elicitation) {
      client.setRequestHandler('elicitation/create', async (req, ctx) => {
        const result = await answer('elicitation/create', req.params, ctx.mcpReq.signal);
        return result as never;
      });
    }
    if (answer && capabilities.sampling) {
      client.setRequestHandler('sampling/createMessage', async (req, ctx) => {
        const result = await answer('sampling/createMessage', req.params, ctx.mcpReq.signal);
        return result as never;
      });
    }
    if (answer && capabilities.roots) {
      client.setRequestHandler('roots/list', async (req, ctx) => {
        const result = await answer('roots/list', req.params, ctx.mcpReq.signal);
        return result as never;
      });
    }
    const undeclared = this.opts.onUndeclaredRequest;
    if (undeclared) {
      client.fallbackRequestHandler = (req, ctx) => {
        const answer = ASKS.has(req.method) ? undeclared(req.method, req.params, ctx.mcpReq.signal) : undefined;
        return answer ?? Promise.reject(new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found'));
      };
    }
    const notify = this.opts.onNotification;
    if (notify) {
      client.fallbackNotificationHandler = async (n) => {
        notify(n.method, n.params);
        return Promise.resolve();
      };
    }
    this.client = client;
    this.transports.push(t);
    this.progressTap.attach(t);
    this.progress.begin('initialize');
    await client.connect(
      tapProtocolVersion(t, (v) => (this.protocolVersion = v)),
      { signal, timeout: timeoutMs },
    );
    this.progress.end('initialize');
  }

  /** Lists tools, prompts, resources and templates (whatever the server advertises), following every cursor. */
  async listEverything(signal: AbortSignal | undefined, timeoutMs: number, maxPages: number): Promise<Listed> {
    const client = this.readyClient();
    const progress = this.progress;
    const snap: Lists = { tools: [] };
    const request: RequestFn = async (method, params) => {
      progress.begin(method);
      const result = await client.request({ method, params }, ResultSchema, { signal, timeout: timeoutMs });
      progress.end(method);
      return result;
    };
    const caps = client.getServerCapabilities() ?? {};
    let malformed: SmartError | undefined;
    const notes: string[] = [];
    // Prompts and resources are optional: a failed list is a note on a server whose tools still count.
    const optional = (method: string) => (e: unknown) => {
      progress.end(method);
      notes.push(optionalListNote(method, reasonOf(e)));
    };
    const jobs: Promise<void>[] = [];
    // A 2026-07-28 server's own hint on its prompts, resources and templates lists (serve derives its own from them).
    const keepHint = (key: 'prompts' | 'resources' | 'resourceTemplates') => (hint: ListCacheHint | undefined) => {
      if (hint) snap.listCaches = { ...snap.listCaches, [key]: hint };
    };
    if (caps.tools) {
      jobs.push(
        // A 2026-07-28 server's own cache hint for its tool list goes into the snapshot (serve derives its own).
        listAllPages(request, 'tools/list', 'tools', maxPages, (hint) => {
          if (hint) snap.listCache = hint;
        }).then((entries) => {
          const checked = checkToolEntries(entries);
          snap.tools = checked.tools;
          for (const t of checked.tools) this.listedTools.set(t.name, t);
          if (checked.problems.length > 0) malformed = malformedToolsError(checked);
        }),
      );
    }
    if (caps.prompts) {
      jobs.push(
        listAllPages(request, 'prompts/list', 'prompts', maxPages, keepHint('prompts')).then(
          (e) => void (snap.prompts = checkObjectEntries(e, 'prompts/list')),
          optional('prompts/list'),
        ),
      );
    }
    if (caps.resources) {
      jobs.push(
        listAllPages(request, 'resources/list', 'resources', maxPages, keepHint('resources')).then(
          (e) => void (snap.resources = checkObjectEntries(e, 'resources/list')),
          optional('resources/list'),
        ),
      );
      jobs.push(
        listAllPages(
          request,
          'resources/templates/list',
          'resourceTemplates',
          maxPages,
          keepHint('resourceTemplates'),
        ).then(
          (e) => void (snap.resourceTemplates = checkObjectEntries(e, 'resources/templates/list')),
          (e: unknown) => {
            // Older servers advertise resources but never implemented templates: that is "none", not a failure.
            if (e instanceof ProtocolError && e.code === ProtocolErrorCode.MethodNotFound) {
              progress.end('resources/templates/list');
              snap.resourceTemplates = [];
              return;
            }
            optional('resources/templates/list')(e);
          },
        ),
      );
    }
    await Promise.all(jobs);
    return { lists: snap, malformed, notes };
  }

  /** Any request, its result returned exactly as the server sent it (no schema reshapes it). */
  request(method: string, params: Record<string, unknown> | undefined, opts: RequestOptions): Promise<Answer> {
    try {
      const client = this.readyClient();
      // Only a 2026-07-28 session sends header parameters; any other request goes out at once, no async layer.
      if (method === 'tools/call' && client.getProtocolEra() === 'modern') return this.modernCall(client, params, opts);
      return this.send(client, method, params, opts);
    } catch (e) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- rejects with what was thrown, as an async function would
      return Promise.reject(e);
    }
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
    if (!onprogress)
      return client.request({ method, params }, ResultSchema, { signal: opts.signal, timeout: opts.timeoutMs });
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
    this.progressTap.pending = onprogress;
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
      tapped = this.progressTap.pending === undefined;
      this.progressTap.pending = undefined;
      return await answer;
    } finally {
      this.progressTap.forget(onprogress);
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

  /** tools/call; the CallToolResult comes back unchanged (content, structuredContent, isError, _meta). */
  callTool(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    opts: RequestOptions,
  ) {
    return this.request('tools/call', params, opts);
  }

  readResource(params: { uri: string }, opts: RequestOptions) {
    return this.request('resources/read', params, opts);
  }

  getPrompt(params: { name: string; arguments?: Record<string, string> }, opts: RequestOptions) {
    return this.request('prompts/get', params, opts);
  }

  complete(params: Record<string, unknown>, opts: RequestOptions) {
    return this.request('completion/complete', params, opts);
  }

  subscribe(params: { uri: string }, opts: RequestOptions) {
    return this.request('resources/subscribe', params, opts);
  }

  unsubscribe(params: { uri: string }, opts: RequestOptions) {
    return this.request('resources/unsubscribe', params, opts);
  }

  /** A notification to the server (e.g. notifications/roots/list_changed); dropped when it is not running. */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.state !== 'ready' || !this.client) return;
    await this.client.notification({ method, params });
  }

  /** Health: a ping answered within `timeoutMs`. */
  async ping(timeoutMs: number): Promise<boolean> {
    try {
      await this.readyClient().ping({ timeout: timeoutMs });
      return true;
    } catch {
      return false;
    }
  }

  private readyClient(): Client {
    if (this.state !== 'ready' || !this.client) throw new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    return this.client;
  }

  /** Ends the connection and, for stdio, the whole process tree. Safe to call more than once. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.state = 'closed';
      await this.closeTransports();
      if (this.stdio) await this.stdio.terminate();
    })();
    return this.closing;
  }

  private async closeTransports(): Promise<void> {
    const transports = this.transports.splice(0);
    await Promise.all(
      transports.map(async (t) => {
        try {
          await t.close();
        } catch {
          // Closing a transport that already failed may throw again; the process kill still runs.
        }
      }),
    );
  }
}

/** Listing with a shared signal: every paged request listens on it, so lift the listener cap. */
export function listSignal(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
