/** What `discover` returns: a ranking for one intent, or metrics over labelled intents. */
import type { EngineName } from '../types.js';
import type { DiscoverIndex } from './build.js';
import { topK } from './candidates.js';
import type { RankingMetrics } from './metrics.js';

export interface DiscoverRanking {
  kind: 'ranking';
  intent: string;
  engine: EngineName;
  k: number;
  fallback: boolean;
  results: RankedTool[];
  /** How the intent was read before ranking (Ranking.reading), shown by --explain. */
  reading?: string[];
}

export interface DiscoverEvaluation extends RankingMetrics {
  kind: 'evaluation';
  queries: string;
  engine: EngineName;
  k: number;
  /** Intents none of whose expected tools is in the top k, in file order (at most MAX_MISSES_LISTED). */
  misses?: { intent: string; expected: string[]; top: string[] }[];
  /** How many intents missed in all (misses lists the first ones). */
  missCount?: number;
  /** Expected ids that are not among the loaded tools (typos score 0), sorted. */
  unknownExpected?: string[];
}

export { MAX_MISSES_LISTED } from './metrics.js';

export type DiscoverResult = DiscoverRanking | DiscoverEvaluation;

export interface RankedTool {
  rank: number;
  id: string;
  server: string;
  tool: string;
  score: number;
  /** Each signal's contribution to the score. */
  reasons?: Record<string, number>;
  /** Intent terms found in the tool's text. */
  matched?: string[];
  /** The remembered intent (one the tool was called for before) that matched this intent best. */
  remembered?: string;
  pinned?: boolean;
}

export interface Ranking {
  fallback: boolean;
  results: RankedTool[];
  /**
   * How the intent was read before ranking, one note per mechanism that changed it: the command a question was
   * ranked as (mood.ts), the clause kept out of the ranking (lexicon.ts, keptClause), a server named through a
   * WordNet derivation (named.ts). Absent when none did.
   */
  reading?: string[];
}

/** How the ranked list is cut: what may be offered, what is pinned, the pattern boosts and the server shares. */
export interface ResultInput {
  engine: EngineName;
  k: number;
  /** A signal matched; without one every allowed tool is offered as a fallback. */
  any: boolean;
  /** Scores with the pattern boosts added. */
  final: Float32Array;
  /** The server shares inside `final` (they order tools, but do not by themselves make a tool match). */
  shares: Float32Array | null;
  allowed: (i: number) => boolean;
  boost: (i: number) => number;
  pinned: number[];
  explain: (i: number) => Record<string, number>;
  matched: (i: number) => string[] | undefined;
  /** The remembered intent that matched a tool, when remembered intents were used. */
  remembered?: (i: number) => string | undefined;
}

/** The top k (pinned tools first, in score order), each with its rounded score, reasons and matched terms. */
export function rankedResults(index: DiscoverIndex, r: ResultInput): Ranking {
  const { any, final, shares, allowed, boost, pinned, explain, matched } = r;
  const n = index.tools.length;
  let k = r.k;
  const candidates: number[] = [];
  if (!any) {
    // Nothing matched: every allowed tool is offered (router note), flagged as a fallback.
    for (let i = 0; i < n; i++) if (allowed(i)) candidates.push(i);
    k = candidates.length;
  }
  const own = (i: number): number => (shares ? final[i]! - shares[i]! : final[i]!);
  const keep = (i: number): boolean => allowed(i) && (any ? own(i) > 0 || r.engine === 'semantic' : true);
  const top = any ? topK(final, k, keep) : candidates.sort((a, b) => final[b]! - final[a]! || a - b);
  // Pinned tools are always offered, first, in score order.
  const pinSet = new Set(pinned);
  const ordered = [...pinned.sort((a, b) => final[b]! - final[a]! || a - b), ...top.filter((i) => !pinSet.has(i))];
  const limit = Math.max(k, pinned.length);
  const results = ordered.slice(0, limit).map((i, rank): RankedTool => {
    const t = index.tools[i]!;
    const why = explain(i);
    if (boost(i) !== 0) why.pattern = boost(i);
    const m = matched(i);
    const memo = r.remembered?.(i);
    return {
      rank: rank + 1,
      id: t.id,
      server: t.server,
      tool: t.tool.name,
      score: round(final[i]!),
      reasons: rounded(why),
      ...(m && m.length > 0 ? { matched: m } : {}),
      ...(memo !== undefined ? { remembered: memo } : {}),
      ...(pinSet.has(i) ? { pinned: true } : {}),
    };
  });
  return { fallback: !any, results };
}

/** Each reason rounded, in the same key order (a loop: entries and fromEntries allocate a pair per key). */
function rounded(why: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of Object.keys(why)) out[key] = round(why[key]!);
  return out;
}

function round(v: number): number {
  return Math.round(v * 10000) / 10000;
}
