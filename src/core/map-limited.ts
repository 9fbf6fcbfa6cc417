/** Runs async work over a list with at most `limit` items in flight; results keep the list's order. */

/**
 * How many servers are started or listed at once. Thousands of processes spawned together starve each other
 * (each then runs past its own timeout); this many keep a small machine busy without thrashing.
 */
export const SERVER_START_CONCURRENCY = 16;

/** `Promise.all(items.map(fn))`, but with at most `limit` calls of `fn` pending at any time. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
