import { describe, expect, it } from 'vitest';
import type { ReplayCase } from '../../src/core/session/cases.js';
import { compareTokens, replayCases, type RankFn } from '../../src/core/session/replay.js';
import { assignFolds, getPath, numericPaths, seededRandom, setPath, tuneWeights } from '../../src/core/session/tune.js';
import type { UsageStats } from '../../src/core/types.js';

const kase = (sessionId: string, n: number, intent: string, time: number, expected: string[]): ReplayCase => ({
  id: `${sessionId}#${n}`,
  sessionId,
  file: 'f',
  line: n,
  intent,
  time,
  expected,
  calls: expected.map((id) => ({ id, ok: true, known: true })),
  success: true,
});

/** Ranks used tools first (by success count), then the rest alphabetically. */
const usageFirst: RankFn = (_intent, usage) => {
  const all = ['a.one', 'a.two', 'b.three', 'b.four'];
  const used = (id: string): number => usage.tools[id]?.success ?? 0;
  return [...all].sort((x, y) => used(y) - used(x) || (x < y ? -1 : 1));
};

describe('replayCases', () => {
  it('ranks each case with only the usage of earlier cases (no peeking)', () => {
    const seen: number[] = [];
    const spy: RankFn = (intent, usage, now) => {
      seen.push(usage.tools['b.four']?.success ?? 0);
      return usageFirst(intent, usage, now);
    };
    const cases = [
      kase('s', 1, 'x', 1, ['b.four']),
      kase('s', 2, 'x', 2, ['b.four']),
      kase('s', 3, 'x', 3, ['b.four']),
    ];
    const m = replayCases(cases, { engines: [{ engine: 'hybrid', rank: spy }], categorize: () => 'other' });
    expect(seen).toEqual([0, 1, 2]);
    // First case: no usage yet, so b.four is 3rd (a.one, a.two, b.four, b.three); then 1st.
    expect(m.engines[0]!.mrr).toBeCloseTo((1 / 3 + 1 + 1) / 3, 4);
    expect(m.engines[0]!.recallAt).toEqual({ '1': 0.6667, '3': 1, '5': 1 });
    expect(m.engines[0]!.perServer).toEqual([
      { server: 'b', expected: 3, recallAt: { '1': 0.6667, '3': 1, '5': 1 }, mrr: 0.7778 },
    ]);
  });

  it('forgets usage older than the TTL at each case time', () => {
    const cases = [kase('s', 1, 'x', 0 + 1, ['b.four']), kase('s', 2, 'x', 1 + 10_000, ['b.four'])];
    const ttl = replayCases(cases, {
      engines: [{ engine: 'h', rank: usageFirst }],
      categorize: () => 'o',
      ttlMs: 1000,
    });
    const keep = replayCases(cases, { engines: [{ engine: 'h', rank: usageFirst }], categorize: () => 'o' });
    expect(ttl.engines[0]!.recallAt['1']).toBe(0);
    expect(keep.engines[0]!.recallAt['1']).toBe(0.5);
  });

  it('counts a tool that is not ranked at all as a miss and lists the case', () => {
    const m = replayCases([kase('s', 1, 'x', 1, ['gh.issue', 'a.one'])], {
      engines: [{ engine: 'h', rank: usageFirst }],
      categorize: () => 'o',
    });
    expect(m.engines[0]!.recallAt['1']).toBe(0.5);
    expect(m.engines[0]!.mrr).toBe(1);
    const none = replayCases([kase('s', 1, 'x', 1, ['gh.issue'])], {
      engines: [{ engine: 'h', rank: usageFirst }],
      categorize: () => 'o',
    });
    expect(none.misses).toEqual([
      { case: 's#1', intent: 'x', expected: ['gh.issue'], firstRank: 0, top: ['a.one', 'a.two', 'b.four'] },
    ]);
  });
});

describe('compareTokens', () => {
  it('averages the top-k tokens per case against all tools', () => {
    const tokens = new Map([
      ['a', 100],
      ['b', 50],
      ['c', 850],
    ]);
    expect(
      compareTokens(
        [
          ['a', 'b', 'c'],
          ['c', 'a', 'b'],
        ],
        2,
        tokens,
      ),
    ).toEqual({ k: 2, all: 1000, topK: 550, saved: 0.45 });
  });
});

describe('tuning helpers', () => {
  it('walks and rewrites nested weights without touching the original', () => {
    const w = { fusion: { bm25: 1, usage: 0.3 }, bm25: { k1: 1.2 } };
    expect(numericPaths(w)).toEqual(['fusion.bm25', 'fusion.usage', 'bm25.k1']);
    const v = setPath(w, 'fusion.usage', 2);
    expect(getPath(v, 'fusion.usage')).toBe(2);
    expect(w.fusion.usage).toBe(0.3);
  });
  it('deals sessions into folds reproducibly', () => {
    const a = assignFolds(['s1', 's2', 's3', 's4', 's5', 's1'], 2, seededRandom(7));
    const b = assignFolds(['s5', 's4', 's3', 's2', 's1'], 2, seededRandom(7));
    expect([...a.entries()].sort()).toEqual([...b.entries()].sort());
    expect(new Set(a.values())).toEqual(new Set([0, 1]));
    expect(seededRandom(1)()).toBe(seededRandom(1)());
  });
});

describe('tuneWeights', () => {
  // A toy ranker: text score favours a.one; the usage weight can lift the tool the user really uses (b.four).
  const rank = (_intent: string, w: { fusion: { text: number; usage: number } }, usage: UsageStats): string[] => {
    const text: Record<string, number> = { 'a.one': 1, 'a.two': 0.5, 'b.three': 0.2, 'b.four': 0.1 };
    const u = (id: string): number => Math.min(1, (usage.tools[id]?.success ?? 0) / 3);
    return Object.keys(text).sort(
      (x, y) =>
        w.fusion.text * text[y]! + w.fusion.usage * u(y) - (w.fusion.text * text[x]! + w.fusion.usage * u(x)) ||
        (x < y ? -1 : 1),
    );
  };
  const cases: ReplayCase[] = [];
  for (let s = 0; s < 6; s++)
    for (let i = 0; i < 5; i++) cases.push(kase(`s${s}`, i + 1, 'do it', s * 10 + i + 1, ['b.four']));
  // Tuning of the toy ranker from a given starting point: text-led (usage barely weighs) or usage-led (already best).
  const tuning = (base: { fusion: { text: number; usage: number } }) => ({
    cases,
    base,
    rank,
    categorize: () => 'other',
    folds: 3,
    seed: 3,
  });
  const TEXT_LED = { fusion: { text: 1, usage: 0.1 } };
  const USAGE_LED = { fusion: { text: 0, usage: 1 } };

  it('improves held-out MRR over the starting weights and is reproducible', () => {
    const opts = tuning(TEXT_LED);
    const r = tuneWeights(opts);
    expect(r.folds).toHaveLength(3);
    expect(r.heldOutMrr).toBeGreaterThan(r.baselineHeldOutMrr);
    expect(r.weights.fusion.usage).toBeGreaterThan(0.1);
    expect(tuneWeights(opts)).toEqual(r);
    // The gain comes with its interval over the held-out cases; here every case gains or ties, so it stays above 0.
    const g = r.heldOutGain!;
    expect(g.mean).toBeCloseTo(r.heldOutMrr - r.baselineHeldOutMrr, 3);
    expect(g.low).toBeGreaterThan(0);
    expect(g.low).toBeLessThanOrEqual(g.mean);
    expect(g.high).toBeGreaterThanOrEqual(g.mean);
  });

  it('reports a zero gain with a zero-width interval when the starting weights are already best', () => {
    const r = tuneWeights(tuning(USAGE_LED));
    expect(r.heldOutMrr).toBe(r.baselineHeldOutMrr);
    expect(r.heldOutGain).toEqual({ mean: 0, low: 0, high: 0 });
  });

  it('starts from what the store knew (initialUsage), in training and in the held-out replay', () => {
    const opts = tuning(USAGE_LED);
    // From nothing, the very first case has no usage to go by: a tie, b.four 3rd by name (a.one, a.two, b.four).
    const fromNothing = tuneWeights(opts);
    expect(fromNothing.baselineHeldOutMrr).toBeCloseTo((29 + 1 / 3) / 30, 4);
    const known: UsageStats = { tools: { 'b.four': { success: 3, failure: 0, lastUsed: 0, categories: {} } } };
    const fromStore = tuneWeights({ ...opts, initialUsage: known });
    expect(fromStore.baselineHeldOutMrr).toBe(1);
    expect(known.tools['b.four']!.success).toBe(3);
  });

  it('has no gain interval without at least two sessions to hold out', () => {
    const r = tuneWeights({ ...tuning(TEXT_LED), cases: cases.filter((c) => c.sessionId === 's0') });
    expect(r.folds).toHaveLength(0);
    expect(r.heldOutGain).toBeUndefined();
  });
});
