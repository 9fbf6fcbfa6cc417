/**
 * A 2025-era `tools/call` to a stdio server, sent and answered beside the SDK's Client instead of through it. A
 * profile of serve under 10,000 forwarded echo calls put a fifth of its JavaScript per call in the Client's request
 * funnel (a promise, a timer, an abort listener, the era codec, the response's zod classification and the result's
 * zod parse, then a `finally`), none of it about the call. This does what that funnel does for such a request:
 *
 * - the id is the Client's own next one (its counter advances), so the server sees the bytes the SDK would send;
 * - the answer is taken off the transport (stdio.ts) before the Client's Protocol sees it, and resolves with the
 *   result as the SDK's legacy codec and `ResultSchema` would give it (`resultType` dropped; a result without
 *   `_meta`, which the schema's parse only copies key by key, as it came; one with `_meta` through the schema);
 *   an error answer rejects with the SDK's `ProtocolError.fromError`;
 * - the client's abort and the timeout (one timer for all the calls, not one per call) send `notifications/cancelled`
 *   and reject as the SDK does, and a transport that closes rejects what is pending with the SDK's ConnectionClosed
 *   error, after the session has seen the close.
 *
 * Not taken (the SDK's path, unchanged): a request with progress, a 2026-07-28 session, another method, a Client not
 * connected to this transport, or one whose counter is not where SDK 2.4 keeps it.
 */
import { ResultSchema } from '@modelcontextprotocol/core';
// The Client's own error classes (the same the SDK's request funnel rejects with).
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { Client, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

/** A result as the server sent it. */
type Answer = Record<string, unknown>;

/** What a transport that lets answers be taken before its `onmessage` offers (stdio.ts). */
export interface AnswerTaker {
  /** An answer to a request sent here: taken (true), the Protocol never sees it. */
  take(message: JSONRPCMessage): boolean;
  /** The transport closed (after its `onclose`): what is pending fails. */
  closed(): void;
}

/** A transport that offers its answers to a taker first (stdio.ts's ProcessGroupTransport). */
export interface TakesAnswers extends Transport {
  taker: AnswerTaker | undefined;
}

export const takesAnswers = (t: Transport): t is TakesAnswers => 'taker' in t;

/** An answer to a call sent here, or the error it failed with (its transport closed). */
type Settle = (answer: Answer | Error) => void;

/** A call sent here and not answered yet: how it ends, and when it times out (performance.now() ms). */
interface Pending {
  settle: Settle;
  deadline: number;
  expire: () => void;
}

/** The SDK Client's internals this reads: its request id counter and the transport it is connected to. */
interface ClientCounter {
  _requestMessageId?: unknown;
  transport?: unknown;
}

const isObject = (v: unknown): v is Answer => typeof v === 'object' && v !== null && !Array.isArray(v);

export class DirectCalls implements AnswerTaker {
  private readonly pending = new Map<number, Pending>();
  /**
   * One timer for every call's timeout, armed for the earliest deadline: a call that ends leaves it be (the SDK set
   * and cleared a timer per request). When it fires it times out what is due and is armed again for the next.
   * Unreferenced: the server's pipes keep the process up while a call waits.
   */
  private timer: NodeJS.Timeout | undefined = undefined;
  private timerAt = Infinity;

  constructor(private readonly transport: Transport) {}

  take(message: JSONRPCMessage): boolean {
    const m = message as Answer;
    if (typeof m.id !== 'number' || 'method' in m) return false;
    const entry = this.pending.get(m.id);
    if (!entry) return false;
    this.pending.delete(m.id);
    entry.settle(m);
    return true;
  }

  closed(): void {
    const error = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const entry of all) entry.settle(error);
  }

  /** The timer fires at `deadline` at the latest. */
  private watch(deadline: number): void {
    if (deadline >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = deadline;
    this.timer = setTimeout(this.sweep, Math.max(1, Math.ceil(deadline - performance.now())));
    this.timer.unref();
  }

  /** Times out the calls that are due; armed again for the earliest of the others. */
  private readonly sweep = (): void => {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const entry of [...this.pending.values()]) {
      if (entry.deadline <= now) entry.expire();
      else next = Math.min(next, entry.deadline);
    }
    if (next !== Infinity) this.watch(next);
  };

  /** The call sent here, or undefined when it is not one this takes (the caller sends it through the SDK). */
  call(
    client: Client,
    params: Record<string, unknown> | undefined,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<Answer> | undefined {
    const c = client as unknown as ClientCounter;
    if (typeof c._requestMessageId !== 'number' || c.transport !== this.transport) return undefined;
    if (client.getProtocolEra() === 'modern') return undefined;
    if (signal?.aborted) {
      const reason: unknown = signal.reason;
      return Promise.reject(
        reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason)),
      );
    }
    const id = c._requestMessageId;
    c._requestMessageId = id + 1;
    return new Promise<Answer>((resolve, reject) => {
      const done = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
      };
      const cancel = (reason: unknown): void => {
        if (!this.pending.has(id)) return;
        done();
        const cancelled = {
          jsonrpc: '2.0' as const,
          method: 'notifications/cancelled',
          params: { requestId: id, reason: String(reason) },
        };
        this.transport
          .send(cancelled)
          .catch((error: unknown) => client.onerror?.(new Error(`Failed to send cancellation: ${String(error)}`)));
        reject(reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason)));
      };
      const onAbort = (): void => cancel(signal?.reason);
      const settle: Settle = (answer) => {
        done();
        if (answer instanceof Error) return reject(answer);
        if (answer.error !== undefined) {
          const e = answer.error as { code: number; message: string; data?: unknown };
          return reject(ProtocolError.fromError(e.code, e.message, e.data));
        }
        settleResult(answer.result, resolve, reject);
      };
      const expire = (): void =>
        cancel(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs }));
      const deadline = performance.now() + timeoutMs;
      this.pending.set(id, { settle, deadline, expire });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.watch(deadline);
      const request = { method: 'tools/call', params, jsonrpc: '2.0' as const, id };
      this.transport.send(request).catch((error: unknown) => {
        done();
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }
}

/** The result as the SDK's legacy codec and its `ResultSchema` parse give it. */
function settleResult(raw: unknown, resolve: (a: Answer) => void, reject: (e: Error) => void): void {
  let result = raw;
  if (isObject(result) && 'resultType' in result) {
    result = { ...result };
    delete (result as Answer).resultType;
  }
  // ResultSchema is a loose object of one optional key, `_meta`: without it (and without a `__proto__` key, which a
  // copy would not keep) its parse is a copy with the same keys in the same order, values by reference.
  if (isObject(result) && !Object.hasOwn(result, '_meta') && !Object.hasOwn(result, '__proto__'))
    return resolve(result);
  const checked = ResultSchema['~standard'].validate(result);
  void Promise.resolve(checked).then((r) => {
    if (r.issues === undefined) return resolve(r.value);
    const text = r.issues.map((i) => i.message).join(', ');
    reject(new SdkError(SdkErrorCode.InvalidResult, `Invalid result for tools/call: ${text}`));
  }, reject);
}
