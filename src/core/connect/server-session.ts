/**
 * One server's live lifecycle: start (stdio spawn without a shell, or Streamable HTTP with SSE fallback),
 * list with pagination, forward calls, health, and close — which ends the whole process tree.
 */
import {
  UnauthorizedError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  SdkErrorCode,
  SdkError,
} from '@modelcontextprotocol/client';
import type { Client, Transport } from '@modelcontextprotocol/client';
import { SmartError, errorText } from '../../process/errors.js';
import type { ServerDefinition, ServerSnapshot, Transport as TransportKind } from '../types.js';
import { connectInEra } from './era-connect.js';
import { describeFailure, networkFailure, Progress, redact, secretValues } from './failure.js';
import { listEverything, type Listed } from './list-everything.js';
import type { SmartOAuthProvider } from './oauth/provider.js';
import { createSessionClient, tapProtocolVersion, type ClientHandlers } from './session-client.js';
import { SessionRequests, type Answer, type RequestOptions } from './session-requests.js';
import { readableAnswers } from './answer-fetch.js';
import { MAX_MESSAGE_BYTES, createStdioHandle, type StdioHandle } from './stdio.js';
import type { ServerProcess } from './server-process.js';
import { withLimit } from './time-limit.js';
import { boundedFetch } from './bounded-fetch.js';

export type { ServerRequestHandler } from './session-client.js';

/** How a session lists, connects and answers; the handlers of what the server sends are ClientHandlers'. */
export interface ServerSessionOptions extends ClientHandlers {
  /** Stop a list whose cursor keeps going after this many pages. */
  maxPages?: number;
  /** Replaces the real transports (tests use the SDK's in-memory pair). */
  createTransport?: (def: ServerDefinition) => Transport;
  /** The connection ended after a successful start (the server exited, crashed or hung up). */
  onClose?: () => void;
  /** OAuth for a remote server: supplies tokens to the transport and refreshes them on a 401. */
  authProvider?: SmartOAuthProvider;
  /** The largest message read from the server, over stdio or HTTP (default MAX_MESSAGE_BYTES, 256 MB). */
  maxMessageBytes?: number;
  /** The stdio server's process, started ahead of this session (serve/prespawn.ts): its first connection adopts it. */
  prespawned?: ServerProcess;
}

export type SessionState = 'new' | 'starting' | 'ready' | 'closed';

/** A live connection to one server. Not reusable: after close, make a new session to restart. */
export class ServerSession {
  readonly progress = new Progress();
  readonly secrets: string[];
  state: SessionState = 'new';
  transportKind: TransportKind;
  protocolVersion?: string;
  private client?: Client;
  /** Requests over the client: progress in arrival order, header parameters from the listed tools' definitions. */
  private readonly requests = new SessionRequests();
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
      // Only the first connection takes the process started ahead: another attempt (the other era) starts anew.
      let ahead = this.opts.prespawned;
      await this.connectEra(signal, false, (pin) => {
        this.stdio = createStdioHandle({
          command,
          args: def.args ?? [],
          env: def.env,
          cwd: def.cwd,
          maxMessageBytes: this.opts.maxMessageBytes ?? MAX_MESSAGE_BYTES,
          prespawned: ahead,
        });
        ahead = undefined;
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
    // Answers are capped as stdio messages are, counted after decompression (bounded-fetch.ts), and an answer the
    // SDK's schema refuses fails its request at once, as on stdio (answer-fetch.ts).
    const fetch = readableAnswers(boundedFetch(authProvider?.fetch, this.opts.maxMessageBytes ?? MAX_MESSAGE_BYTES));
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

  /** The era this connection is opened in (era-connect.ts); `connect` makes one attempt, pinned or probing. */
  private connectEra(signal: AbortSignal, probe: boolean, connect: (pin?: string) => Promise<void>): Promise<void> {
    return connectInEra(
      this.def,
      {
        signal,
        probe,
        oauth: this.opts.authProvider !== undefined,
        reset: () => this.resetClient(),
        negotiated: () => this.protocolVersion,
      },
      connect,
    );
  }

  /** Drops a failed attempt's client and transports before the next attempt (the version it heard goes too). */
  private async resetClient(): Promise<void> {
    await this.closeTransports();
    this.client = undefined;
    this.protocolVersion = undefined;
  }

  private async connectClient(t: Transport, signal: AbortSignal, timeoutMs: number, pin?: string): Promise<void> {
    const client = createSessionClient(this.opts, timeoutMs, pin);
    this.client = client;
    this.transports.push(t);
    this.requests.attach(t);
    this.progress.begin('initialize');
    await client.connect(
      tapProtocolVersion(t, (v) => (this.protocolVersion = v)),
      { signal, timeout: timeoutMs },
    );
    this.progress.end('initialize');
  }

  /** Lists tools, prompts, resources and templates (whatever the server advertises), following every cursor. */
  async listEverything(signal: AbortSignal | undefined, timeoutMs: number, maxPages: number): Promise<Listed> {
    return listEverything(this.readyClient(), this.progress, { signal, timeoutMs, maxPages }, (tool) =>
      this.requests.remember(tool),
    );
  }

  /** Any request, its result returned exactly as the server sent it (no schema reshapes it). */
  request(method: string, params: Record<string, unknown> | undefined, opts: RequestOptions): Promise<Answer> {
    try {
      const client = this.readyClient();
      // A server that exits now is told as exiting during this request (it read "during initialize", long done).
      this.progress.phase = method;
      return this.requests.request(client, method, params, opts);
    } catch (e) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- rejects with what was thrown, as an async function would
      return Promise.reject(e);
    }
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
