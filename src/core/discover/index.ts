/** Discover: rank the tools of a setup for a natural-language intent (keyword, bm25, semantic, hybrid). */
import type { EngineName, PatternRule, ServerSnapshot, ToolRef, UsageStats } from '../../types.js';
import { analyzeFields, buildBm25Index, matchedTerms, queryTerms, scoreBm25, type Bm25Index } from './bm25.js';
import { intentWords, keywordDoc, keywordScore, type KeywordDoc } from './keyword.js';
import { applyPatterns } from './patterns.js';
import { buildSemanticIndex, queryVector, scoreSemantic, semanticIndexFromRows, sentenceVector, type SemanticIndex } from './semantic.js';
import { splitWords } from './tokenize.js';
import { detectTaskContext, usagePrior } from './usage.js';
import type { WordVectors } from './vectors.js';
import { DEFAULT_WEIGHTS, resolveWeights, type HybridWeights, type WeightsInput } from './weights.js';

export { DEFAULT_WEIGHTS, resolveWeights, type HybridWeights, type WeightsInput } from './weights.js';
export { detectTaskContext, usagePrior, type TaskContext, type TaskType } from './usage.js';
export { evaluateRankings, type RankingMetrics } from './metrics.js';
export { loadWordVectors, parseWordVectors, encodeWordVectors, defaultVectorsFile, type WordVectors } from './vectors.js';
export { applyPatterns, type PatternEffect } from './patterns.js';

/** Fusion of the hybrid engine. `sum` (weighted sum of max-normalised signals) won the measurement; see bench/discover.mjs. */
export type FusionMethod = 'sum' | 'rrf';

export interface DiscoverIndex {
  /** Tools sorted by id; doc numbers below index this array. */
  tools: ToolRef[];
  weights: HybridWeights;
  keywords: Record<string, string[]>;
  fields: ReturnType<typeof analyzeFields>[];
  /** Vectors used for queries (absent when none were given, or when `embeddings` came from a model). */
  vectors?: WordVectors;
  semantic?: SemanticIndex;
  /** bm25 indexes by their parameters (the tuner asks for several). */
  bm25ByParams: Map<string, Bm25Index>;
  keywordDocs?: KeywordDoc[];
}

export interface BuildOptions {
  weights?: WeightsInput;
  vectors?: WordVectors;
  keywords?: Record<string, string[]>;
  /** Precomputed tool vectors (a sentence model's), in the order of `tools` as given; replaces word vectors. */
  embeddings?: (Float32Array | null)[];
}

/** The text a tool's semantic vector is built from. */
export function semanticText(ref: ToolRef): string {
  return `${splitWords(ref.tool.name).join(' ')} ${ref.tool.description ?? ''}`;
}

/** Indexes tools for every engine. Deterministic: tools are ordered by id. */
export function buildDiscoverIndex(tools: ToolRef[], opts: BuildOptions = {}): DiscoverIndex {
  const order = tools.map((t, i) => i).sort((a, b) => cmp(tools[a]!.id, tools[b]!.id));
  const sorted = order.map((i) => tools[i]!);
  const weights = resolveWeights(opts.weights);
  const fields = sorted.map(analyzeFields);
  const index: DiscoverIndex = { tools: sorted, weights, keywords: opts.keywords ?? {}, fields, bm25ByParams: new Map() };
  bm25For(index, weights);
  if (opts.embeddings) {
    const rows = order.map((i) => opts.embeddings![i] ?? null);
    const dims = rows.find((r) => r)?.length ?? 1;
    index.semantic = semanticIndexFromRows(rows, dims, false);
  } else if (opts.vectors) {
    index.vectors = opts.vectors;
    index.semantic = buildSemanticIndex(opts.vectors, sorted.map(semanticText));
  }
  return index;
}

/** Tool refs of every reachable server, ids `<server>.<tool>`. */
export function toolRefsFromSnapshots(servers: ServerSnapshot[]): ToolRef[] {
  return servers
    .filter((s) => s.status === 'ok')
    .flatMap((s) => s.tools.map((tool) => ({ id: `${s.name}.${tool.name}`, server: s.name, tool, ...(s.instructions ? { serverInstructions: s.instructions } : {}) })));
}

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
}

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
  pinned?: boolean;
}

export interface Ranking {
  fallback: boolean;
  results: RankedTool[];
}

/** Ranks the index's tools for an intent with one engine. Ties break by id. */
export function rankTools(index: DiscoverIndex, intent: string, opts: RankOptions): Ranking {
  const n = index.tools.length;
  const weights = opts.weights ? resolveWeights(opts.weights, index.weights) : index.weights;
  const effects = opts.patterns?.rules.length || opts.patterns?.allowList ? applyPatterns(index.tools.map((t) => t.id), opts.patterns.rules, opts.patterns.allowList) : null;
  const allowed = (i: number): boolean => !effects || effects[i]!.allowed;
  const boost = (i: number): number => effects?.[i]!.boost ?? 0;
  const scores = new Float32Array(n);
  let explain: (i: number) => Record<string, number> = () => ({});
  let matched: (i: number) => string[] | undefined = () => undefined;
  let any = false;
  let k = opts.k;

  if (opts.engine === 'keyword') {
    index.keywordDocs ??= index.tools.map((t) => keywordDoc(t, index.keywords));
    const words = intentWords(intent);
    const parts = index.keywordDocs.map((d) => keywordScore(d, words));
    parts.forEach((p, i) => {
      scores[i] = p.strong + p.weak;
      if (scores[i]! > 0 && allowed(i)) any = true;
    });
    explain = (i) => ({ strong: parts[i]!.strong, weak: parts[i]!.weak });
    matched = (i) => parts[i]!.matched;
  } else {
    const terms = queryTerms(intent);
    const bm = new Float32Array(n);
    const sem = new Float32Array(n);
    const useBm25 = opts.engine !== 'semantic';
    const useSem = opts.engine !== 'bm25';
    const bmIndex = bm25For(index, weights);
    const bmHit = useBm25 && scoreBm25(bmIndex, terms, bm) > 0;
    let q: Float32Array | null = null;
    if (useSem && index.semantic) {
      const raw = opts.queryVector ?? (index.vectors ? sentenceVector(index.vectors, intent) : null);
      if (raw) {
        q = queryVector(index.semantic, raw);
        scoreSemantic(index.semantic, q, sem);
      }
    }
    matched = (i) => matchedTerms(bmIndex, terms, i);
    if (opts.engine === 'bm25') {
      scores.set(bm);
      any = bmHit;
      explain = (i) => ({ bm25: bm[i]! });
    } else if (opts.engine === 'semantic') {
      scores.set(sem);
      any = q !== null;
      explain = (i) => ({ semantic: sem[i]! });
    } else {
      const ctx = detectTaskContext(intent);
      const prior = new Float32Array(n);
      if (opts.usage) {
        index.tools.forEach((t, i) => {
          prior[i] = usagePrior(opts.usage!.tools[t.id], ctx.type, weights.usage, opts.now).total;
        });
      }
      any = bmHit || q !== null;
      const parts = fuse(opts.fusion ?? 'sum', bmHit ? bm : null, q ? sem : null, prior, weights, allowed, scores);
      explain = (i) => ({ bm25: parts.bm25(i), semantic: parts.semantic(i), usage: parts.usage(i) });
    }
  }

  const candidates: number[] = [];
  if (!any) {
    // Nothing matched: every allowed tool is offered (router note), flagged as a fallback.
    for (let i = 0; i < n; i++) if (allowed(i)) candidates.push(i);
    k = candidates.length;
  }
  const pinned = effects ? effects.flatMap((e, i) => (e.pinned && e.allowed ? [i] : [])) : [];
  const final = new Float32Array(n);
  for (let i = 0; i < n; i++) final[i] = scores[i]! + boost(i);
  const keep = (i: number): boolean => allowed(i) && (any ? final[i]! > 0 || opts.engine === 'semantic' : true);
  const top = any ? topK(final, k, keep) : candidates.sort((a, b) => final[b]! - final[a]! || a - b);
  // Pinned tools are always offered, first, in score order.
  const pinSet = new Set(pinned);
  const ordered = [...pinned.sort((a, b) => final[b]! - final[a]! || a - b), ...top.filter((i) => !pinSet.has(i))];
  const limit = Math.max(k, pinned.length);
  const results = ordered.slice(0, limit).map((i, r): RankedTool => {
    const t = index.tools[i]!;
    const why = explain(i);
    if (boost(i) !== 0) why.pattern = boost(i);
    const m = matched(i);
    return {
      rank: r + 1,
      id: t.id,
      server: t.server,
      tool: t.tool.name,
      score: round(final[i]!),
      reasons: Object.fromEntries(Object.entries(why).map(([key, v]) => [key, round(v)])),
      ...(m && m.length > 0 ? { matched: m } : {}),
      ...(pinSet.has(i) ? { pinned: true } : {}),
    };
  });
  return { fallback: !any, results };
}

function bm25For(index: DiscoverIndex, weights: HybridWeights): Bm25Index {
  const key = JSON.stringify(weights.bm25);
  let bm = index.bm25ByParams.get(key);
  if (!bm) {
    bm = buildBm25Index(index.fields, weights.bm25);
    index.bm25ByParams.set(key, bm);
  }
  return bm;
}

const RRF_K = 60;
const RRF_DEPTH = 100;

/** Writes the hybrid score of every doc into `out`; returns each signal's contribution for --explain. */
function fuse(
  method: FusionMethod,
  bm: Float32Array | null,
  sem: Float32Array | null,
  prior: Float32Array,
  weights: HybridWeights,
  allowed: (i: number) => boolean,
  out: Float32Array,
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
  let bmMax = 0;
  let semMax = -Infinity;
  let semMin = Infinity;
  for (let i = 0; i < n; i++) {
    if (bm && bm[i]! > bmMax) bmMax = bm[i]!;
    if (sem) {
      if (sem[i]! > semMax) semMax = sem[i]!;
      if (sem[i]! < semMin) semMin = sem[i]!;
    }
  }
  const bmScale = bm && bmMax > 0 ? w.bm25 / bmMax : 0;
  const semScale = sem && semMax > semMin ? w.semantic / (semMax - semMin) : 0;
  const fb = (i: number): number => (bm ? bm[i]! * bmScale : 0);
  const fs = (i: number): number => (sem ? (sem[i]! - semMin) * semScale : 0);
  for (let i = 0; i < n; i++) out[i] = fb(i) + fs(i) + usage(i);
  return { bm25: fb, semantic: fs, usage };
}

/** Indexes of the k best scores among docs that pass `keep`, best first, ties by lower index. */
export function topK(scores: Float32Array, k: number, keep: (i: number) => boolean): number[] {
  const idx: number[] = [];
  const val: number[] = [];
  if (k <= 0) return idx;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!;
    if (idx.length === k && s <= val[k - 1]!) continue;
    if (!keep(i)) continue;
    let pos = idx.length;
    while (pos > 0 && val[pos - 1]! < s) pos--;
    idx.splice(pos, 0, i);
    val.splice(pos, 0, s);
    if (idx.length > k) {
      idx.pop();
      val.pop();
    }
  }
  return idx;
}

function round(v: number): number {
  return Math.round(v * 10000) / 10000;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
export { parseLabelledIntents, type LabelledIntent } from './intents.js';
export { loadSentenceModel, embedCached, type Embed } from './model.js';
