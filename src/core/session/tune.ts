/** Tunes hybrid weights for MRR: coordinate search with seeded random probes, k-fold cross-validated by session. */
import { dict } from '../dict.js';
import type { UsageStats } from '../types.js';
import { pairedBootstrap, type PairedDifference } from '../discover/metrics.js';
import { cmp, type ReplayCase } from './cases.js';
import { cloneUsage, recordCalls } from './usage.js';
import { replayCaseSteps, round, usageAt } from './replay.js';
import { runSteps, type Steps } from '../steps.js';

/** Nested numeric weights (the shape of discover's HybridWeights). */
export interface WeightTree {
  [key: string]: number | WeightTree;
}

export type WeightedRankFn<W> = (intent: string, weights: W, usage: UsageStats, now: number) => string[];

export interface TuneOptions<W extends object> {
  /** Cases in time order. */
  cases: ReplayCase[];
  /** Starting point (current weights). */
  base: W;
  rank: WeightedRankFn<W>;
  categorize: (intent: string) => string;
  folds: number;
  seed: number;
  ttlMs?: number;
  /** What the usage store knew before the first case (replay --store); tuning and its held-out replay start there. */
  initialUsage?: UsageStats;
  /** Search bounds by dotted path; unlisted numbers range over [0, 3 × default + 1]. */
  bounds?: Record<string, [number, number]>;
  /** Training cases ranked per evaluation, sampled with the seed (keeps 10,000-case tuning fast). */
  maxTrainCases?: number;
  rounds?: number;
  /** Training-MRR gain a move must bring, in cases' worth (gain × training cases; default 0.05). */
  minGainCases?: number;
  /**
   * Optional fast scorer for training: given every sampled case (with the usage it saw), returns
   * `(weights, subset) → MRR`. Without it, training ranks with `rank`.
   */
  makeEvaluator?: (
    items: { intent: string; expected: string[]; usage: UsageStats; time: number }[],
  ) => (w: W, subset: number[]) => number;
  /** Called at each search round: rounds done so far, rounds in all (folds + the final search), and which. */
  onStep?: (done: number, total: number, what: string) => void;
}

export interface FoldResult {
  fold: number;
  trainCases: number;
  heldOutCases: number;
  trainMrr: number;
  heldOutMrr: number;
  baselineHeldOutMrr: number;
}

export interface TuneResult<W> {
  weights: W;
  /** Mean over folds of the training MRR reached. */
  trainMrr: number;
  /** MRR of the held-out cases, each ranked with weights tuned without its session. */
  heldOutMrr: number;
  /** The same held-out cases ranked with the starting weights. */
  baselineHeldOutMrr: number;
  /**
   * heldOutMrr − baselineHeldOutMrr with its 95 % paired bootstrap interval over the held-out cases: an interval
   * that reaches 0 means the tuned weights are not clearly better than the starting ones. Absent without folds.
   */
  heldOutGain?: PairedDifference;
  folds: FoldResult[];
  evaluations: number;
}

/** The search bounds used when none are given: fusion and field weights ≥ 0, BM25 k1/b in their usual ranges. */
export const DEFAULT_BOUNDS: Record<string, [number, number]> = {
  'bm25.k1': [0.2, 3],
  'bm25.b': [0, 1],
  'usage.halfLifeDays': [0.5, 90],
};

/** mulberry32: a small seeded PRNG, so tuning is reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Dotted paths of every numeric leaf, in key order. */
export function numericPaths(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'number') return [path];
    return v !== null && typeof v === 'object' ? numericPaths(v as object, path) : [];
  });
}

export function getPath(tree: object, path: string): number {
  let node: unknown = tree;
  for (const k of path.split('.')) node = (node as Record<string, unknown>)[k];
  return node as number;
}

/** A copy of `tree` with one leaf replaced. */
export function setPath<W extends object>(tree: W, path: string, value: number): W {
  const [head, ...rest] = path.split('.');
  const copy = { ...(tree as Record<string, unknown>) };
  copy[head!] = rest.length === 0 ? value : setPath(copy[head!] as object, rest.join('.'), value);
  return copy as W;
}

/** Sessions dealt into folds after a seeded shuffle; fewer sessions than folds → one fold per session. */
export function assignFolds(sessionIds: string[], folds: number, random: () => number): Map<string, number> {
  const ids = [...new Set(sessionIds)].sort(cmp);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  const k = Math.max(1, Math.min(folds, ids.length));
  return new Map(ids.map((id, i) => [id, i % k]));
}

/** Resamples of the held-out gain's interval (fewer than the benchmarks' 10,000: it runs on every --tune). */
const GAIN_RESAMPLES = 2000;

function roundGain(d: PairedDifference): PairedDifference {
  return { mean: round(d.mean), low: round(d.low), high: round(d.high) };
}

function roundWeights<W extends object>(w: W): W {
  let out = w;
  for (const p of numericPaths(w)) out = setPath(out, p, Number(getPath(w, p).toPrecision(4)));
  return out;
}

/** Searches weights maximising MRR; reports training and held-out (cross-validated by session) MRR. */
export function tuneWeights<W extends object>(opts: TuneOptions<W>): TuneResult<W> {
  return runSteps(tuneWeightSteps(opts));
}

/** tuneWeights as steps: one per weight set evaluated and per case replayed, so a caller can yield between them. */
export function* tuneWeightSteps<W extends object>(opts: TuneOptions<W>): Steps<TuneResult<W>> {
  const { cases, rank, categorize } = opts;
  const random = seededRandom(opts.seed);
  const bounds = { ...DEFAULT_BOUNDS, ...opts.bounds };
  const paths = numericPaths(opts.base);
  const boundOf = (p: string): [number, number] => bounds[p] ?? [0, 3 * getPath(opts.base, p) + 1];
  const ttlMs = opts.ttlMs ?? 0;
  const maxTrain = opts.maxTrainCases ?? 1000;
  const rounds = opts.rounds ?? 2;
  let evaluations = 0;

  // Training cases are ranked many times: sample them once and freeze the usage each one saw.
  const sampled = new Set<number>();
  const order = cases.map((_, i) => i);
  if (cases.length > maxTrain) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
  }
  for (const i of order.slice(0, maxTrain)) sampled.add(i);
  const frozen = new Map<number, { usage: UsageStats; time: number }>();
  const live: UsageStats = opts.initialUsage ? cloneUsage(opts.initialUsage) : { tools: dict() };
  let lastTime = 0;
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i]!;
    const time = c.time > 0 ? c.time : lastTime;
    lastTime = time;
    if (sampled.has(i)) {
      const view = usageAt(live, time, ttlMs);
      frozen.set(i, { usage: cloneUsage(view), time });
    }
    recordCalls(live, c.calls, categorize(c.intent), time, c.intent);
    if (i % 64 === 63) yield;
  }

  const sampledList = [...sampled].sort((a, b) => a - b);
  const position = new Map(sampledList.map((i, p) => [i, p]));
  const fast = opts.makeEvaluator?.(
    sampledList.map((i) => ({
      intent: cases[i]!.intent,
      expected: cases[i]!.expected,
      usage: frozen.get(i)!.usage,
      time: frozen.get(i)!.time,
    })),
  );
  const trainMrr = (w: W, indices: number[]): number => {
    evaluations++;
    if (fast)
      return fast(
        w,
        indices.map((i) => position.get(i)!),
      );
    let rr = 0;
    for (const i of indices) {
      const c = cases[i]!;
      const f = frozen.get(i)!;
      const ranked = rank(c.intent, w, f.usage, f.time);
      const expected = new Set(c.expected);
      const first = ranked.findIndex((id) => expected.has(id));
      if (first >= 0) rr += 1 / (first + 1);
    }
    return indices.length > 0 ? rr / indices.length : 0;
  };

  let stepsDone = 0;
  let stepsTotal = rounds;
  const search = function* (indices: number[], what: string): Steps<{ weights: W; mrr: number }> {
    let best = opts.base;
    let bestScore = trainMrr(best, indices);
    yield;
    // A clear gain is needed to move: tiny gains on few cases are noise and do not hold out.
    const minGain = Math.max(1e-4, (opts.minGainCases ?? 0.05) / Math.max(1, indices.length));
    const start = stepsDone;
    stepsDone += rounds;
    for (let round = 0; round < rounds; round++) {
      opts.onStep?.(start + round, stepsTotal, what);
      let improved = false;
      for (const p of paths) {
        const [lo, hi] = boundOf(p);
        const cur = getPath(best, p);
        const probes =
          cur > 0 ? [cur * 0.5, cur * 0.8, cur * 1.25, cur * 2] : [lo + (hi - lo) * 0.1, lo + (hi - lo) * 0.3];
        probes.push(lo + random() * (hi - lo));
        const seen = new Set<number>([cur]);
        for (const raw of probes) {
          const v = Number(Math.min(hi, Math.max(lo, raw)).toPrecision(4));
          if (seen.has(v)) continue;
          seen.add(v);
          const w = setPath(best, p, v);
          const s = trainMrr(w, indices);
          yield;
          if (s >= bestScore + minGain) {
            best = w;
            bestScore = s;
            improved = true;
          }
        }
      }
      if (!improved) break;
    }
    return { weights: roundWeights(best), mrr: bestScore };
  };

  /** Reciprocal ranks of every held-out case, with the weights tuned without its fold and with the starting ones. */
  const rr = { tuned: [] as number[], base: [] as number[] };
  /** Held-out MRR of the tuned and the starting weights on the same cases, ranked in one pass; adds to rr. */
  const heldOut = function* (
    tuned: W,
    include: (i: number) => boolean,
  ): Steps<{ tuned: number; base: number; n: number }> {
    const m = yield* replayCaseSteps(cases, {
      engines: [tuned, opts.base].map((w) => ({
        engine: 'hybrid' as const,
        rank: (intent: string, usage: UsageStats, now: number) => rank(intent, w, usage, now),
      })),
      ks: [1],
      categorize,
      ttlMs,
      include,
      ...(opts.initialUsage ? { initialUsage: opts.initialUsage } : {}),
      onCase: (engine, r) => (engine === 0 ? rr.tuned : rr.base).push(r),
    });
    return { tuned: m.engines[0]!.mrr, base: m.engines[1]!.mrr, n: m.cases };
  };

  const foldOf = assignFolds(
    cases.map((c) => c.sessionId),
    opts.folds,
    random,
  );
  const k = new Set(foldOf.values()).size;
  const folds: FoldResult[] = [];
  let tunedSum = 0;
  let baseSum = 0;
  let heldN = 0;
  if (k >= 2) stepsTotal = (k + 1) * rounds;
  if (k >= 2) {
    for (let f = 0; f < k; f++) {
      const inFold = (i: number): boolean => foldOf.get(cases[i]!.sessionId) === f;
      const train = [...sampled].filter((i) => !inFold(i)).sort((a, b) => a - b);
      const tuned = yield* search(train, `fold ${f + 1} of ${k}`);
      const h = yield* heldOut(tuned.weights, inFold);
      tunedSum += h.tuned * h.n;
      baseSum += h.base * h.n;
      heldN += h.n;
      folds.push({
        fold: f + 1,
        trainCases: train.length,
        heldOutCases: h.n,
        trainMrr: round(tuned.mrr),
        heldOutMrr: h.tuned,
        baselineHeldOutMrr: h.base,
      });
    }
  }
  const final = yield* search(
    [...sampled].sort((a, b) => a - b),
    'all cases',
  );
  opts.onStep?.(stepsTotal, stepsTotal, 'done');
  return {
    weights: final.weights,
    trainMrr: round(folds.length > 0 ? folds.reduce((s, f) => s + f.trainMrr, 0) / folds.length : final.mrr),
    heldOutMrr: round(heldN > 0 ? tunedSum / heldN : 0),
    baselineHeldOutMrr: round(heldN > 0 ? baseSum / heldN : 0),
    ...(heldN > 0
      ? { heldOutGain: roundGain(pairedBootstrap(rr.tuned, rr.base, seededRandom(opts.seed), GAIN_RESAMPLES)) }
      : {}),
    folds,
    evaluations,
  };
}
