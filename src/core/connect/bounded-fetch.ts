/**
 * HTTP answers under the same size cap as a stdio server's messages (MAX_MESSAGE_BYTES, 256 MB unless configured):
 * the body is counted as it streams in, after decompression (fetch inflates gzip, deflate and brotli as it is read,
 * so a small compressed body that inflates without end is counted as what it inflates to), and the read is stopped
 * at the cap — the rest is never downloaded or inflated. A declared Content-Length over the cap is refused before
 * reading. An event stream is counted per event (bytes since its last blank line), so a long-lived stream of small
 * events is not cut.
 */

type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

const MB = 1024 * 1024;
const mb = (n: number): string => `${(n / MB).toFixed(n < 10 * MB ? 1 : 0)} MB`;

/** The error a capped answer ends with (the transport reports it as the request's failure). */
export class AnswerTooLarge extends Error {
  constructor(
    readonly where: string,
    readonly limit: number,
    readonly read: number,
  ) {
    super(
      `the answer from ${where} is larger than the ${mb(limit)} limit (refused after ${mb(read)}; MCP_SMART_MAX_MESSAGE_MB raises the limit)`,
    );
    this.name = 'AnswerTooLarge';
  }
}

/** `inner` (or the global fetch) with every answer's body capped at `maxBytes`. */
export function boundedFetch(inner: Fetch | undefined, maxBytes: number): Fetch {
  return async (input, init) => {
    const res = await (inner ?? fetch)(input, init);
    const body = res.body;
    if (!body) return res;
    const where = originOf(input);
    const declared = Number(res.headers.get('content-length') ?? NaN);
    // Content-Length counts the encoded bytes: over the cap, even before inflating, it is refused unread.
    if (Number.isFinite(declared) && declared > maxBytes) {
      await body.cancel().catch(() => undefined);
      throw new AnswerTooLarge(where, maxBytes, 0);
    }
    const events = /^text\/event-stream/i.test(res.headers.get('content-type') ?? '');
    let seen = 0;
    let total = 0;
    let last = 0;
    const counted = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, ctl) {
          total += chunk.byteLength;
          seen = events ? sinceBlankLine(chunk, seen, last) : seen + chunk.byteLength;
          last = chunk.byteLength > 0 ? chunk[chunk.byteLength - 1]! : last;
          if (seen > maxBytes) ctl.error(new AnswerTooLarge(where, maxBytes, total));
          else ctl.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** Bytes of the current event after `chunk`: counting restarts after the chunk's last blank line (\n\n). */
function sinceBlankLine(chunk: Uint8Array, seen: number, lastByte: number): number {
  for (let i = chunk.byteLength - 1; i >= 0; i--) {
    if (chunk[i] !== 10) continue;
    const before = i > 0 ? chunk[i - 1] : lastByte;
    const beforeCr = i > 1 ? chunk[i - 2] : i === 1 ? lastByte : undefined;
    if (before === 10 || (before === 13 && beforeCr === 10)) return chunk.byteLength - i - 1;
  }
  return seen + chunk.byteLength;
}

function originOf(input: string | URL): string {
  try {
    const url = new URL(typeof input === 'string' ? input : input.href);
    return url.origin;
  } catch {
    return 'the server';
  }
}
