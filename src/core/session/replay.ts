/** Replays cases in time order: each is ranked using only the usage learned from earlier cases (no peeking). */
import { redactFreeText } from '../../process/redact.js';
import { runSteps, type Steps } from '../steps.js';
import { dict } from '../dict.js';
import type { UsageStats } from '../types.js';
import { cmp, type ReplayCase } from './cases.js';
import { cloneUsage, recordCalls } from './usage.js';

/** Ranks tool ids for an intent, best first, with the usage known at `now`. */
export type RankFn = (intent: string, usage: UsageStats, now: number) => string[];

export interface EngineRanker {
  engine: string;
  rank: RankFn;
}

export interface ServerMetrics {
  server: string;
  /** Expected-tool mentions of this server's tools. */
  expected: number;
  recallAt: Record<string, number>;
  /** Mean reciprocal rank of this server's expected tools. */
  mrr: number;
}

export interface EngineMetrics {
  engine: string;
  recallAt: Record<string, number>;
  mrr: number;
  perServer: ServerMetrics[];
}

export interface CaseMiss {
  case: string;
  intent: string;
  expected: string[];
  /** Rank of the first expected tool (0 when not ranked at all). */
  firstRank: number;
  top: string[];
}

export interface ReplayMetrics {
  cases: number;
  engines: EngineMetrics[];
  /** Cases whose expected tools the first engine left out of its top max(ks), worst first (at most 10). */
  misses: CaseMiss[];
  /** For each case, the first engine's top max(ks) ids (the token comparison uses them). */
  topIds: string[][];
}

export interface ReplayOptions {
  engines: EngineRanker[];
  ks?: number[];
  categorize: (intent: string) => string;
  /** Usage known before the first case (e.g. an existing store). */
  initialUsage?: UsageStats;
  /** Remember each case's intent for the tools that served it (default true; false: counts only). */
  rememberIntents?: boolean;
  /** Forget tools unused for longer than this before each case (0: never). */
  ttlMs?: number;
  serverOf?: (id: string) => string;
  /** Only these cases are scored (all still teach usage, in time order). */
  include?: (index: number) => boolean;
  /** How many top ids per case to keep in `topIds` (default: max(ks)). */
  topDepth?: number;
  /** Called for every scored case and engine, in case order, with the reciprocal rank of its first expected tool (0 when none ranked). */
  onCase?: (engine: number, reciprocalRank: number) => void;
}

interface Acc {
  recall: number[];
  rr: number;
  n: number;
}

/** Usage as it stood at `time` under the TTL: tools unused for longer are left out. */
export function usageAt(stats: UsageStats, time: number, ttlMs: number): UsageStats {
  if (ttlMs <= 0) return stats;
  const tools: UsageStats['tools'] = dict();
  for (const [id, u] of Object.entries(stats.tools)) if (time - u.lastUsed <= ttlMs) tools[id] = u;
  return stats.intents ? { tools, intents: stats.intents } : { tools };
}

const defaultServerOf = (id: string): string => {
  const dot = id.indexOf('.');
  return dot === -1 ? id : id.slice(0, dot);
};

/** Recall@k (share of a case's expected tools in the top k), MRR (first expected tool), per server. Cases must be in time order. */
export function replayCases(cases: ReplayCase[], opts: ReplayOptions): ReplayMetrics {
  return runSteps(replayCaseSteps(cases, opts));
}

/** replayCases as steps: one per case, so a caller can give the event loop a turn between cases. */
export function* replayCaseSteps(cases: ReplayCase[], opts: ReplayOptions): Steps<ReplayMetrics> {
  const ks = opts.ks ?? [1, 3, 5];
  const depth = Math.max(...ks);
  const serverOf = opts.serverOf ?? defaultServerOf;
  // A copy: recordCalls mutates entries, and the initial usage belongs to the caller.
  const usage: UsageStats = opts.initialUsage ? cloneUsage(opts.initialUsage) : { tools: dict() };
  const newAcc = (): Acc => ({ recall: ks.map(() => 0), rr: 0, n: 0 });
  const totals = opts.engines.map(newAcc);
  const perServer = opts.engines.map(() => new Map<string, Acc>());
  const misses: CaseMiss[] = [];
  const topIds: string[][] = [];
  let scored = 0;
  let lastTime = 0;

  for (let index = 0; index < cases.length; index++) {
    const c = cases[index]!;
    const time = c.time > 0 ? c.time : lastTime;
    lastTime = time;
    if (c.expected.length > 0 && (!opts.include || opts.include(index))) {
      scored++;
      const known = usageAt(usage, time, opts.ttlMs ?? 0);
      const relevant = new Set(c.expected);
      opts.engines.forEach((e, ei) => {
        const ranked = e.rank(c.intent, known, time);
        const position = new Map<string, number>();
        ranked.forEach((id, r) => {
          if (!position.has(id)) position.set(id, r + 1);
        });
        const acc = totals[ei]!;
        acc.n++;
        ks.forEach((k, ki) => {
          acc.recall[ki]! += c.expected.filter((id) => (position.get(id) ?? Infinity) <= k).length / relevant.size;
        });
        const first = Math.min(...c.expected.map((id) => position.get(id) ?? Infinity));
        const rr = Number.isFinite(first) ? 1 / first : 0;
        acc.rr += rr;
        opts.onCase?.(ei, rr);
        for (const id of c.expected) {
          const server = serverOf(id);
          let s = perServer[ei]!.get(server);
          if (!s) perServer[ei]!.set(server, (s = newAcc()));
          s.n++;
          const r = position.get(id) ?? Infinity;
          ks.forEach((k, ki) => {
            if (r <= k) s.recall[ki]!++;
          });
          if (Number.isFinite(r)) s.rr += 1 / r;
        }
        if (ei === 0) {
          topIds.push(ranked.slice(0, opts.topDepth ?? depth));
          if (!(first <= depth))
            misses.push({
              case: c.id,
              // Shown and written (--json, -o) as the learned store keeps it: a key typed into a prompt stays hidden.
              intent: redactFreeText(c.intent),
              expected: c.expected,
              firstRank: Number.isFinite(first) ? first : 0,
              top: ranked.slice(0, 3),
            });
        }
      });
    }
    recordCalls(usage, c.calls, opts.categorize(c.intent), time, opts.rememberIntents === false ? undefined : c.intent);
    yield;
  }

  const summarize = (a: Acc): { recallAt: Record<string, number>; mrr: number } => ({
    recallAt: Object.fromEntries(ks.map((k, ki) => [String(k), round(a.n > 0 ? a.recall[ki]! / a.n : 0)])),
    mrr: round(a.n > 0 ? a.rr / a.n : 0),
  });
  misses.sort(
    (a, b) =>
      (b.firstRank === 0 ? Infinity : b.firstRank) - (a.firstRank === 0 ? Infinity : a.firstRank) ||
      cmp(a.case, b.case),
  );
  return {
    cases: scored,
    engines: opts.engines.map((e, ei) => ({
      engine: e.engine,
      ...summarize(totals[ei]!),
      perServer: [...perServer[ei]!.entries()]
        .sort(([a], [b]) => cmp(a, b))
        .map(([server, a]) => ({ server, expected: a.n, ...summarize(a) })),
    })),
    misses: misses.slice(0, 10),
    topIds,
  };
}

export interface TokenComparison {
  k: number;
  /** Tokens of every loaded tool's definition. */
  all: number;
  /** Mean tokens of the top-k tools over the cases. */
  topK: number;
  /** 1 − topK / all. */
  saved: number;
}

/** Tokens of loading each case's top k instead of every tool. */
export function compareTokens(topIds: string[][], k: number, tokensOf: Map<string, number>): TokenComparison {
  let all = 0;
  for (const n of tokensOf.values()) all += n;
  let sum = 0;
  for (const ids of topIds) for (const id of ids.slice(0, k)) sum += tokensOf.get(id) ?? 0;
  const topK = topIds.length > 0 ? Math.round(sum / topIds.length) : 0;
  // No case: nothing was loaded instead of anything, so nothing was saved (not 100 %).
  return { k, all, topK, saved: round(all > 0 && topIds.length > 0 ? 1 - topK / all : 0) };
}

export const round = (v: number): number => Math.round(v * 10000) / 10000;
