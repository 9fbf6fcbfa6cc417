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
 *
 * A JSON-RPC batch (one line holding an array) is taken on a connection whose initialize negotiated 2025-03-26, the
 * one revision that has them, as over HTTP (http-sessions.ts): its members are handled one by one as if each came on
 * a line of its own (the same id rules), and their answers go back as one array once all are in (none for a batch of
 * notifications); an initialize among them is refused alone (MCP: it is never part of a batch). Before initialize and
 * on later revisions a batch is refused, as the SDK's stdio transport did, naming the revision negotiated.
 */
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/server';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { readMessage } from '../core/wire/jsonrpc-message.js';
import { LineReader, messageIdOf } from '../core/wire/line-reader.js';
import { INVALID_REQUEST, unreadableMessage } from '../core/wire/unreadable-message.js';
import { messageTooDeep, TOO_DEEP } from '../core/wire/nesting.js';
import {
  batchesRemoved,
  batchRefusal,
  EMPTY_BATCH,
  errorAnswer,
  idInUse,
  initializeInBatch,
  isInitializeMember,
  SHUTTING_DOWN,
  type RequestId,
} from '../core/wire/request-rules.js';
import { cancelledCall, isCallId } from './wire-call-params.js';

/** The largest message a client may send serve over stdio (the MCP SDKs' own stdio limit). */
export const MAX_CLIENT_MESSAGE_BYTES = 10 * 1024 * 1024;
/** What a write stdout took at once returns: one shared promise, not one per message. */
const WRITTEN: Promise<void> = Promise.resolve();

type Answer = ReturnType<typeof errorAnswer> | JSONRPCMessage;
/** The answers of one batch, by member; sent as one array once `sealed` (all members read) and none is `waiting`. */
interface Batch {
  answers: (Answer | undefined)[];
  waiting: number;
  sealed: boolean;
}
/** Where a batch member's answer goes. */
interface Slot {
  batch: Batch;
  index: number;
}

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
  /** The revision the connection's initialize negotiated (the SDK's Server tells it): whether batches are taken. */
  private version: string | undefined;
  /** The batch members being answered, by request id (as JSON). */
  private readonly inBatch = new Map<string, Slot>();

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

  /** Called by the SDK's Server with the revision its initialize answered. */
  setProtocolVersion(version: string): void {
    this.version = version;
  }

  private receive(line: string): void {
    if (line.trim() === '') return;
    if (this.version !== undefined && /^\s*\[/.test(line)) return this.batch(line);
    this.single(line);
  }

  private single(line: string): void {
    const answer = this.take(line);
    if (answer && !this.closed) void this.write(JSON.stringify(answer) + '\n').catch(() => undefined);
  }

  /** Reads one message and hands it on; returns the error it is owed when it is refused here (none for a notification). */
  private take(line: string, slot?: Slot): Answer | undefined {
    let message: JSONRPCMessage;
    try {
      // The SDK's parse, without zod for the shapes that plainly pass it (the SDK's own for anything else).
      message = readMessage(line, deserializeMessage);
    } catch (e) {
      this.onerror?.(e as Error);
      // Said on stderr, and answered when it asked something: the client is not left waiting.
      const { reason, answer } = unreadableMessage(line, e);
      this.log(`ignored a line from the client: ${reason}`);
      return answer;
    }
    if (messageTooDeep(line, message)) {
      // The SDK's schema walk would overflow the stack on it: refused here, answered when it asked something.
      const m = message as { id?: unknown; method?: unknown };
      this.log(`ignored a line from the client: ${TOO_DEEP}`);
      if (m.id === undefined || typeof m.method !== 'string') return undefined;
      return {
        jsonrpc: '2.0',
        id: m.id,
        error: { code: INVALID_REQUEST, message: `mcp-smart: ${TOO_DEEP}` },
      } as Answer;
    }
    const refused = this.admit(message, slot);
    if (refused) return refused;
    this.onmessage?.(message);
    return undefined;
  }

  /**
   * A batch after initialize. On 2025-03-26 each member is taken as its own line (an initialize refused alone) and the
   * answers sent as one array once all are in; on a revision without batches it is refused, naming that revision.
   */
  private batch(line: string): void {
    let members: unknown;
    try {
      members = JSON.parse(line);
    } catch {
      members = undefined;
    }
    const whole = (reason: string): void => {
      this.log(`ignored a line from the client: ${reason}`);
      const error = errorAnswer(null, INVALID_REQUEST, `mcp-smart: ${reason}`);
      if (!this.closed) void this.write(JSON.stringify(error) + '\n').catch(() => undefined);
    };
    // Not JSON after all: answered as any such line.
    if (!Array.isArray(members)) return this.single(line);
    if (batchesRemoved(this.version)) return whole(batchRefusal('line', this.version));
    if (members.length === 0) return whole(EMPTY_BATCH);
    if (messageTooDeep(line, members)) return whole(TOO_DEEP);
    const batch: Batch = { answers: [], waiting: 0, sealed: false };
    members.forEach((member, index) => {
      const answer = isInitializeMember(member)
        ? this.refuseInitialize(member.id)
        : this.take(JSON.stringify(member), { batch, index });
      if (answer) batch.answers[index] = answer;
    });
    batch.sealed = true;
    void this.flush(batch).catch(() => undefined);
  }

  /** The answer to an initialize request inside a batch (MCP: never batched); its id is not kept as in flight. */
  private refuseInitialize(id: RequestId): Answer {
    const reason = initializeInBatch('line');
    this.log(`refused request ${JSON.stringify(id)} (initialize) from the client: ${reason}`);
    return errorAnswer(id, INVALID_REQUEST, `mcp-smart: ${reason}`);
  }

  /** Sends a batch's answers as one array once every member is answered (nothing when none asked anything). */
  private flush(batch: Batch): Promise<void> {
    if (!batch.sealed || batch.waiting > 0 || this.closed) return WRITTEN;
    const answers = batch.answers.filter((a) => a !== undefined);
    batch.answers = [];
    return answers.length === 0 ? WRITTEN : this.write(JSON.stringify(answers) + '\n');
  }

  /** Puts the answer to request `key` in its batch, or writes it on a line of its own. */
  private answer(key: string, message: Answer, text: () => string): Promise<void> {
    const slot = this.inBatch.get(key);
    if (!slot) return this.write(text());
    this.inBatch.delete(key);
    slot.batch.answers[slot.index] = message;
    slot.batch.waiting -= 1;
    return this.flush(slot.batch);
  }

  /** A batch member that will get no answer (cancelled): its batch no longer waits for it. */
  private unanswered(key: string): void {
    const slot = this.inBatch.get(key);
    if (!slot) return;
    this.inBatch.delete(key);
    slot.batch.waiting -= 1;
    void this.flush(slot.batch).catch(() => undefined);
  }

  /**
   * Keeps a request's id until it is answered (in `slot` when it came in a batch); for a duplicate id or while
   * stopping, the error it is owed instead.
   */
  private admit(m: { id?: unknown; method?: unknown; params?: unknown }, slot?: Slot): Answer | undefined {
    if (typeof m.method !== 'string') return undefined;
    if (!isCallId(m.id)) {
      // A cancelled request gets no answer: its id is free again.
      const cancelled = cancelledCall(m)?.id;
      if (isCallId(cancelled)) {
        this.open.delete(JSON.stringify(cancelled));
        this.unanswered(JSON.stringify(cancelled));
      }
      return undefined;
    }
    const key = JSON.stringify(m.id);
    const refusal = this.stopping?.refusal ?? (this.open.has(key) ? `mcp-smart: ${idInUse(m.id)}` : undefined);
    if (refusal === undefined) {
      this.open.set(key, { id: m.id, listen: m.method === 'subscriptions/listen' });
      if (slot) {
        this.inBatch.set(key, slot);
        slot.batch.waiting += 1;
      }
      return undefined;
    }
    this.log(`refused request ${key} (${m.method}) from the client: ${refusal.replace(/^mcp-smart: /, '')}`);
    return errorAnswer(m.id, this.stopping ? SHUTTING_DOWN : INVALID_REQUEST, refusal);
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
    for (const { id } of left) {
      const answer = errorAnswer(id, SHUTTING_DOWN, abandoned);
      await this.answer(JSON.stringify(id), answer, () => JSON.stringify(answer) + '\n');
    }
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
      const key = JSON.stringify(m.id);
      this.open.delete(key);
      if (this.stopping && this.calls.length === 0) this.stopping.idle?.();
      return this.answer(key, message, () => serializeMessage(message));
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
