/**
 * The one signal path. SIGINT/SIGTERM abort the run's AbortSignal (live connections close, their process
 * groups end), run the registered clean-ups (temp files), stop every later write, and the run exits 130/143.
 * Phases that compute without yielding (ranking, tuning, counting) run under the default disposition, so a
 * signal ends them at once; they write nothing, so nothing is left half-done.
 */
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
let installed: { host: SignalHost; handlers: Record<StopSignal, () => void> } | undefined;

/** Registers a clean-up to run if a signal stops the run; returns its disposer. */
export function onStop(fn: () => unknown): () => void {
  cleanups.add(fn);
  return () => void cleanups.delete(fn);
}

/** The signal that stopped this run, if any. */
export function stoppedBy(): StopSignal | undefined {
  return stopped;
}

/** Throws INTERRUPTED when a signal has stopped the run (call before writing anything). */
export function throwIfStopped(): void {
  if (stopped) throw interrupted(stopped);
}

export function interrupted(sig: StopSignal): SmartError {
  return new SmartError(sig === 'SIGINT' ? 'INTERRUPTED' : 'TERMINATED', { signal: sig });
}

async function runCleanups(): Promise<void> {
  const fns = [...cleanups];
  cleanups.clear();
  await Promise.allSettled(fns.map((fn) => Promise.resolve().then(fn)));
}

/** Installs the handlers for the run; `controller` is aborted on the first signal. Returns the uninstaller. */
export function installSignalPath(host: SignalHost, controller: AbortController): () => void {
  const handle = (sig: StopSignal): void => {
    // Stay subscribed after the first signal: a second Ctrl-C during the bounded shutdown must not kill us
    // before the servers' process groups are ended (they would be orphaned).
    if (stopped) return;
    stopped = sig;
    controller.abort(interrupted(sig));
    void runCleanups();
    setTimeout(() => host.exit(STOP_EXIT_CODES[sig]), GRACE_MS).unref();
  };
  const handlers = { SIGINT: () => handle('SIGINT'), SIGTERM: () => handle('SIGTERM') };
  host.on('SIGINT', handlers.SIGINT);
  host.on('SIGTERM', handlers.SIGTERM);
  installed = { host, handlers };
  return () => {
    host.off('SIGINT', handlers.SIGINT);
    host.off('SIGTERM', handlers.SIGTERM);
    installed = undefined;
  };
}

/**
 * Runs a synchronous, write-free computation with the default signal disposition, so SIGINT/SIGTERM end the
 * process at once (exit status 130/143) instead of waiting for the computation to finish.
 */
export function withDefaultSignals<T>(fn: () => T): T {
  throwIfStopped();
  const current = installed;
  if (!current) return fn();
  current.host.off('SIGINT', current.handlers.SIGINT);
  current.host.off('SIGTERM', current.handlers.SIGTERM);
  try {
    return fn();
  } finally {
    current.host.on('SIGINT', current.handlers.SIGINT);
    current.host.on('SIGTERM', current.handlers.SIGTERM);
  }
}

/** Tests only: forget a previous stop. */
export function resetSignalStateForTests(): void {
  stopped = undefined;
  cleanups.clear();
}
