/**
 * A long synchronous computation written as a generator that yields between units of work (a case ranked, a
 * weight set evaluated). Core stays synchronous and pure: `runSteps` drains it in one go; the application layer
 * drains it with a turn of the event loop now and then (src/process/signals.ts), so a signal stops it promptly.
 */
export type Steps<T> = Generator<void, T, undefined>;

/** Runs the steps to the end, synchronously. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}
