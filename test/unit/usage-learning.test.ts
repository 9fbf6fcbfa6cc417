import { describe, expect, it } from 'vitest';
import type { ReplayCase } from '../../src/core/session/cases.js';
import {
  DAY_MS,
  emptyUsage,
  forgetUsage,
  learnFromCases,
  mergeUsage,
  parseUsageTools,
  recordCalls,
} from '../../src/core/session/usage.js';

const kase = (intent: string, time: number, calls: { id: string; ok: boolean; latencyMs?: number }[]): ReplayCase => ({
  id: `s#${time}`,
  sessionId: 's',
  file: 'f',
  line: 1,
  intent,
  time,
  expected: [...new Set(calls.map((c) => c.id))],
  calls: calls.map((c) => ({ ...c, known: true })),
  success: calls.every((c) => c.ok),
});
const cat = (intent: string): string => (intent.includes('file') ? 'file_operation' : 'other');

describe('usage learning', () => {
  it('counts successes and failures, categories of successful use, last use and mean latency', () => {
    const stats = learnFromCases(
      emptyUsage(),
      [
        kase('read a file', 100, [
          { id: 'fs.read', ok: false, latencyMs: 30 },
          { id: 'fs.read', ok: true, latencyMs: 10 },
        ]),
        kase('hello', 50, [{ id: 'fs.read', ok: true, latencyMs: 20 }]),
      ],
      cat,
      0,
    );
    expect(stats.tools['fs.read']).toEqual({
      success: 2,
      failure: 1,
      lastUsed: 100,
      categories: { file_operation: 1, other: 1 },
      avgLatencyMs: 20,
      latencySamples: 3,
    });
  });

  it('merges deltas exactly (counts add, latency stays a true mean)', () => {
    const a = emptyUsage();
    recordCalls(a, [{ id: 't.x', ok: true, known: true, latencyMs: 10 }], 'other', 5);
    const b = emptyUsage();
    recordCalls(
      b,
      [
        { id: 't.x', ok: false, known: true, latencyMs: 40 },
        { id: 't.x', ok: true, known: true, latencyMs: 40 },
      ],
      'other',
      9,
    );
    const m = mergeUsage(a, b);
    expect(m.tools['t.x']).toMatchObject({
      success: 2,
      failure: 1,
      lastUsed: 9,
      avgLatencyMs: 30,
      latencySamples: 3,
      categories: { other: 2 },
    });
    expect(a.tools['t.x']!.success).toBe(1); // inputs untouched
  });

  it('forgets tools past the TTL and decays counts by half-life', () => {
    const s = {
      tools: {
        'a.old': { success: 4, failure: 0, lastUsed: 0, categories: { other: 4 } },
        'a.new': { success: 4, failure: 2, lastUsed: 10 * DAY_MS, categories: {} },
      },
    };
    const now = 12 * DAY_MS;
    expect(Object.keys(forgetUsage(s, now, { ttlMs: 7 * DAY_MS }).tools)).toEqual(['a.new']);
    expect(Object.keys(forgetUsage(s, now, { ttlMs: 0 }).tools)).toEqual(['a.new', 'a.old']);
    const decayed = forgetUsage(s, now, { ttlMs: 0, halfLifeMs: 2 * DAY_MS });
    expect(decayed.tools['a.new']).toMatchObject({ success: 2, failure: 1 });
    expect(decayed.tools['a.old']!.categories.other).toBeCloseTo(4 * 0.5 ** 6);
  });

  it('drops malformed entries when parsing a store', () => {
    const r = parseUsageTools({
      'a.b': { success: 1, failure: 0, lastUsed: 3, categories: { x: 1, y: 'no' } },
      'c.d': { success: 'x' },
      'e.f': null,
    });
    expect(r.dropped).toBe(2);
    expect(r.tools).toEqual({ 'a.b': { success: 1, failure: 0, lastUsed: 3, categories: { x: 1 } } });
  });
});

describe('cases without a time', () => {
  it('count as of the newest dated case, not now, so dated history keeps its age', () => {
    const day = Date.parse('2025-01-01T00:00:00.000Z');
    const stats = learnFromCases(
      emptyUsage(),
      [kase('read a file', day, [{ id: 'fs.read', ok: true }]), kase('list', 0, [{ id: 'fs.list', ok: true }])],
      cat,
      day + 400 * DAY_MS,
    );
    expect(stats.tools['fs.list']!.lastUsed).toBe(day);
    // With no dated case at all, the caller's time (now) is all there is.
    expect(
      learnFromCases(emptyUsage(), [kase('list', 0, [{ id: 'fs.list', ok: true }])], cat, 7).tools['fs.list']!.lastUsed,
    ).toBe(7);
  });
});
