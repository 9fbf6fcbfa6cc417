/** Time limits and abort signals around a session's work: a start, a listing, a request. */
import { setMaxListeners } from 'node:events';
import { Stop } from './failure.js';

/** Resolves with `work`, or rejects with Stop on the time limit or the caller's abort. */
export async function withLimit<T>(work: Promise<T>, ms: number, signal: AbortSignal | undefined): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Stop('timeout')), ms);
    onAbort = () => reject(new Stop('abort'));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  work.catch(() => undefined); // after a timeout the abandoned work rejects; its outcome no longer matters
  try {
    return await Promise.race([work, stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/** Listing with a shared signal: every paged request listens on it, so lift the listener cap. */
export function listSignal(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
