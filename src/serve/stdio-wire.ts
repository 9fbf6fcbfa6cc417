/**
 * serve's stdio connection to its client: newline-delimited JSON-RPC on stdin/stdout, read in linear time
 * (core/wire/line-reader.ts). A message over MAX_CLIENT_MESSAGE_BYTES is refused on its own — the client gets a JSON-RPC
 * error for that request (its id read from the message's first and last bytes; null when they do not show it) and
 * stderr says so — and serve goes on reading the next one. The SDK's transport closed the whole connection
 * instead, and serve then exited 0 without a word.
 *
 * It keeps the ids of the client's requests not answered yet: a request reusing one is refused (-32600, its answer
 * would be taken for the first's), and when serve stops (`drain`) new requests are refused, those in flight get a
 * grace to finish, and the rest are answered with an error: the client is not left waiting for answers that never come.
 */
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/server';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { readMessage } from '../core/wire/jsonrpc-message.js';
import { LineReader, messageIdOf } from '../core/wire/line-reader.js';
import { INVALID_REQUEST, unreadableMessage } from '../core/wire/unreadable-message.js';
import { messageTooDeep, TOO_DEEP } from '../core/wire/nesting.js';
import { errorAnswer, idInUse, SHUTTING_DOWN, type RequestId } from '../core/wire/request-rules.js';
import { cancelledCall, isCallId } from './wire-call-params.js';

/** The largest message a client may send serve over stdio (the MCP SDKs' own stdio limit). */
export const MAX_CLIENT_MESSAGE_BYTES = 10 * 1024 * 1024;
/** What a write stdout took at once returns: one shared promise, not one per message. */
const WRITTEN: Promise<void> = Promise.resolve();

export class StdioWire implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private closed = false;
  private readonly reader: LineReader;
  private drained: Promise<void> | undefined;
  /** The client's requests not answered yet, by id (as JSON: 1 and "1" are two); a listen is held open by design. */
  private readonly open = new Map<string, { id: RequestId; listen: boolean }>();
  /** Set by `drain`: what a new request is told (serve is stopping); `answered`: every open request was answered. */
  private stopping: { refusal: string; answered: boolean; idle?: () => void } | undefined;

  constructor(
    private readonly stdin: NodeJS.ReadableStream,
    private readonly stdout: NodeJS.WritableStream,
    private readonly log: (text: string) => void,
    maxBytes = MAX_CLIENT_MESSAGE_BYTES,
  ) {
    this.reader = new LineReader({
      maxBytes,
      onLine: (line) => this.receive(line),
      onOversize: ({ head, tail, bytes }) => this.refuse(messageIdOf(head, tail), bytes, maxBytes, head),
    });
  }

  private readonly ondata = (chunk: Buffer | string): void =>
    this.reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  private readonly onend = (): void => void this.close();
  private readonly onerr = (e: Error): void => this.onerror?.(e);

  start(): Promise<void> {
    this.stdin.on('data', this.ondata);
    this.stdin.on('end', this.onend);
    this.stdin.on('close', this.onend);
    this.stdin.on('error', this.onerr);
    this.stdout.on('error', this.onerr);
    const ended = this.stdin as NodeJS.ReadableStream & { readableEnded?: boolean; destroyed?: boolean };
    if (ended.readableEnded === true || ended.destroyed === true) setImmediate(this.onend);
    return Promise.resolve();
  }

  private receive(line: string): void {
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      // The SDK's parse, without zod for the shapes that plainly pass it (the SDK's own for anything else).
      message = readMessage(line, deserializeMessage);
    } catch (e) {
      this.onerror?.(e as Error);
      // Said on stderr, and answered when it asked something: the client is not left waiting.
      const { reason, answer } = unreadableMessage(line, e);
      this.log(`ignored a line from the client: ${reason}`);
      if (answer && !this.closed) void this.write(JSON.stringify(answer) + '\n').catch(() => undefined);
      return;
    }
    if (messageTooDeep(line, message)) {
      // The SDK's schema walk would overflow the stack on it: refused here, answered when it asked something.
      const m = message as { id?: unknown; method?: unknown };
      this.log(`ignored a line from the client: ${TOO_DEEP}`);
      if (m.id !== undefined && typeof m.method === 'string' && !this.closed) {
        const error = { code: INVALID_REQUEST, message: `mcp-smart: ${TOO_DEEP}` };
        void this.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error }) + '\n').catch(() => undefined);
      }
      return;
    }
    if (!this.admit(message)) return;
    this.onmessage?.(message);
  }

  /** Keeps a request's id until it is answered; false (answered here) for a duplicate id or while stopping. */
  private admit(m: { id?: unknown; method?: unknown; params?: unknown }): boolean {
    if (typeof m.method !== 'string') return true;
    if (!isCallId(m.id)) {
      // A cancelled request gets no answer: its id is free again.
      const cancelled = cancelledCall(m)?.id;
      if (isCallId(cancelled)) this.open.delete(JSON.stringify(cancelled));
      return true;
    }
    const key = JSON.stringify(m.id);
    const refusal = this.stopping?.refusal ?? (this.open.has(key) ? `mcp-smart: ${idInUse(m.id)}` : undefined);
    if (refusal === undefined) {
      this.open.set(key, { id: m.id, listen: m.method === 'subscriptions/listen' });
      return true;
    }
    this.log(`refused request ${key} (${m.method}) from the client: ${refusal.replace(/^mcp-smart: /, '')}`);
    const code = this.stopping ? SHUTTING_DOWN : INVALID_REQUEST;
    if (!this.closed) void this.write(JSON.stringify(errorAnswer(m.id, code, refusal)) + '\n').catch(() => undefined);
    return false;
  }

  /** Requests in flight that are not listens (held open until cancelled). */
  private get calls(): { id: RequestId; listen: boolean }[] {
    return [...this.open.values()].filter((r) => !r.listen);
  }

  /**
   * serve is stopping: new requests are refused with `refusal`, those in flight get `graceMs` to be answered, and
   * each still open then is answered with `abandoned` (SHUTTING_DOWN); nothing is sent after. Returns how many.
   */
  async drain(graceMs: number, refusal: string, abandoned: string): Promise<number> {
    const stopping: NonNullable<StdioWire['stopping']> = { refusal, answered: false };
    this.stopping = stopping;
    if (this.calls.length > 0 && !this.closed)
      await new Promise<void>((resolve) => {
        stopping.idle = resolve;
        setTimeout(resolve, graceMs).unref();
      });
    const left = this.closed ? [] : this.calls;
    for (const { id } of left) await this.write(JSON.stringify(errorAnswer(id, SHUTTING_DOWN, abandoned)) + '\n');
    stopping.answered = true;
    return left.length;
  }

  private refuse(id: string | number | undefined, bytes: number, maxBytes: number, head: string): void {
    const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;
    const text = `a message of ${mb(bytes)} is over the ${mb(maxBytes)} limit for one message on stdio; it was not read`;
    // A notification (a method, no id at either end) is never answered: said on stderr only.
    if (id === undefined && /^\s*\{[^]*?"method"\s*:\s*"/.test(head)) {
      this.log(`refused a notification from the client: ${text}`);
      return;
    }
    this.log(`refused ${id === undefined ? 'a message' : `request ${JSON.stringify(id)}`} from the client: ${text}`);
    const error = { code: INVALID_REQUEST, message: `mcp-smart: ${text}` };
    // JSON-RPC: an error whose request id cannot be read carries id null.
    void this.write(JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error }) + '\n').catch(() => undefined);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the stdio connection is closed'));
    // Once drained, the requests still open were answered with an error: a late answer would be a second one.
    if (this.stopping?.answered) return WRITTEN;
    const m = message as { id?: unknown; method?: unknown };
    if (m.method === undefined && isCallId(m.id)) {
      this.open.delete(JSON.stringify(m.id));
      if (this.stopping && this.calls.length === 0) this.stopping.idle?.();
    }
    return this.write(serializeMessage(message));
  }

  /**
   * Writes in order; while stdout's buffer is full every writer waits for the same 'drain' (a burst of thousands
   * of answers adds one listener, not one each). A stdout error reaches `onerror` through the listener of start.
   */
  private write(text: string): Promise<void> {
    if (this.stdout.write(text)) return this.drained ?? WRITTEN;
    this.drained ??= new Promise<void>((resolve) =>
      this.stdout.once('drain', () => {
        this.drained = undefined;
        resolve();
      }),
    );
    return this.drained;
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.stdin.off('data', this.ondata);
    this.stdin.off('end', this.onend);
    this.stdin.off('close', this.onend);
    this.stdin.off('error', this.onerr);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.reader.clear();
    this.onclose?.();
    return Promise.resolve();
  }
}
