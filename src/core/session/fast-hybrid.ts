/**
 * A fast hybrid-MRR evaluator for the tuner. It caches everything that does not depend on the weights
 * (query terms, semantic cosines, BM25 scores and server scores per BM25 parameter set) and recomputes only
 * the `sum` fusion of discover's hybrid engine and its server shares. Clause ranking and patterns are not
 * applied; an intent that matches nothing (rankTools' fallback lists every tool) scores 0 here; cosines are
 * exact where rankTools, from 20,000 tools on, approximates them outside its candidates. Held-out scores always
 * come from rankTools itself.
 */
import { buildBm25Index, queryTerms, scoreBm25, type Bm25Index } from '../discover/bm25.js';
import { serverGroups, type DiscoverIndex } from '../discover/engine.js';
import { queryVector, scoreSemantic, sentenceVector } from '../discover/semantic.js';
import {
  addServerShares,
  combineServerScores,
  serverLexicalScores,
  serverSemanticScores,
} from '../discover/servers.js';
import { detectTaskContext, usagePrior, type TaskType } from '../discover/usage.js';
import type { HybridWeights } from '../discover/weights.js';
import type { UsageStats } from '../../types.js';

export interface TrainItem {
  intent: string;
  expected: string[];
  usage: UsageStats;
  time: number;
}

interface Prepared {
  terms: string[];
  type: TaskType;
  /** Min–max scaled cosines (0..1), or null without a query vector. */
  sem: Float32Array | null;
  /** Each server's best scaled cosine (servers.ts), or null without a query vector. */
  serverSem: Float32Array | null;
  expected: number[];
  /** Used tools with the weight-independent parts of the usage prior (age in days; Infinity = unknown). */
  used: { doc: number; success: number; category: number; ageDays: number }[];
}

const DAY_MS = 86_400_000;
const UNIT = { success: 1, category: 1, recency: 0, halfLifeDays: 1 };

/** Returns `(weights, subset) → MRR` over the given items (subset: indexes into `items`). */
export function createHybridEvaluator(
  index: DiscoverIndex,
  items: TrainItem[],
): (w: HybridWeights, subset: number[]) => number {
  const n = index.tools.length;
  const docOf = new Map(index.tools.map((t, i) => [t.id, i]));
  const servers = serverGroups(index);
  const prepared: Prepared[] = items.map((it) => {
    let sem: Float32Array | null = null;
    if (index.semantic && index.vectors) {
      const raw = sentenceVector(index.vectors, it.intent);
      if (raw) {
        const s = new Float32Array(n);
        scoreSemantic(index.semantic, queryVector(index.semantic, raw), s);
        let lo = Infinity;
        let hi = -Infinity;
        for (const v of s) {
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
        for (let i = 0; i < n; i++) s[i] = hi > lo ? (s[i]! - lo) / (hi - lo) : 0;
        sem = s;
      }
    }
    const type = detectTaskContext(it.intent).type;
    const terms = queryTerms(it.intent);
    return {
      terms,
      type,
      sem,
      serverSem: sem && servers.count > 1 ? serverSemanticScores(sem, servers.of, servers.count) : null,
      expected: it.expected.flatMap((id) => (docOf.has(id) ? [docOf.get(id)!] : [])),
      used: Object.entries(it.usage.tools).flatMap(([id, u]) => {
        const doc = docOf.get(id);
        if (doc === undefined) return [];
        // Success and category do not depend on the weights: take them from discover's own prior once.
        const p = usagePrior(u, type, UNIT, it.time);
        const ageDays = u.lastUsed > 0 ? Math.max(0, it.time - u.lastUsed) / DAY_MS : Infinity;
        return [{ doc, success: p.success, category: p.category, ageDays }];
      }),
    };
  });
  // Per BM25 parameter set and case: tool scores over their best, and each server's lexical score over its best.
  const bm25Cache = new Map<string, { tools: Float32Array; servers: Float32Array | null }[]>();
  const bm25Scores = (params: HybridWeights['bm25']): { tools: Float32Array; servers: Float32Array | null }[] => {
    const key = JSON.stringify(params);
    let rows = bm25Cache.get(key);
    if (!rows) {
      const bmIndex: Bm25Index = buildBm25Index(index.fields, params);
      rows = prepared.map((p) => {
        const s = new Float32Array(n);
        scoreBm25(bmIndex, p.terms, s);
        let max = 0;
        for (const v of s) if (v > max) max = v;
        if (max > 0) for (let i = 0; i < n; i++) s[i] = s[i]! / max;
        const lexical = servers.count > 1 ? serverLexicalScores(bmIndex, p.terms, servers.of, servers.count) : null;
        return { tools: s, servers: lexical };
      });
      if (bm25Cache.size > 64) bm25Cache.clear();
      bm25Cache.set(key, rows);
    }
    return rows;
  };
  const score = new Float32Array(n);
  const prior = new Float32Array(n);

  return (w, subset) => {
    const bm = bm25Scores(w.bm25);
    let rr = 0;
    for (const k of subset) {
      const p = prepared[k]!;
      if (p.expected.length === 0) continue;
      const b = bm[k]!.tools;
      const lexical = bm[k]!.servers;
      const { success: ws, category: wc, recency: wr, halfLifeDays } = w.usage;
      const sum = ws + wc + wr;
      prior.fill(0);
      if (sum > 0) {
        for (const u of p.used) {
          // usagePrior's total, rounded to float32 as discover stores it.
          const recency = Number.isFinite(u.ageDays) && halfLifeDays > 0 ? 0.5 ** (u.ageDays / halfLifeDays) : 0;
          prior[u.doc] = (ws * u.success + wc * u.category + wr * recency) / sum;
        }
      }
      for (let i = 0; i < n; i++)
        score[i] = w.fusion.bm25 * b[i]! + (p.sem ? w.fusion.semantic * p.sem[i]! : 0) + w.fusion.usage * prior[i]!;
      // Server shares as rankTools adds them.
      if (w.fusion.server > 0 && lexical)
        addServerShares(combineServerScores(lexical, p.serverSem, w.fusion), servers.of, w.fusion.server, score);
      // Rank of the best expected tool: higher scores first, ties by lower doc number (as topK does).
      let best = -1;
      for (const d of p.expected)
        if (best === -1 || score[d]! > score[best]! || (score[d] === score[best] && d < best)) best = d;
      const s = score[best]!;
      if (!(s > 0)) continue;
      let rank = 1;
      for (let i = 0; i < n; i++) if (score[i]! > s || (score[i] === s && i < best)) rank++;
      rr += 1 / rank;
    }
    return subset.length > 0 ? rr / subset.length : 0;
  };
}
