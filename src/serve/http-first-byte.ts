/**
 * A 2025 tools/call over HTTP (in a session) sends no byte until its first message (its answer, or a request of the server behind it):
 * the SDK's SSE keep-alive comments (every 15 s) are held back until then. Why: a client's call in flight on a
 * replica that dies (SIGKILL, a crash) must end with an error the client sees. Before the response's headers went
 * out, the proxy in front answers the cut connection with an error status (HAProxy: 502) and the client's call
 * fails at once; after them, the SSE stream just ends, and an SDK client leaves the call waiting for an answer that
 * never comes until its own request timeout (60 s by default). Node sends a response's headers with its first
 * written byte (unless flushed: that is held too), so holding the comments keeps the headers back. Once a message went out the comments flow as
 * before (a proxy's idle timeout then sees traffic). Cost: a proxy whose idle timeout is shorter than a call's first
 * message cuts that call (the README's HAProxy config allows 130 s, beyond serve's --call-timeout).
 */
import type { ServerResponse } from 'node:http';

const KEEP_ALIVE = ': keepalive\n\n';

const isKeepAlive = (chunk: unknown): boolean =>
  typeof chunk === 'string'
    ? chunk === KEEP_ALIVE
    : chunk instanceof Uint8Array &&
      chunk.byteLength === KEEP_ALIVE.length &&
      Buffer.from(chunk).toString() === KEEP_ALIVE;

/**
 * Holds keep-alive comments written to `res` back until its first other byte, and its headers with them (the SDK's
 * Node adapter flushes a streamed response's headers before its first chunk: that flush waits for the chunk).
 */
export function quietUntilFirstMessage(res: ServerResponse): void {
  const write = res.write.bind(res) as (...a: unknown[]) => boolean;
  const flushHeaders = res.flushHeaders.bind(res);
  let spoken = false;
  res.flushHeaders = (): void => {
    if (spoken) flushHeaders();
  };
  res.write = ((...a: unknown[]): boolean => {
    if (!spoken) {
      if (isKeepAlive(a[0])) return true;
      spoken = true;
    }
    return write(...a);
  }) as ServerResponse['write'];
}

/** Whether a request body is one tools/call (the requests held back by quietUntilFirstMessage). */
export const isToolCall = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'tools/call';
