/** Fusion: the hybrid score of every tool from its signals. rankTools and the tuner's fast path both call fuseHybrid. */
import { topK } from './candidates.js';
import { combineServerScores } from './servers.js';
import type { ServerSignals } from './signals.js';
import type { HybridWeights } from './weights.js';

/** Fusion of the hybrid engine. `sum` (weighted sum of max-normalised signals) won the measurement; see bench/discover.mjs. */
export type FusionMethod = 'sum' | 'rrf';

export const RRF_K = 60;
const RRF_DEPTH = 100;

/** Writes the hybrid score of every doc into `out`; returns each signal's contribution for --explain. */
export function fuse(
  method: FusionMethod,
  bm: Float32Array | null,
  sem: Float32Array | null,
  prior: Float32Array,
  weights: HybridWeights,
  allowed: (i: number) => boolean,
  out: Float32Array,
  ranges?: SignalRanges,
): { bm25: (i: number) => number; semantic: (i: number) => number; usage: (i: number) => number } {
  const n = out.length;
  const w = weights.fusion;
  const zero = (): number => 0;
  const usage = (i: number): number => w.usage * prior[i]!;
  if (method === 'rrf') {
    const rrf = (s: Float32Array | null, weight: number): ((i: number) => number) => {
      if (!s) return zero;
      const ranks = new Map<number, number>();
      topK(s, RRF_DEPTH, allowed).forEach((doc, r) => ranks.set(doc, r));
      return (i) => (ranks.has(i) ? weight / (RRF_K + ranks.get(i)! + 1) : 0);
    };
    const fb = rrf(bm, w.bm25);
    const fs = rrf(sem, w.semantic);
    // The prior is scaled into RRF's range so its weight means the same as in `sum`.
    const fu = (i: number): number => usage(i) / (RRF_K + 1);
    for (let i = 0; i < n; i++) out[i] = fb(i) + fs(i) + fu(i);
    return { bm25: fb, semantic: fs, usage: fu };
  }
  // bm25 is divided by its best score, cosine is min–max scaled over the tools (measured better than
  // centring on the mean; bench/discover.mjs).
  const { bmMax, semMin, semMax } = ranges ?? signalRanges(bm, sem);
  const bmScale = bm && bmMax > 0 ? w.bm25 / bmMax : 0;
  const semScale = sem && semMax > semMin ? w.semantic / (semMax - semMin) : 0;
  const fb = (i: number): number => (bm ? bm[i]! * bmScale : 0);
  const fs = (i: number): number => (sem ? (sem[i]! - semMin) * semScale : 0);
  const semOffset = sem ? semMin : 0;
  const semS = sem ?? out;
  const bmS = bm ?? out;
  const wu = w.usage;
  for (let i = 0; i < n; i++) out[i] = bmS[i]! * bmScale + (semS[i]! - semOffset) * semScale + wu * prior[i]!;
  return { bm25: fb, semantic: fs, usage };
}

/** The best bm25 score and the cosine range, which `sum` scales by (a cache may compute them once). */
export interface SignalRanges {
  bmMax: number;
  semMin: number;
  semMax: number;
}

export function signalRanges(bm: Float32Array | null, sem: Float32Array | null): SignalRanges {
  let bmMax = 0;
  let semMax = -Infinity;
  let semMin = Infinity;
  if (bm) for (let i = 0; i < bm.length; i++) if (bm[i]! > bmMax) bmMax = bm[i]!;
  if (sem)
    for (let i = 0; i < sem.length; i++) {
      if (sem[i]! > semMax) semMax = sem[i]!;
      if (sem[i]! < semMin) semMin = sem[i]!;
    }
  return { bmMax, semMin, semMax };
}

/** Every signal the hybrid engine fuses for one intent. */
export interface HybridSignals {
  /** bm25 scores, or null when no term matched. */
  bm: Float32Array | null;
  /** Cosines, or null when the intent has no known word. */
  sem: Float32Array | null;
  /** Usage prior per tool (zeros without a store). */
  prior: Float32Array;
  /** Best per-clause hybrid score per tool (multi-step intents), or null. */
  clause: Float32Array | null;
  /** Server-level signals, or null (one server, no match, or a server weight of 0). */
  servers: ServerSignals | null;
  /** Best similarity per tool to the intents it was called for (remembered.ts), or null without any. */
  remembered?: Float32Array | null;
  /** signalRanges(bm, sem), when the caller has them already. */
  ranges?: SignalRanges;
}

/**
 * The hybrid score of every tool into `out`: the fused signals, plus the clause scores, plus each tool's share of
 * its server's score. Returns each signal's contribution (for --explain) and the server shares (null without).
 */
export function fuseHybrid(
  s: HybridSignals,
  weights: HybridWeights,
  method: FusionMethod,
  allowed: (i: number) => boolean,
  out: Float32Array,
  /** A buffer for the server shares (every entry written when there are shares), to spare an allocation per call. */
  shareBuffer?: Float32Array,
): { parts: ReturnType<typeof fuse>; server: Float32Array | null } {
  const n = out.length;
  const parts = fuse(method, s.bm, s.sem, s.prior, weights, allowed, out, s.ranges);
  const clause = s.clause;
  // In RRF's range the similarity is scaled as the usage prior is.
  const wr = weights.fusion.intents / (method === 'rrf' ? RRF_K + 1 : 1);
  const remembered = s.remembered && wr > 0 ? s.remembered : null;
  // Each tool's share of its server's score: weight × its server's score over the best server's (so the tools of
  // the best server gain exactly the weight), none when no server scores above 0.
  let server: Float32Array | null = null;
  let serverScores: Float32Array = out;
  let of: Int32Array = new Int32Array(0);
  let scale = 0;
  if (s.servers) {
    serverScores = combineServerScores(s.servers.lexical, s.servers.semantic, weights.fusion);
    let max = 0;
    for (let k = 0; k < serverScores.length; k++) if (serverScores[k]! > max) max = serverScores[k]!;
    if (max > 0) {
      server = shareBuffer ?? new Float32Array(n);
      of = s.servers.of;
      scale = weights.fusion.server / max;
    }
  }
  // RRF scores are about 1/(RRF_K + 1) per signal: the shares are scaled into that range, as the usage prior is.
  const rrf = method === 'rrf';
  // One pass adds the clause scores, the remembered intents and the shares, each rounded to float32 in turn as
  // when each was added into `out` by a loop of its own (so the same numbers).
  if (clause || remembered || server) {
    for (let i = 0; i < n; i++) {
      let v = out[i]!;
      if (clause) v = Math.fround(v + clause[i]!);
      if (remembered) v = Math.fround(v + wr * remembered[i]!);
      if (server) {
        let share = Math.fround(0 + serverScores[of[i]!]! * scale);
        if (rrf) share = Math.fround(share / (RRF_K + 1));
        server[i] = share;
        v += share;
      }
      out[i] = v;
    }
  }
  return { parts, server };
}

/**
 * Several rankings of one need (phrasings of it, as find_tool's `queries`) fused by reciprocal rank: each id gains
 * 1 / (RRF_K + rank) from every list it is in. Deterministic: ties break by the id.
 */
export function fuseRankings(lists: readonly (readonly string[])[]): string[] {
  if (lists.length === 1) return [...lists[0]!];
  const score = new Map<string, number>();
  for (const list of lists) list.forEach((id, r) => score.set(id, (score.get(id) ?? 0) + 1 / (RRF_K + r + 1)));
  return [...score].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([id]) => id);
}
