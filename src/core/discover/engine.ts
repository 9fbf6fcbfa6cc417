/**
 * The discover engines (keyword, bm25, semantic, hybrid); index.ts adds the optional sentence model. A ranking is
 * one pipeline: the intent read once (intent.ts) → its signals and their fusion (first-stage.ts) → the checks after
 * fusion (checks/) → the re-ranker (second-stage.ts) → the checks after it → the results (result.ts); build.ts
 * holds the index they work on, patterns.ts the configured boosts, pins and exclusions.
 */
import type { EngineName, PatternRule, UsageStats } from '../types.js';
import type { DiscoverIndex } from './build.js';
import { matchedTerms } from './bm25.js';
import { checkReasons, runChecks, startChecks } from './checks/index.js';
import type { FusionMethod } from './fusion.js';
import { fuseSignals, querySignals } from './first-stage.js';
import { readIntent } from './intent.js';
import { intentWords, keywordDoc, keywordScore } from './keyword.js';
import { patternStage } from './patterns.js';
import type { RememberedMatch } from './remembered.js';
import { rankedResults, type Ranking } from './result.js';
import type { RerankModel } from './rerank.js';
import { RERANK_MODEL } from './rerank-model.js';
import { rerankStage } from './second-stage.js';
import { resolveWeights, type WeightsInput } from './weights.js';

export { DEFAULT_WEIGHTS, resolveWeights, type HybridWeights, type WeightsInput } from './weights.js';
export { detectTaskContext, usagePrior, type TaskContext, type TaskType } from './usage.js';
export {
  evaluateRankings,
  evaluationMisses,
  pairedBootstrap,
  type PairedDifference,
  type RankingMetrics,
} from './metrics.js';
export {
  loadWordVectors,
  loadShippedWordVectors,
  parseWordVectors,
  encodeWordVectors,
  defaultVectorsFile,
  type WordVectors,
} from './vectors.js';
export { applyPatterns, patternsFromConfig, type PatternEffect } from './patterns.js';
export { type SemanticIndex } from './semantic.js';
export { decodeSemanticIndex, encodeSemanticIndex } from './semantic-codec.js';
export { decodeBm25Index, encodeBm25Index, type Bm25Index } from './bm25.js';
export {
  buildDiscoverIndex,
  decodeIndexCache,
  encodeIndexCache,
  encodeIndexCacheParts,
  encodeIndexCacheSource,
  indexCacheKey,
  semanticText,
  toolRefsFromSnapshots,
  type BuildOptions,
  type DiscoverIndex,
} from './build.js';
export {
  openIndexCache,
  sealIndexCache,
  sealIndexCacheParts,
  sealIndexCacheSource,
  snapshotIndexKey,
  INDEX_CACHE_VERSION,
} from './index-cache.js';
export { topK, topN } from './candidates.js';
export { fuse, fuseHybrid, fuseRankings, type FusionMethod, type HybridSignals } from './fusion.js';
export { serverGroups } from './signals.js';
export type { RankedTool, Ranking } from './result.js';
export { parseLabelledIntents, type LabelledIntent } from './intents.js';

export interface RankOptions {
  engine: EngineName;
  k: number;
  weights?: WeightsInput;
  usage?: UsageStats;
  /** Clock for the recency part of the usage prior (ms since the epoch). */
  now?: number;
  patterns?: { rules: PatternRule[]; allowList?: boolean };
  /** Query vector from a sentence model (with `embeddings` at build time). */
  queryVector?: Float32Array;
  fusion?: FusionMethod;
  /** The hybrid engine's second stage (rerank.ts): the shipped model by default, false for the first stage alone. */
  rerank?: RerankModel | false;
  /**
   * The scope derived from use (session/scope.ts scopePrior): tool id → weight; its tools among the best candidates
   * rank higher (checks/project-scope.ts). Absent or empty: the ranking is as without it, byte for byte.
   */
  scope?: ReadonlyMap<string, number>;
  /** The scope's share of the best score (default SCOPE_SHARE; bench/scope.mjs sweeps it). */
  scopeShare?: number;
  /** Called with the first stage's candidates (ids, best first) and their re-ranker features (training script). */
  onCandidates?: (ids: string[], features: number[][]) => void;
  /** Checks (CHECKS names) not run in this ranking: bench/generalise.mjs --checks measures each one's worth. */
  disabledChecks?: ReadonlySet<string>;
}

/**
 * Per-tool arrays of the last ranking, handed to the next one of the same catalogue size (allocating five arrays
 * of n floats per query is most of the garbage at 100,000 tools). A ranking takes them and gives them back when it
 * returns; one started meanwhile (from onCandidates) finds none and allocates its own.
 */
let spare: Buffers | null = null;
type Buffers = Record<'scores' | 'prior' | 'shares' | 'bm' | 'sem', Float32Array>;

/** The scope's weights by tool (index position); tools not in this index are left out. */
function scopeOf(index: DiscoverIndex, scope: ReadonlyMap<string, number> | undefined): Map<number, number> {
  const out = new Map<number, number>();
  if (!scope || scope.size === 0) return out;
  const docOf = (index.docOf ??= new Map(index.tools.map((t, i) => [t.id, i])));
  for (const [id, w] of scope) {
    const doc = docOf.get(id);
    if (doc !== undefined && w > 0) out.set(doc, w);
  }
  return out;
}

/** Ranks the index's tools for an intent with one engine. Ties break by id. */
export function rankTools(index: DiscoverIndex, raw: string, opts: RankOptions): Ranking {
  const n = index.tools.length;
  const buffers =
    spare?.scores.length === n
      ? spare
      : {
          scores: new Float32Array(n),
          prior: new Float32Array(n),
          shares: new Float32Array(n),
          bm: new Float32Array(n),
          sem: new Float32Array(n),
        };
  spare = null;
  const weights = opts.weights ? resolveWeights(opts.weights, index.weights) : index.weights;
  const stage = patternStage(index.tools, opts.patterns);
  const allowed = stage ? stage.allowed : (): boolean => true;
  const boost = stage ? stage.boost : (): number => 0;
  const scores = buffers.scores.fill(0);
  let explain: (i: number) => Record<string, number>;
  let matched: (i: number) => string[] | undefined;
  let any = false;
  let memory: RememberedMatch | null = null;
  /** The hybrid's server shares: they order tools, but do not by themselves make a tool match. */
  let shares: Float32Array | null = null;
  let reading: string[] = [];

  if (opts.engine === 'keyword') {
    index.keywordDocs ??= index.tools.map((t) => keywordDoc(t, index.keywords));
    const words = intentWords(raw);
    const parts = index.keywordDocs.map((d) => keywordScore(d, words));
    parts.forEach((p, i) => {
      scores[i] = p.strong + p.weak;
      if (scores[i] > 0 && allowed(i)) any = true;
    });
    explain = (i) => ({ strong: parts[i]!.strong, weak: parts[i]!.weak });
    matched = (i) => parts[i]!.matched;
  } else {
    // Read: the intent once (a question is ranked as the command it amounts to: mood.ts). Signals: its query's.
    const intent = readIntent(raw);
    const s = querySignals(index, intent, opts.engine, weights, opts.queryVector, buffers);
    const { bm, sem } = s;
    reading = s.reading;
    matched = (i) => matchedTerms(s.bmIndex, s.shown, i);
    if (opts.engine === 'bm25') {
      scores.set(bm);
      any = s.bmHit;
      explain = (i) => ({ bm25: bm[i]! });
    } else if (opts.engine === 'semantic') {
      scores.set(sem);
      any = s.q !== null;
      explain = (i) => ({ semantic: sem[i]! });
    } else {
      // Fuse → checks → re-rank → checks: every check runs only when a signal matched.
      const fused = fuseSignals(index, intent, s, opts, weights, buffers, allowed, stage ? allowed : undefined, scores);
      ({ any, memory } = fused);
      shares = fused.server;
      const scope = scopeOf(index, opts.scope);
      const checks = startChecks(
        index,
        intent,
        scores,
        allowed,
        s.query.actions,
        fused.steps,
        {
          weights: scope,
          share: opts.scopeShare,
        },
        opts.disabledChecks,
      );
      if (any) runChecks(checks, 'fused');
      const model = opts.rerank === undefined ? RERANK_MODEL : opts.rerank;
      const second = any ? rerankStage(index, s, fused, scores, allowed, model, opts.onCandidates) : null;
      checks.reranked = second?.moved != null;
      if (any) runChecks(checks, 'reranked', second?.candidates);
      // Into the fused reasons' own (fresh) object: the same keys in the same order as spreading both.
      explain = (i) => Object.assign(fused.explain(i), checkReasons(checks, i, second?.moved?.get(i)));
    }
  }

  // Without pattern rules the scores are final as they are (nothing changes them from here on).
  let final = scores;
  if (stage) {
    final = new Float32Array(n);
    for (let i = 0; i < n; i++) final[i] = scores[i]! + boost(i);
  }
  const ranking = rankedResults(index, {
    engine: opts.engine,
    k: opts.k,
    any,
    final,
    shares,
    allowed,
    boost,
    pinned: stage ? stage.pinned : [],
    explain,
    matched,
    ...(memory ? { remembered: (i: number) => memory.best(i)?.text } : {}),
  });
  // The ranking holds none of the arrays: the next one may reuse them.
  spare = buffers;
  return reading.length > 0 ? { ...ranking, reading } : ranking;
}
