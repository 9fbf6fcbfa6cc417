/**
 * `serve --transport http` stopping on a signal with requests in flight (serving.ts): new requests are refused
 * (503), those in flight get a grace to be answered, and each POST still open then is answered with a JSON-RPC
 * error naming the shutdown (SHUTTING_DOWN) on its own response — a 2025 call's SSE stream, the fast path's
 * (http-forward-calls.ts) or a 2026-07-28 exchange alike. Before, the sessions' streams were closed without an
 * answer and each client waited for one. A subscriptions/listen stream is held open by design: not waited for.
 * The stdio twin is StdioWire's drain.
 */
import type { ServerResponse } from 'node:http';
import { errorAnswer, requestIds, SHUTTING_DOWN, type RequestId } from '../core/wire/request-rules.js';

export class HttpDrain {
  /** POSTs holding requests, until their response closes: the ids each must still answer. */
  private readonly open = new Map<ServerResponse, RequestId[]>();
  private stopping: { refusal: string; idle?: () => void } | undefined;

  /** Counts a POST in flight until its response closes; false once stopping (then it was refused here). */
  admit(res: ServerResponse, body: unknown): boolean {
    const ids = requestIds(body);
    if (this.stopping) {
      res
        .writeHead(503, { 'content-type': 'application/json', connection: 'close' })
        .end(
          JSON.stringify(
            errorAnswer(Array.isArray(body) ? null : (ids[0] ?? null), SHUTTING_DOWN, this.stopping.refusal),
          ),
        );
      return false;
    }
    if (ids.length === 0 || (body as { method?: unknown }).method === 'subscriptions/listen') return true;
    this.open.set(res, ids);
    res.once('close', () => {
      this.open.delete(res);
      if (this.open.size === 0) this.stopping?.idle?.();
    });
    return true;
  }

  /**
   * Refuses new requests with `refusal`, waits up to `graceMs` for those in flight, then answers each still open
   * with `abandoned`. Returns how many requests were answered so.
   */
  async drain(graceMs: number, refusal: string, abandoned: string): Promise<number> {
    const stopping: NonNullable<HttpDrain['stopping']> = { refusal };
    this.stopping = stopping;
    if (this.open.size > 0)
      await new Promise<void>((resolve) => {
        stopping.idle = resolve;
        setTimeout(resolve, graceMs).unref();
      });
    let answered = 0;
    for (const [res, ids] of this.open) if (answerAbandoned(res, ids, abandoned)) answered += ids.length;
    return answered;
  }
}

/** Answers `ids` on `res` with SHUTTING_DOWN, as its stream or body stands; false when it had already ended. */
function answerAbandoned(res: ServerResponse, ids: RequestId[], text: string): boolean {
  if (res.writableEnded || res.destroyed) return false;
  const answers = ids.map((id) => JSON.stringify(errorAnswer(id, SHUTTING_DOWN, text)));
  if (!res.headersSent)
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(answers.length === 1 ? answers[0] : `[${answers.join(',')}]`);
  // Headers out and no end: an SSE stream (a JSON answer is written whole). Headers given to writeHead alone, as the
  // SDK's adapter gives them, are not in getHeader: only one set apart says otherwise.
  else if (String(res.getHeader('content-type') ?? 'text/event-stream').startsWith('text/event-stream'))
    res.end(answers.map((a) => `event: message\ndata: ${a}\n\n`).join(''));
  else res.end();
  // The request's own path (the SDK's adapter, the fast path) may still write when its work ends: the response
  // has its answer, so what comes later is not sent (a write after the end would be an error event, unhandled).
  res.writeHead = () => res;
  res.write = () => true;
  res.end = () => res;
  res.flushHeaders = () => undefined;
  return true;
}
