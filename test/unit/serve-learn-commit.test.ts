// Group commit (learn-commit.ts): with `commit`, a call's answer waits until the batch holding its learned call is in
// the store; calls made during a write are the next batch (one write); a store that fails or is slow never holds
// answers. The store is a real file store whose writes the test holds and lets go (or fails) one at a time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../../src/core/session/usage.js';
import { FileUsageStore } from '../../src/core/store/file.js';
import type { UsageStore } from '../../src/core/store/types.js';
import { Learner } from '../../src/serve/learn.js';
import { tempDir } from '../helpers/temp.js';

/** A file store whose every add waits for the test: `next()` lets the oldest held write go (or fail). */
function heldStore(file: string) {
  const inner = new FileUsageStore(file);
  const held: { go: () => void; fail: (e: Error) => void }[] = [];
  const writes: number[] = [];
  let arrived: () => void = () => undefined;
  const store = new Proxy(inner, {
    get(target, key) {
      if (key === 'add')
        return async (...a: Parameters<UsageStore['add']>) => {
          writes.push(Object.values(a[0].tools).reduce((n, t) => n + t.success + t.failure, 0));
          await new Promise<void>((go, fail) => {
            held.push({ go, fail });
            arrived();
          });
          return target.add(...a);
        };
      const v: unknown = Reflect.get(target, key);
      return typeof v === 'function' ? (v as (...x: unknown[]) => unknown).bind(target) : v;
    },
  }) as UsageStore;
  const writeArrived = () => (held.length > 0 ? Promise.resolve() : new Promise<void>((r) => (arrived = r)));
  return {
    store,
    writes,
    held,
    async next(outcome: 'go' | Error = 'go') {
      await writeArrived();
      const w = held.shift()!;
      if (outcome === 'go') w.go();
      else w.fail(outcome);
    },
    successes: () =>
      (JSON.parse(readFileSync(file, 'utf8')) as { tools: Record<string, { success: number }> }).tools['a.t']
        ?.success ?? 0,
  };
}

const learner = (store: UsageStore, log: string[], maxWaitMs = 5000) =>
  new Learner({
    store,
    secrets: [],
    now: () => 1_800_000_000_000,
    log: (t) => log.push(t),
    usage: emptyUsage(),
    retry: { firstMs: 20, maxMs: 20 },
    commit: { maxWaitMs },
  });

/** Whether `p` has settled by the next macrotask. */
const settled = async (p: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setTimeout(r, 0));
  return done;
};

describe('Learner with group commit', () => {
  it('an answer waits until its call is written; calls made during a write are written together by the next', async () => {
    const s = heldStore(join(tempDir('mcp-smart-commit-'), 'usage.json'));
    const l = learner(s.store, []);
    const first = l.called('a.t', true, 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(s.writes).toEqual([1]);
    const second = l.called('a.t', true, 1);
    const third = l.called('a.t', true, 1);
    expect(await settled(first)).toBe(false);
    await s.next();
    await first;
    expect(s.successes()).toBe(1);
    // The two calls made meanwhile: one write of both, started as the first ended; neither answered before it.
    expect(await settled(second)).toBe(false);
    expect(s.writes).toEqual([1, 2]);
    await s.next();
    await Promise.all([second, third]);
    expect(s.successes()).toBe(3);
    expect(l.unwritten).toBe(0);
  });

  it('a failed write lets its answers go at once, later ones do not wait, and they wait again once the store is back', async () => {
    const s = heldStore(join(tempDir('mcp-smart-commit-'), 'usage.json'));
    const log: string[] = [];
    const l = learner(s.store, log);
    const first = l.called('a.t', true, 1);
    await s.next(new Error('connection refused'));
    await first;
    expect(l.unwritten).toBe(1);
    expect(log).toContain(
      `warning: answers no longer wait for their learned calls to commit to ${s.store.label} (a SIGKILL now loses what is not yet written); they wait again once it is reachable`,
    );
    // The store is failing: the answer goes without waiting; the retry writes both calls.
    expect(await settled(l.called('a.t', true, 1))).toBe(true);
    await s.next();
    await l.flush();
    expect(s.successes()).toBe(2);
    expect(log).toContain(`answers wait again for their learned calls to commit to ${s.store.label}`);
    const again = l.called('a.t', true, 1);
    expect(await settled(again)).toBe(false);
    await s.next();
    await again;
    expect(s.successes()).toBe(3);
  });

  it('a store slower than maxWaitMs does not hold the answer; the call is still written when the store answers', async () => {
    const s = heldStore(join(tempDir('mcp-smart-commit-'), 'usage.json'));
    const log: string[] = [];
    const l = learner(s.store, log, 60);
    const t0 = Date.now();
    await l.called('a.t', true, 1);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(55);
    expect(s.held).toHaveLength(1);
    expect(log.filter((t) => t.includes('took over 60 ms to commit'))).toHaveLength(1);
    await s.next();
    await l.flush();
    expect(s.successes()).toBe(1);
  });

  it('without commit (a file store) an answer never waits for the write', async () => {
    const s = heldStore(join(tempDir('mcp-smart-commit-'), 'usage.json'));
    const l = new Learner({ store: s.store, secrets: [], now: () => 1, log: () => undefined, usage: emptyUsage() });
    expect(await settled(l.called('a.t', true, 1))).toBe(true);
    await s.next();
    await l.flush();
    expect(s.successes()).toBe(1);
  });
});

describe('Learner with one-statement writes (store.addNow) and their tidy', () => {
  it('waiting answers go through addNow; the tidy it leaves runs within a second, never beside a write', async () => {
    const inner = new FileUsageStore(join(tempDir('mcp-smart-commit-'), 'usage.json'));
    const events: string[] = [];
    let release: () => void = () => undefined;
    const store: UsageStore = Object.assign(Object.create(inner) as UsageStore, {
      add: (...a: Parameters<UsageStore['add']>) => inner.add(...a),
      addNow: async (delta: Parameters<UsageStore['add']>[0], opts: { now: number }) => {
        events.push('addNow start');
        await new Promise<void>((r) => (release = r));
        await inner.add(delta, opts);
        events.push('addNow end');
        return { warnings: [] };
      },
      tidy: () => {
        events.push('tidy');
        return Promise.resolve({ warnings: [] });
      },
    });
    const l = learner(store, []);
    const first = l.called('a.t', true, 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual(['addNow start']);
    expect(await settled(first)).toBe(false);
    release();
    await first;
    // The next write is held past the tidy's second: the tidy waits for its turn after it.
    const second = l.called('a.t', true, 1);
    await new Promise((r) => setTimeout(r, 1300));
    expect(events).toEqual(['addNow start', 'addNow end', 'addNow start']);
    release();
    await second;
    await new Promise((r) => setTimeout(r, 50));
    expect(events).toEqual(['addNow start', 'addNow end', 'addNow start', 'addNow end', 'tidy']);
    const doc = JSON.parse(readFileSync(inner.label, 'utf8')) as { tools: Record<string, { success: number }> };
    expect(doc.tools['a.t']?.success).toBe(2);
  });
});
