/**
 * The one signal path. SIGINT/SIGTERM abort the run's AbortSignal (live connections close, their process
 * groups end), run the registered clean-ups (temp files), stop every later write, and the run exits 130/143.
 * Phases that hold something to clean up (connections, temp files, locks) and long computation phases (counting,
 * replaying, tuning, ranking, planning: see `computing`) subscribe handlers; short phases in between (reading a
 * file, printing) run under the default disposition, so a signal ends them at once — they write nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { SmartError } from './errors.js';

export type StopSignal = 'SIGINT' | 'SIGTERM';

export const STOP_EXIT_CODES: Record<StopSignal, number> = { SIGINT: 130, SIGTERM: 143 };

/** How long an aborted run may take to close its connections before the process exits anyway. */
const GRACE_MS = 5000;

interface SignalHost {
  on(event: StopSignal, fn: () => void): unknown;
  off(event: StopSignal, fn: () => void): unknown;
  exit(code: number): never;
}

const cleanups = new Set<() => unknown>();
let stopped: StopSignal | undefined;

/** Registers a clean-up to run if a signal stops the run; returns its disposer. */
export function onStop(fn: () => unknown): () => void {
  cleanups.add(fn);
  return () => void cleanups.delete(fn);
}

/** The signal that stopped this run, if any. */
export function stoppedBy(): StopSignal | undefined {
  return stopped;
}

/** Set inside `finalWrites`: the writes a shutdown must still make (atomic ones, so nothing is left half-done). */
const finalScope = new AsyncLocalStorage<true>();

/** Throws INTERRUPTED when a signal has stopped the run (call before writing anything), except in `finalWrites`. */
export function throwIfStopped(): void {
  if (stopped && finalScope.getStore() !== true) throw interrupted(stopped);
}

/**
 * Runs the writes a shutdown owes (serve's learned calls) even after a signal: each is atomic (a temp file, then a
 * rename), so it is whole or absent, and the caller bounds how long it may take (the signal path exits anyway
 * after its grace).
 */
export function finalWrites<T>(fn: () => Promise<T>): Promise<T> {
  return finalScope.run(true, fn);
}

export function interrupted(sig: StopSignal): SmartError {
  return new SmartError(sig === 'SIGINT' ? 'INTERRUPTED' : 'TERMINATED', { signal: sig });
}

async function runCleanups(): Promise<void> {
  const fns = [...cleanups];
  cleanups.clear();
  await Promise.allSettled(fns.map((fn) => Promise.resolve().then(fn)));
}

let host: SignalHost | undefined;
let handlers: Record<StopSignal, () => void> | undefined;
let guarded = 0;

/**
 * Prepares the signal path for the run; `controller` is aborted on the first signal. Handlers are subscribed
 * only while a phase that must clean up runs (see whileHandlingSignals); elsewhere a signal ends the process
 * at once with the default action, which a shell reports as 130/143. Returns the uninstaller.
 */
export function installSignalPath(target: SignalHost, controller: AbortController): () => void {
  const handle = (sig: StopSignal): void => {
    // Stay subscribed after the first signal: a second Ctrl-C during the bounded shutdown must not kill us
    // before the servers' process groups are ended (they would be orphaned).
    if (stopped) return;
    stopped = sig;
    controller.abort(interrupted(sig));
    void runCleanups();
    setTimeout(() => target.exit(STOP_EXIT_CODES[sig]), GRACE_MS).unref();
  };
  host = target;
  handlers = { SIGINT: () => handle('SIGINT'), SIGTERM: () => handle('SIGTERM') };
  return () => {
    if (guarded > 0 && handlers) {
      target.off('SIGINT', handlers.SIGINT);
      target.off('SIGTERM', handlers.SIGTERM);
    }
    guarded = 0;
    host = undefined;
    handlers = undefined;
  };
}

const nextImmediate = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Lets the event loop pass its poll phase, where a signal queued while JavaScript held the loop is dispatched to
 * the handlers. One immediate can run in the same loop iteration, before any poll; the second cannot.
 */
async function pastPoll(): Promise<void> {
  await nextImmediate();
  await nextImmediate();
}

/**
 * Runs a phase that holds something to clean up (live server processes, a temp file, a lock) with the
 * handlers subscribed, so a signal aborts it cleanly instead of killing the process mid-way.
 */
export async function whileHandlingSignals<T>(fn: () => Promise<T>): Promise<T> {
  throwIfStopped();
  const h = host;
  const hs = handlers;
  if (!h || !hs) return fn();
  if (guarded++ === 0) {
    h.on('SIGINT', hs.SIGINT);
    h.on('SIGTERM', hs.SIGTERM);
  }
  try {
    return await fn();
  } finally {
    if (guarded === 1) {
      // A signal that came while the phase held the event loop is still queued: give the loop one turn so it
      // reaches our handler, or unsubscribing now would drop it (the run would go on as if nothing came).
      await pastPoll();
    }
    if (--guarded === 0 && host === h) {
      h.off('SIGINT', hs.SIGINT);
      h.off('SIGTERM', hs.SIGTERM);
    }
  }
}

/** How long a computation phase holds the event loop before it gives a pending signal a turn. */
const SLICE_MS = 20;

/** Gives the event loop a turn if the phase has held it for a slice, then throws if a signal stopped the run. */
export type Pause = () => Promise<void>;

/**
 * A long computation phase (counting a catalogue, replaying, tuning, ranking many intents, planning a budget):
 * the handlers are subscribed, and the phase calls `pause` between units of work. A signal is then handled at
 * the next pause (within a slice of about 20 ms plus one unit), and the phase ends with INTERRUPTED/TERMINATED
 * (exit 130/143) before it writes anything. Synchronous core code yields through Steps (runStepsPausing).
 */
export async function computing<T>(fn: (pause: Pause) => T | Promise<T>): Promise<T> {
  return whileHandlingSignals(async () => {
    let last = performance.now();
    const pause: Pause = async () => {
      if (performance.now() - last < SLICE_MS) return;
      await pastPoll();
      last = performance.now();
      throwIfStopped();
    };
    const value = await fn(pause);
    // A signal during the phase's last slice stops the run here, before anything after it starts.
    await pastPoll();
    throwIfStopped();
    return value;
  });
}

/** Drains core's Steps (core/steps.ts: a generator yielding between units of work), pausing between them (see computing). */
export async function runStepsPausing<T>(steps: Generator<void, T, undefined>, pause: Pause): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await pause();
  }
}

/** Counts texts into the counter's memo, pausing between them, so the synchronous counts that follow are quick. */
export async function countPausing(
  counter: { count(text: string): number },
  texts: readonly string[],
  pause: Pause,
  onStep?: (done: number, total: number) => void,
) {
  for (const [i, t] of texts.entries()) {
    onStep?.(i, texts.length);
    counter.count(t);
    await pause();
  }
}

/** Tests only: forget a previous stop. */
export function resetSignalStateForTests(): void {
  stopped = undefined;
  cleanups.clear();
}
