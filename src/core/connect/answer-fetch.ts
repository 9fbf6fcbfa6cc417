/**
 * HTTP answers read the way stdio answers are (refused-answer.ts): a JSON-RPC answer the SDK's strict schema refuses
 * is tolerated without its extra members (`"error": null` beside a result, an unknown key) or turned into an error
 * answer for its id. The SDK's Streamable HTTP and SSE transports refuse such a message and only report it through
 * `onerror`: from an event stream, the request it answered waited for its whole timeout ("raise --timeout"), and a
 * plain JSON body failed with zod's dump. Only messages the schema refuses are rewritten; the rest pass untouched.
 */
import { deserializeMessage } from '@modelcontextprotocol/client';
import { refusedAnswer } from '../wire/refused-answer.js';

type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** The message text `data` as the SDK will take it: itself when it parses (or is not JSON), else its repair. */
function readable(data: string): string {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return data; // not JSON: the SDK's own error stands
  }
  const one = (m: unknown): unknown => {
    try {
      deserializeMessage(JSON.stringify(m));
      return m;
    } catch (error) {
      return refusedAnswer(m, error, deserializeMessage)?.message ?? m;
    }
  };
  const fixed = Array.isArray(value) ? value.map(one) : one(value);
  const same = Array.isArray(value) ? (fixed as unknown[]).every((m, i) => m === value[i]) : fixed === value;
  return same ? data : JSON.stringify(fixed);
}

/** An event stream with each message event's data made readable (events are passed on whole, at their blank line). */
function readableEvents(): TransformStream<string, string> {
  let rest = '';
  let event: string[] = [];
  const flush = (ctl: TransformStreamDefaultController<string>): void => {
    if (event.length === 0) return ctl.enqueue('\n');
    const data = event.filter((l) => /^data(:|$)/.test(l)).map((l) => l.replace(/^data:? ?/, ''));
    const type = event.find((l) => /^event:/.test(l))?.replace(/^event: ?/, '');
    const text = data.join('\n');
    const fixed = data.length > 0 && (type === undefined || type === 'message') ? readable(text) : text;
    const lines = fixed === text ? event : [...event.filter((l) => !/^data(:|$)/.test(l)), `data: ${fixed}`];
    ctl.enqueue(`${lines.join('\n')}\n\n`);
    event = [];
  };
  return new TransformStream<string, string>({
    transform(chunk, ctl) {
      rest += chunk;
      // A \r at the end may be the first half of \r\n: kept for the next chunk.
      const lines = rest.split(/\r\n|\r(?!$)|\n/);
      rest = lines.pop()!;
      for (const line of lines) {
        if (line === '') flush(ctl);
        else event.push(line);
      }
    },
    flush(ctl) {
      if (rest !== '' && rest !== '\r') event.push(rest.replace(/\r$/, ''));
      if (event.length > 0) {
        const lines = event;
        event = [];
        ctl.enqueue(lines.join('\n'));
      }
    },
  });
}

/** `inner` with every JSON or event-stream answer's JSON-RPC messages made readable. */
export function readableAnswers(inner: Fetch): Fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!res.ok || !res.body || (type !== 'application/json' && type !== 'text/event-stream')) return res;
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    const init2 = { status: res.status, statusText: res.statusText, headers };
    if (type === 'application/json') return new Response(readable(await res.text()), init2);
    const body = res.body
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(readableEvents())
      .pipeThrough(new TextEncoderStream());
    return new Response(body, init2);
  };
}
