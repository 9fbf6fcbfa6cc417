/**
 * serve's heap as a long-lived gateway's: what a burst of calls leaves behind is given back once the calls stop.
 *
 * Measured (bench/RESULTS.md, "Serve's memory after the calls"): after 10,000 forwarded calls serve's live heap is
 * the same 16 MB as at start, yet RSS had grown by 72 MB and stayed there. V8 had doubled the young generation's
 * semi-spaces to 16 MB (a burst of concurrent calls keeps many objects alive across scavenges, which is what makes
 * it grow) and promoted the calls' short-lived objects into an old space that reached 64 MB before its first full
 * collection; with no full collection ever, V8's memory reducer never starts, so nothing was returned when idle.
 *
 * Three measures, all for serve's own process only (a one-shot command keeps V8's defaults):
 * - the young generation keeps the size it has when serve starts (`--semi-space-growth-factor=1`, read by V8 each
 *   time it would grow the semi-space, so it takes effect when set at run time; `--max-semi-space-size` would need
 *   node's command line);
 * - the old generation's next limit after each full collection is the live heap × (1 + HEAP_GROWING_PERCENT / 100)
 *   (`--heap-growing-percent`, read by V8 at each limit it sets, so also a run-time flag). With V8's own factor
 *   (up to 4× when the process runs fast) the promoted garbage of 10,000 calls with the 2,781-tool catalogue filled
 *   the old space from ~40 MB live to ~130 MB before V8 collected it: a 245 MB peak, and ~90 MB for the quiet
 *   collection to give back, which it had not always done 1 s after the calls (bench/RESULTS.md, branch `catrss`);
 * - after calls stop (an event-loop window of QUIET_WINDOW_MS almost idle) and the committed heap has grown by at
 *   least GROWTH_BYTES since the last collection, one full collection. It is armed by a GC event (no timer runs while
 *   nothing allocates) and runs at most once per quiet period (two collections: see `collect` below). Committed, not
 *   used: V8's own collections during the calls free the garbage but keep its pages (RSS) until a full collection
 *   with nothing left to mark returns them.
 *
 * The GC event is an object nothing holds, registered with a FinalizationRegistry while the collector is not armed:
 * its finalizer runs once, after the collection that freed it, and no other is made until the collector disarms.
 * A PerformanceObserver of 'gc' entries ran JavaScript after every collection instead (a scavenge every few
 * find_tool calls, each entry built with deprecated accessors: about 80 µs of serve's main thread per scavenge in a
 * profile of find_tool over stdio; bench/RESULTS.md, branch `findrt2`).
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { EXPOSE_GC_FLAG, SERVE_HEAP_FLAGS } from '../process/serve-heap-flags.js';

/** A window of the event loop this long, busy less than QUIET_UTILIZATION of it, counts as quiet. */
export const QUIET_WINDOW_MS = 250;
export const QUIET_UTILIZATION = 0.1;
export { HEAP_GROWING_PERCENT } from '../process/serve-heap-flags.js';
/** A quiet period collects only when the committed heap grew at least this much since the last collection. */
export const GROWTH_BYTES = 8 * 1024 * 1024;

export interface QuietCollectorDeps {
  /** V8's committed heap (pages it holds from the OS, used or not), bytes. */
  heapSize: () => number;
  /** The event loop's utilization (0..1) since the previous call (the first call starts the window). */
  utilization: () => number;
  /** A full garbage collection. */
  collect: () => void;
  /** Runs `fn` after `ms`; the timer must not keep the process alive. */
  after: (fn: () => void, ms: number) => void;
  /**
   * Calls `fn` once, after the next garbage collection. Asked for while the collector is not armed (at the start and
   * each time it disarms); without it, the caller feeds `onGc` itself.
   */
  nextGc?: (fn: () => void) => void;
}

/** The decision: when to collect. Fed GC events; checks windows of the event loop until one is quiet. */
export class QuietCollector {
  /** Full collections this collector ran. */
  collections = 0;
  private baseline: number;
  private armed = false;
  private stopped = false;

  /** `growthBytes`: GROWTH_BYTES in serve; a test of a real heap lowers it (see startHeapQuiet). */
  constructor(
    private readonly deps: QuietCollectorDeps,
    private readonly growthBytes = GROWTH_BYTES,
  ) {
    this.baseline = deps.heapSize();
    this.watch();
  }

  private readonly gcSeen = (): void => this.onGc();
  private watch(): void {
    if (!this.stopped) this.deps.nextGc?.(this.gcSeen);
  }

  /** A garbage collection happened (V8's, or ours): something is allocating, so watch for the quiet after it. */
  onGc(): void {
    if (this.armed || this.stopped) return;
    this.armed = true;
    this.deps.utilization();
    this.deps.after(() => this.check(), QUIET_WINDOW_MS);
  }

  stop(): void {
    this.stopped = true;
  }

  private check(): void {
    if (this.stopped) return;
    if (this.deps.utilization() >= QUIET_UTILIZATION) {
      this.deps.after(() => this.check(), QUIET_WINDOW_MS);
      return;
    }
    this.armed = false;
    this.watch();
    // What grew is mostly pages of the calls' garbage, still there or already collected by V8 but kept committed (a
    // heap that only holds more live data rises its baseline once).
    if (this.deps.heapSize() - this.baseline < this.growthBytes) return;
    this.deps.collect();
    this.collections++;
    this.baseline = this.deps.heapSize();
  }
}

/** V8's full collection, from a context made with --expose-gc set at run time; undefined if V8 refused. */
function fullCollection(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  try {
    v8.setFlagsFromString(EXPOSE_GC_FLAG);
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

export interface HeapQuiet {
  collector: QuietCollector | undefined;
  stop: () => void;
}

/**
 * Applies both measures to this process (see the file's comment); `debug` hears each collection. `growthBytes` is for
 * a test on a real heap: a burst of 3 × GROWTH_BYTES is big enough to start V8's own incremental marking, which may
 * then free the burst before the quiet (measured: 51 MB used → 8 MB by V8 itself, under load), leaving nothing to do.
 */
export function startHeapQuiet(debug?: (text: string) => void, growthBytes = GROWTH_BYTES): HeapQuiet {
  for (const flag of SERVE_HEAP_FLAGS) v8.setFlagsFromString(flag);
  const gc = fullCollection();
  if (!gc) return { collector: undefined, stop: () => undefined };
  let last: EventLoopUtilization | undefined;
  const gcWatch = {
    fn: undefined as (() => void) | undefined,
    token: {},
    registry: new FinalizationRegistry<undefined>(() => gcWatch.fn?.()),
  };
  const heap = (): { committed: number; used: number } => {
    const h = v8.getHeapStatistics();
    return { committed: h.total_heap_size, used: h.used_heap_size };
  };
  const collector = new QuietCollector(
    {
      heapSize: () => heap().committed,
      utilization: () => {
        const now = performance.eventLoopUtilization();
        const since = last ? performance.eventLoopUtilization(now, last) : now;
        last = now;
        return since.utilization;
      },
      collect: () => {
        const before = heap();
        // Measured: one collection leaves the emptied old-space pages committed until V8's memory reducer happens to
        // run (often never: 105 MB RSS 10 s later); a second one returns them (74 MB).
        gc();
        gc();
        const now = heap();
        debug?.(
          `heap: ${mb(before.committed)} (${mb(before.used)} used) after the calls, ` +
            `${mb(now.committed)} (${mb(now.used)} used) after a full collection`,
        );
      },
      after: (fn, ms) => setTimeout(fn, ms).unref(),
      nextGc: (fn) => {
        gcWatch.fn = fn;
        // An object nothing holds: the next collection (a scavenge: it is young) frees it, and its finalizer runs.
        gcWatch.registry.register({}, undefined, gcWatch.token);
      },
    },
    growthBytes,
  );
  return {
    collector,
    stop: () => {
      collector.stop();
      gcWatch.registry.unregister(gcWatch.token);
    },
  };
}

const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MB`;
