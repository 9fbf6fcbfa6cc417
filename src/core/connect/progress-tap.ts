/** Progress notifications delivered in the order they arrived, before the SDK's Protocol would drop a late one. */
import type { Progress as ProgressInfo, Transport } from '@modelcontextprotocol/client';

export type ProgressHandler = (progress: ProgressInfo) => void;

/**
 * Delivers progress in the order it arrived. The SDK's Protocol dispatches notifications a microtask later but
 * handles a response at once, deleting the request's progress handler: a server that sends its last progress and
 * its result together (one stdio chunk) would lose that progress. This tap sees each message before the Protocol
 * does: the progress token of an outgoing request that wants progress is learnt on send (the SDK sends inside
 * `request()`, synchronously), its notifications are delivered at once, and its response ends the mapping.
 */
export class ProgressTap {
  private readonly handlers = new Map<string | number, ProgressHandler>();
  /** The handler of the request being sent now (set just before `client.request`). */
  pending?: ProgressHandler;

  attach(t: Transport): void {
    const send = t.send.bind(t);
    t.send = (message, options) => {
      const token = (message as { params?: { _meta?: { progressToken?: unknown } } }).params?._meta?.progressToken;
      if (
        this.pending &&
        'method' in message &&
        'id' in message &&
        (typeof token === 'string' || typeof token === 'number')
      ) {
        this.handlers.set(token, this.pending);
        this.pending = undefined;
      }
      return send(message, options);
    };
    const earlier = t.onmessage;
    t.onmessage = (message, extra) => {
      earlier?.(message, extra);
      if ('method' in message && message.method === 'notifications/progress' && !('id' in message)) {
        const { progressToken, ...rest } = (message.params ?? {}) as { progressToken?: string | number };
        if (progressToken !== undefined) this.handlers.get(progressToken)?.(rest as ProgressInfo);
      } else if ('id' in message && !('method' in message)) this.handlers.delete(message.id as string | number);
    };
  }

  forget(handler: ProgressHandler): void {
    for (const [token, h] of this.handlers) if (h === handler) this.handlers.delete(token);
    if (this.pending === handler) this.pending = undefined;
  }
}
