/**
 * A 2025 call whose stream had begun, on a replica that died (issue 38.2). Once a call's SSE stream carried a
 * message (the server behind asked the client something mid-call), a replica's death no longer reaches the client
 * as an error status: its stream just ends. The SDK clients (v1 `@modelcontextprotocol/sdk` 1.x and v2 alike) then
 * resume the stream — GET on the same URL with `Last-Event-ID` and the session's `Mcp-Session-Id`, after 1 s, 1.5 s
 * (2 tries) — but only if the stream's events carried an id; without one they leave the call waiting until their
 * request timeout (60 s by default). So each message serve sends on a 2025 tools/call's stream before its answer
 * gets an id naming the call (its session, its JSON-RPC id, a hash of the token's subject), signed under the
 * shared state key (seal.ts). The load balancer sends the resume to a live replica (the dead one refuses it;
 * HAProxy redispatches, then marks it down), which cannot resume a call another process held: it answers the call
 * on that stream with an error result, so the client's call ends at once. The replica holding the session answers
 * 405 to the resume of a call it answered (a v1 client resumes after a JSON-RPC error answer too), and the error
 * result to one whose stream was cut.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StateKeys } from './replica/seal.js';

const PREFIX = 'msr1';
/** The id of the event answering a resume: resuming from it again finds nothing more (405). */
const ANSWERED_ID = 'mcp-smart-answered';
/** How old an event id may be (a call may run for serve --call-timeout; a resume follows its stream's end). */
const MAX_AGE_MS = 24 * 3600_000;
/** Calls answered here whose resume is told "nothing more" (a v1 client resumes after an error response). */
const ANSWERED_KEPT = 1_000;
/** What the data of a request or notification holds (an answer's only by chance, in its content). */
const ASKS = '"method":';

export const STREAM_GONE_TEXT =
  'mcp-smart: the replica that held this call is gone (its stream ended before the answer). The call was lost with it; call the tool again.';

interface CallRef {
  /** Mcp-Session-Id. */
  s: string;
  /** The JSON-RPC id of the client's tools/call. */
  r: string | number;
  /** SHA-256 of the token's subject (first 16 hex), '' without identities. */
  u: string;
}

const who = (subject: string | undefined): string =>
  subject === undefined ? '' : createHash('sha256').update(subject).digest('hex').slice(0, 16);

/**
 * Gives each SSE event in `text` carrying a request or notification (its data has a `"method":` key) the id `id`;
 * events that have an id keep it. The answer itself gets none: a stream whose first message is its answer stays as
 * before (a v1 client resumes a stream with ids that ended in an error answer, for nothing).
 */
export function withEventIds(text: string, id: string): string {
  if (!text.includes(ASKS)) return text;
  return text
    .split('\n\n')
    .map((event) => {
      const lines = event.split('\n');
      const asks = lines.some((l) => l.startsWith('data:') && l.includes(ASKS));
      return asks && !lines.some((l) => l.startsWith('id:')) ? `id: ${id}\n${event}` : event;
    })
    .join('\n\n');
}

export class StreamResume {
  private readonly answered = new Set<string>();

  constructor(
    private readonly keys: StateKeys,
    private readonly now: () => number = Date.now,
  ) {}

  /** The event id of a call's stream: `msr1.<call (base64url JSON)>.<timestamp>.<HMAC>`. */
  eventId(session: string, requestId: string | number, subject: string | undefined): string {
    const call: CallRef = { s: session, r: requestId, u: who(subject) };
    const payload = Buffer.from(JSON.stringify(call)).toString('base64url');
    return `${PREFIX}.${payload}.${this.keys.sign(payload, this.now())}`;
  }

  /** The call an event id of ours names; undefined for any other (not ours, altered, signed by a key not held). */
  callOf(eventId: string): CallRef | undefined {
    const parts = eventId.split('.');
    if (parts.length !== 4 || parts[0] !== PREFIX) return undefined;
    if (!this.keys.verify(`${parts[2]}.${parts[3]}`, parts[1]!, this.now(), MAX_AGE_MS)) return undefined;
    try {
      const c = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Partial<CallRef>;
      const idOk = typeof c.r === 'string' || typeof c.r === 'number';
      return typeof c.s === 'string' && idOk && typeof c.u === 'string' ? (c as CallRef) : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Marks each SSE event written to `res` (the stream of a 2025 tools/call) with the call's id (the SDK's Node
   * adapter writes each event with `write`, then calls `end()` without data).
   */
  mark(res: ServerResponse, session: string, requestId: unknown, subject: string | undefined): void {
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    // Made (one HMAC) at the call's first message before its answer; a call answered at once never needs one.
    let id: string | undefined;
    const mark = (text: string): string => {
      if (!text.includes(ASKS)) return text;
      id ??= this.eventId(session, requestId, subject);
      return withEventIds(text, id);
    };
    const write = res.write.bind(res) as (...a: unknown[]) => boolean;
    res.write = ((chunk: unknown, ...rest: unknown[]): boolean => {
      if (typeof chunk === 'string') return write(mark(chunk), ...rest);
      if (chunk instanceof Uint8Array) {
        const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        // An answer (perhaps large) is passed on undecoded.
        if (!bytes.includes(ASKS)) return write(chunk, ...rest);
        const text = bytes.toString('utf8');
        const marked = mark(text);
        return write(marked === text ? chunk : Buffer.from(marked, 'utf8'), ...rest);
      }
      return write(chunk, ...rest);
    }) as ServerResponse['write'];
    // Answered (the stream ended by serve, not cut): a resume of it finds nothing more.
    res.once('close', () => {
      if (id === undefined || !res.writableFinished) return;
      this.answered.add(id);
      if (this.answered.size > ANSWERED_KEPT) this.answered.delete(this.answered.values().next().value!);
    });
  }

  /**
   * Answers a GET resuming a call's stream (Last-Event-ID an id of ours for this session and subject); false when it
   * is not one (the request goes on as before).
   */
  answer(req: IncomingMessage, res: ServerResponse, session: string, subject: string | undefined): boolean {
    const last = req.headers['last-event-id'];
    if (req.method !== 'GET' || typeof last !== 'string') return false;
    if (last === ANSWERED_ID || this.answered.has(last)) {
      res.writeHead(405, { 'content-type': 'application/json', allow: 'POST, DELETE' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Method Not Allowed: that stream was answered; nothing to resume' },
          id: null,
        }),
      );
      return true;
    }
    const call = this.callOf(last);
    if (!call || call.s !== session || call.u !== who(subject)) return false;
    const result = { content: [{ type: 'text', text: STREAM_GONE_TEXT }], isError: true };
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(`id: ${ANSWERED_ID}\nevent: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: call.r, result })}\n\n`);
    return true;
  }
}
