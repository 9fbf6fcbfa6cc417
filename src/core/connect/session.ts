/** One live connection: start or reach a server, initialize, list everything it advertises, always clean up. */
import { setMaxListeners } from 'node:events';
import { existsSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { ErrorCode, McpError, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { SmartError, errorText } from '../../errors.js';
import type { ServerDefinition, ServerSnapshot, Transport as TransportKind } from '../../types.js';
import { checkObjectEntries, checkToolEntries, listAllPages, malformedToolsError, type RequestFn } from './list.js';
import { createStdioHandle, type StdioHandle } from './stdio.js';
import { meaningfulStderrLine, optionalListNote, shortReason } from './failure-text.js';

const CLIENT_INFO = { name: 'mcp-smart', version: '0.1.0' };

/**
 * We never call tools, so tool output is never validated. The SDK's default builds a fresh Ajv per Client
 * (about 9 ms each), which delays every spawn after the first when many servers start together.
 */
const NO_OUTPUT_VALIDATION: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

export interface SessionOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  maxPages: number;
  captureStderr: boolean;
  /** Monotonic milliseconds, for elapsedMs. */
  clock: () => number;
  /** Replaces the real transports (tests use the SDK's in-memory pair). */
  createTransport?: (def: ServerDefinition) => Transport;
}

/** Values that must never be shown: env and header values (short ones would redact ordinary words). */
export function secretValues(def: ServerDefinition): string[] {
  const values = [...Object.values(def.env ?? {}), ...Object.values(def.headers ?? {})];
  return [...new Set(values.filter((v) => v.length >= 4))].sort((a, b) => b.length - a.length);
}

export function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join('***');
  return out;
}

/** Where the session is, for timeout and failure messages. */
class Progress {
  phase = 'start-up';
  private readonly pending = new Set<string>();
  begin(method: string): void {
    this.pending.add(method);
    this.phase = [...this.pending].join(', ');
  }
  end(method: string): void {
    this.pending.delete(method);
    if (this.pending.size > 0) this.phase = [...this.pending].join(', ');
  }
}

class Stop extends Error {
  constructor(readonly why: 'timeout' | 'abort') {
    super(why);
  }
}

interface Live {
  client?: Client;
  transports: Transport[];
  stdio?: StdioHandle;
  protocolVersion?: string;
  transport: TransportKind;
}

/** Records the negotiated protocol version: the Client hands it to any transport that accepts it. */
function tapProtocolVersion(t: Transport, live: Live): Transport {
  const original = t.setProtocolVersion?.bind(t);
  t.setProtocolVersion = (v: string) => {
    live.protocolVersion = v;
    original?.(v);
  };
  return t;
}

async function connectClient(
  t: Transport,
  live: Live,
  progress: Progress,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Client> {
  const client = new Client(CLIENT_INFO, { capabilities: {}, jsonSchemaValidator: NO_OUTPUT_VALIDATION });
  live.client = client;
  live.transports.push(t);
  progress.begin('initialize');
  await client.connect(tapProtocolVersion(t, live), { signal, timeout: timeoutMs });
  progress.end('initialize');
  return client;
}

async function open(
  def: ServerDefinition,
  live: Live,
  progress: Progress,
  signal: AbortSignal,
  opts: SessionOptions,
): Promise<Client> {
  if (opts.createTransport) return connectClient(opts.createTransport(def), live, progress, signal, opts.timeoutMs);
  if (def.transport === 'stdio') {
    if (!def.command)
      throw new SmartError('CONNECT_SPAWN_FAILED', { command: '(none)', reason: 'the definition has no command' });
    live.stdio = createStdioHandle({ command: def.command, args: def.args ?? [], env: def.env, cwd: def.cwd });
    return connectClient(live.stdio.transport, live, progress, signal, opts.timeoutMs);
  }
  if (!def.url) throw new SmartError('CONNECT_FAILED', { target: '(no url)', reason: 'the definition has no url' });
  let url: URL;
  try {
    url = new URL(def.url);
  } catch (e) {
    throw new SmartError('CONNECT_FAILED', { target: def.url, reason: 'not a valid URL' }, { cause: e });
  }
  const requestInit = def.headers ? { headers: { ...def.headers } } : undefined;
  if (def.transport === 'sse') {
    live.transport = 'sse';
    return connectClient(new SSEClientTransport(url, { requestInit }), live, progress, signal, opts.timeoutMs);
  }
  try {
    return await connectClient(
      new StreamableHTTPClientTransport(url, { requestInit }),
      live,
      progress,
      signal,
      opts.timeoutMs,
    );
  } catch (httpError) {
    if (!def.autoTransport || signal.aborted) throw httpError;
    // Nothing listening, or no such host: an SSE attempt at the same address cannot fare better.
    const unreachable = networkFailure(httpError);
    if (unreachable)
      throw new SmartError('CONNECT_FAILED', { target: def.url, reason: unreachable }, { cause: httpError });
    await closeLive(live);
    live.client = undefined;
    live.transport = 'sse';
    try {
      return await connectClient(new SSEClientTransport(url, { requestInit }), live, progress, signal, opts.timeoutMs);
    } catch (sseError) {
      throw new SmartError(
        'CONNECT_FAILED',
        { target: def.url, reason: `Streamable HTTP: ${errorText(httpError)}; SSE fallback: ${errorText(sseError)}` },
        { cause: sseError },
      );
    }
  }
}

async function closeLive(live: Live): Promise<void> {
  const transports = live.transports.splice(0);
  await Promise.all(
    transports.map(async (t) => {
      try {
        await t.close();
      } catch {
        // Closing a transport that already failed may throw again; the process kill below still runs.
      }
    }),
  );
  if (live.stdio) await live.stdio.terminate();
}

type Lists = Pick<ServerSnapshot, 'tools' | 'prompts' | 'resources' | 'resourceTemplates'>;

interface Listed {
  lists: Lists;
  malformed?: SmartError;
  notes?: string[];
}

async function listEverything(
  client: Client,
  progress: Progress,
  signal: AbortSignal,
  opts: SessionOptions,
): Promise<Listed> {
  const snap: Lists = { tools: [] };
  const request: RequestFn = async (method, params) => {
    progress.begin(method);
    const result = await client.request({ method, params }, ResultSchema, { signal, timeout: opts.timeoutMs });
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
  if (caps.tools) {
    jobs.push(
      listAllPages(request, 'tools/list', 'tools', opts.maxPages).then((entries) => {
        const checked = checkToolEntries(entries);
        snap.tools = checked.tools;
        if (checked.problems.length > 0) malformed = malformedToolsError(checked);
      }),
    );
  }
  if (caps.prompts) {
    jobs.push(
      listAllPages(request, 'prompts/list', 'prompts', opts.maxPages).then(
        (e) => void (snap.prompts = checkObjectEntries(e, 'prompts/list')),
        optional('prompts/list'),
      ),
    );
  }
  if (caps.resources) {
    jobs.push(
      listAllPages(request, 'resources/list', 'resources', opts.maxPages).then(
        (e) => void (snap.resources = checkObjectEntries(e, 'resources/list')),
        optional('resources/list'),
      ),
    );
    jobs.push(
      listAllPages(request, 'resources/templates/list', 'resourceTemplates', opts.maxPages).then(
        (e) => void (snap.resourceTemplates = checkObjectEntries(e, 'resources/templates/list')),
        (e: unknown) => {
          // Older servers advertise resources but never implemented templates: that is "none", not a failure.
          if (e instanceof McpError && e.code === ErrorCode.MethodNotFound) {
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

function exitText(exit: { code: number | null; signal: string | null }): string {
  return exit.signal ? `on signal ${exit.signal}` : `with code ${exit.code ?? '?'}`;
}

/** Turns whatever went wrong into a catalogued SmartError with the phase, exit status or stderr line. */
function describeFailure(
  e: unknown,
  def: ServerDefinition,
  live: Live,
  progress: Progress,
  timeoutMs: number,
  secrets: string[],
): SmartError {
  if (e instanceof Stop) {
    return e.why === 'timeout'
      ? new SmartError('CONNECT_TIMEOUT', { phase: progress.phase, ms: timeoutMs })
      : new SmartError('CONNECT_ABORTED', { phase: progress.phase });
  }
  if (e instanceof SmartError) return e;
  const stdio = live.stdio;
  const spawnError = stdio?.spawnError();
  if (spawnError) {
    if (spawnError.code === 'ENOENT' && def.cwd !== undefined && !existsSync(def.cwd)) {
      return new SmartError(
        'CONNECT_SPAWN_FAILED',
        { command: def.command, reason: `the working directory ${def.cwd} does not exist` },
        { cause: e },
      );
    }
    if (spawnError.code === 'ENOENT')
      return new SmartError('CONNECT_NOT_FOUND', { command: def.command }, { cause: e });
    return new SmartError(
      'CONNECT_SPAWN_FAILED',
      { command: def.command, reason: redact(errorText(spawnError), secrets) },
      { cause: e },
    );
  }
  const exit = stdio?.exit();
  if (exit) {
    const tail = meaningfulStderrLine(stdio?.stderr.toString() ?? '') ?? stdio?.stderr.lastLine();
    return new SmartError(
      'CONNECT_EXITED',
      { how: exitText(exit), phase: progress.phase, tail: tail && redact(tail.slice(0, 300), secrets) },
      { cause: e },
    );
  }
  if (
    def.transport !== 'stdio' &&
    progress.phase === 'initialize' &&
    !(e instanceof McpError && e.code !== ErrorCode.ConnectionClosed)
  ) {
    return new SmartError(
      'CONNECT_FAILED',
      { target: def.url, reason: networkFailure(e) ?? redact(shortReason(reasonOf(e)), secrets) },
      { cause: e },
    );
  }
  return new SmartError(
    'CONNECT_PROTOCOL',
    { phase: progress.phase, reason: redact(shortReason(reasonOf(e)), secrets) },
    { cause: e },
  );
}

const NETWORK_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'connection refused (nothing is listening there; is the server running?)',
  ENOTFOUND: 'host not found (check the URL)',
  EAI_AGAIN: 'host name lookup failed (check the URL and the network)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** The plain reason when fetch failed before any HTTP exchange (the code sits in `cause`, or in an AggregateError). */
export function networkFailure(e: unknown): string | undefined {
  const queue: unknown[] = [e];
  for (let i = 0; i < queue.length && i < 16; i++) {
    const x = queue[i];
    if (typeof x !== 'object' || x === null) continue;
    const code = (x as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_FAILURES[code]) return NETWORK_FAILURES[code];
    // The SSE transport keeps only the text ("SSE error: TypeError: fetch failed: connect ECONNREFUSED …").
    const named = /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)\b/.exec(
      messageText((x as { message?: unknown }).message),
    );
    if (named) return NETWORK_FAILURES[named[1]!];
    queue.push((x as { cause?: unknown }).cause, (x as { event?: unknown }).event);
    const errors = (x as { errors?: unknown }).errors;
    if (Array.isArray(errors)) queue.push(...(errors as unknown[]));
  }
  return undefined;
}

/** An error's message plus its cause's (fetch hides ECONNREFUSED in `cause`). */
function reasonOf(e: unknown): string {
  const status =
    (e instanceof StreamableHTTPError || e instanceof SseError) && typeof e.code === 'number' && e.code >= 100
      ? e.code
      : undefined;
  const text =
    status !== undefined && !errorText(e).includes(String(status)) ? `HTTP ${status}: ${errorText(e)}` : errorText(e);
  const cause = e instanceof Error ? e.cause : undefined;
  return cause instanceof Error && !text.includes(cause.message) ? `${text} (${cause.message})` : text;
}

/** Connects to one server under `timeoutMs` and returns its snapshot; never throws. */
export async function connectServer(def: ServerDefinition, opts: SessionOptions): Promise<ServerSnapshot> {
  const started = opts.clock();
  const snap: ServerSnapshot = {
    name: def.name,
    transport: def.transport,
    source: def.source,
    status: 'ok',
    tools: [],
  };
  const live: Live = { transports: [], transport: def.transport };
  const progress = new Progress();
  const secrets = secretValues(def);
  const controller = new AbortController();
  // Every paged request listens on this signal; a 1,000-page list is not a leak.
  setMaxListeners(0, controller.signal);
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Stop('timeout')), opts.timeoutMs);
    onAbort = () => reject(new Stop('abort'));
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
  });
  const work = (async () => {
    const client = await open(def, live, progress, controller.signal, opts);
    progress.phase = 'listing';
    snap.serverInfo = client.getServerVersion();
    if (live.protocolVersion) snap.protocolVersion = live.protocolVersion;
    const instructions = client.getInstructions();
    if (instructions !== undefined) snap.instructions = instructions;
    return listEverything(client, progress, controller.signal, opts);
  })();
  work.catch(() => undefined); // after a timeout the abandoned work rejects; its outcome no longer matters
  let failure: SmartError | undefined;
  try {
    const listed = await Promise.race([work, stopped]);
    snap.elapsedMs = Math.round(opts.clock() - started);
    // Malformed entries fail the server but the well-formed tools are kept (the list itself was complete).
    Object.assign(snap, listed.lists);
    const notes = [...(listed.notes ?? []), ...(listed.malformed ? [listed.malformed.message] : [])];
    if (notes.length > 0) snap.notes = notes.map((n) => redact(n, secrets));
  } catch (e) {
    // A failed list is not kept: partial or looping pages would give wrong totals.
    snap.elapsedMs = Math.round(opts.clock() - started);
    failure = describeFailure(e, def, live, progress, opts.timeoutMs, secrets);
  } finally {
    clearTimeout(timer);
    if (onAbort) opts.signal?.removeEventListener('abort', onAbort);
    controller.abort();
    await closeLive(live);
  }
  snap.transport = live.transport;
  if (failure) {
    snap.status = 'error';
    snap.error = redact(failure.message, secrets);
    snap.errorCode = failure.code;
  }
  const stderr = live.stdio?.stderr.toString();
  if (opts.captureStderr && stderr) snap.stderr = redact(stderr, secrets);
  return snap;
}

function messageText(m: unknown): string {
  return typeof m === 'string' ? m : '';
}
