// serve's quiet-time collection (src/serve/heap-quiet.ts): when it collects, counted by what it does. The decision
// is fed a scripted heap, event-loop utilization and timer queue; then a real heap in this process: garbage made
// in a burst is collected once after the burst, and a process that allocates nothing runs no collection.
import { describe, expect, it } from 'vitest';
import {
  GROWTH_BYTES,
  QUIET_UTILIZATION,
  QUIET_WINDOW_MS,
  QuietCollector,
  startHeapQuiet,
} from '../../src/serve/heap-quiet.js';

function scripted(start: number) {
  const timers: { fn: () => void; ms: number }[] = [];
  const state = { size: start, busy: 0, collected: 0, afterCollect: start };
  const collector = new QuietCollector({
    heapSize: () => state.size,
    utilization: () => state.busy,
    collect: () => {
      state.collected++;
      state.size = state.afterCollect;
    },
    after: (fn, ms) => timers.push({ fn, ms }),
  });
  /** Runs the timers due now (each may schedule the next window). */
  const tick = (): void => {
    for (const t of timers.splice(0)) t.fn();
  };
  return { collector, timers, state, tick };
}

describe('QuietCollector', () => {
  it('collects once the calls stop, when the heap grew by the threshold, and once per quiet period', () => {
    const s = scripted(10e6);
    s.state.busy = 0.9;
    s.state.size = 10e6 + GROWTH_BYTES;
    s.collector.onGc();
    s.collector.onGc(); // a second GC while armed schedules nothing more
    expect(s.timers).toEqual([{ fn: expect.any(Function), ms: QUIET_WINDOW_MS }]);
    for (let i = 0; i < 5; i++) s.tick(); // busy windows: checked again, nothing collected
    expect(s.state.collected).toBe(0);
    expect(s.timers).toHaveLength(1);
    s.state.busy = QUIET_UTILIZATION / 2;
    s.tick();
    expect(s.state.collected).toBe(1);
    expect(s.collector.collections).toBe(1);
    expect(s.timers).toHaveLength(0); // disarmed: no timer while nothing allocates
    // Its own collection's GC event arms it again; quiet, and nothing grew since: no second collection.
    s.collector.onGc();
    s.tick();
    expect(s.state.collected).toBe(1);
    expect(s.timers).toHaveLength(0);
  });

  it('does not collect a heap that grew less than the threshold, and measures growth from the last collection', () => {
    const s = scripted(10e6);
    s.state.afterCollect = 20e6; // live data grew: the baseline moves up with it
    s.state.size = 10e6 + GROWTH_BYTES - 1;
    s.collector.onGc();
    s.tick();
    expect(s.state.collected).toBe(0);
    s.state.size = 10e6 + GROWTH_BYTES;
    s.collector.onGc();
    s.tick();
    expect(s.state.collected).toBe(1);
    s.state.size = 20e6 + GROWTH_BYTES - 1;
    s.collector.onGc();
    s.tick();
    expect(s.state.collected).toBe(1);
    s.state.size = 20e6 + GROWTH_BYTES;
    s.collector.onGc();
    s.tick();
    expect(s.state.collected).toBe(2);
  });

  it('asks for the next GC only while not armed: at the start and each time it disarms', () => {
    const timers: (() => void)[] = [];
    const watching: (() => void)[] = [];
    const state = { busy: 0.9, collected: 0, size: 10e6 };
    const collector = new QuietCollector({
      heapSize: () => state.size,
      utilization: () => state.busy,
      collect: () => state.collected++,
      after: (fn) => timers.push(fn),
      nextGc: (fn) => watching.push(fn),
    });
    expect(watching).toHaveLength(1);
    watching.shift()!(); // the GC: armed, and nothing more asked for while the calls go on
    for (let i = 0; i < 3; i++) timers.shift()!();
    expect(watching).toHaveLength(0);
    expect(state.collected).toBe(0);
    state.busy = 0;
    state.size += GROWTH_BYTES;
    timers.shift()!(); // quiet: disarmed (asking again), then collected
    expect(state.collected).toBe(1);
    expect(watching).toHaveLength(1);
    expect(timers).toHaveLength(0);
    collector.stop();
    watching.shift()!(); // after stop, a GC arms nothing and asks for nothing
    expect(timers).toHaveLength(0);
    expect(watching).toHaveLength(0);
  });

  it('stops: a pending window and later GC events do nothing', () => {
    const s = scripted(0);
    s.state.size = GROWTH_BYTES * 4;
    s.collector.onGc();
    s.collector.stop();
    s.tick();
    s.collector.onGc();
    s.tick();
    expect(s.state.collected).toBe(0);
  });
});

describe('startHeapQuiet on this process', () => {
  it('collects the garbage of a burst once after it, and nothing while the process allocates nothing', async () => {
    const lines: string[] = [];
    // A small threshold, so the burst stays well under the heap size at which V8 starts its own incremental marking:
    // with serve's 8 MB (a 24 MB burst) V8 sometimes finished a marking begun during the burst just after it was
    // dropped and freed it itself (seen 3 times in 10 under load 19), leaving nothing for the quiet collection.
    const growth = 2 * 1024 * 1024;
    const quiet = startHeapQuiet((t) => lines.push(t), growth);
    try {
      expect(quiet.collector).toBeDefined();
      const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
      await wait(QUIET_WINDOW_MS * 3);
      const before = quiet.collector!.collections;
      // A burst: 3 × the threshold of objects alive across scavenges (promoted, as in-flight calls' are), made in
      // slices so GC events are delivered meanwhile, then dropped.
      const held: unknown[] = [];
      for (let made = 0; made < growth * 3; made += 20_000 * 64) {
        held.push(Array.from({ length: 20_000 }, (_, i) => ({ i, s: `junk ${i} ${made}` })));
        await new Promise((r) => setImmediate(r));
      }
      held.length = 0;
      for (let waited = 0; quiet.collector!.collections === before && waited < 10_000; waited += 50) await wait(50);
      const collected = quiet.collector!.collections;
      expect(collected).toBeGreaterThan(before);
      const [used, after] = /([\d.]+) MB \([\d.]+ MB used\) after the calls, ([\d.]+) MB/
        .exec(lines.at(-1) ?? '')!
        .slice(1);
      expect(Number(after)).toBeLessThan(Number(used));
      // Quiet: no further collection.
      await wait(QUIET_WINDOW_MS * 4);
      expect(quiet.collector!.collections).toBe(collected);
    } finally {
      quiet.stop();
    }
  });
});
