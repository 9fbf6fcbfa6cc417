/** Turning what went wrong on a connection into a catalogued SmartError, with secrets redacted. */
import { existsSync } from 'node:fs';
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, SseError } from '@modelcontextprotocol/client';
import { SmartError, errorText } from '../../process/errors.js';
import type { ServerDefinition } from '../types.js';
import { redact } from './secrets.js';
import type { StdioHandle } from './stdio.js';
import { meaningfulStderrLine, shortReason } from './failure-text.js';

export { redact, secretValues } from './secrets.js';

/** Where the session is, for timeout and failure messages. */
export class Progress {
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

/** A limit reached: the time ran out or the caller aborted. */
export class Stop extends Error {
  constructor(readonly why: 'timeout' | 'abort') {
    super(why);
  }
}

function exitText(exit: { code: number | null; signal: string | null }): string {
  return exit.signal ? `on signal ${exit.signal}` : `with code ${exit.code ?? '?'}`;
}

/** Turns whatever went wrong into a catalogued SmartError with the phase, exit status or stderr line. */
export function describeFailure(
  e: unknown,
  def: ServerDefinition,
  stdio: StdioHandle | undefined,
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
    !(e instanceof ProtocolError || (e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout))
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
export function reasonOf(e: unknown): string {
  const status =
    e instanceof SdkHttpError
      ? e.status
      : e instanceof SseError && typeof e.code === 'number' && e.code >= 100
        ? e.code
        : undefined;
  const text =
    status !== undefined && !errorText(e).includes(String(status)) ? `HTTP ${status}: ${errorText(e)}` : errorText(e);
  const cause = e instanceof Error ? e.cause : undefined;
  return cause instanceof Error && !text.includes(cause.message) ? `${text} (${cause.message})` : text;
}

function messageText(m: unknown): string {
  return typeof m === 'string' ? m : '';
}
