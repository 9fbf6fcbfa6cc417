/** The discover engines (keyword, bm25, semantic, hybrid); index.ts adds the optional sentence model. */
import { createHash } from 'node:crypto';
import type { EngineName, PatternRule, ServerSnapshot, ToolRef, UsageStats } from '../../types.js';
import {
  analyzeFields,
  buildBm25Index,
  decodeBm25Index,
  encodeBm25Index,
  matchedTerms,
  paramText,
  queryTerms,
  scoreBm25,
  type Bm25Index,
} from './bm25.js';
import { intentWords, keywordDoc, keywordScore, type KeywordDoc } from './keyword.js';
import { applyPatterns } from './patterns.js';
import {
  buildSemanticIndex,
  decodeSemanticIndex,
  encodeSemanticIndex,
  leadPassage,
  queryVector,
  scoreSemantic,
  scoreSemanticDocs,
  scoreSketch,
  semanticIndexFromRows,
  sentenceVector,
  type SemanticIndex,
} from './semantic.js';
import { intentClauses } from './clauses.js';
import { addServerShares, deriveServerScores, groupServers } from './servers.js';
import { splitWords } from './tokenize.js';
import { detectTaskContext, usagePrior } from './usage.js';
import type { WordVectors } from './vectors.js';
import { resolveWeights, type HybridWeights, type WeightsInput } from './weights.js';

export { DEFAULT_WEIGHTS, resolveWeights, type HybridWeights, type WeightsInput } from './weights.js';
export { detectTaskContext, usagePrior, type TaskContext, type TaskType } from './usage.js';
export { evaluateRankings, pairedBootstrap, type PairedDifference, type RankingMetrics } from './metrics.js';
export {
  loadWordVectors,
  loadShippedWordVectors,
  parseWordVectors,
  encodeWordVectors,
  defaultVectorsFile,
  type WordVectors,
} from './vectors.js';
export { applyPatterns, patternsFromConfig, type PatternEffect } from './patterns.js';
export { decodeSemanticIndex, encodeSemanticIndex, type SemanticIndex } from './semantic.js';
export { decodeBm25Index, encodeBm25Index, type Bm25Index } from './bm25.js';

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
  /** Tool → server number and the number of servers (servers.ts), computed on the first query that weighs servers. */
  servers?: { of: Int32Array; count: number };
  keywordDocs?: KeywordDoc[];
}

export interface BuildOptions {
  weights?: WeightsInput;
  vectors?: WordVectors;
  keywords?: Record<string, string[]>;
  /** Precomputed tool vectors (a sentence model's), in the order of `tools` as given; replaces word vectors. */
  embeddings?: (Float32Array | null)[];
  /** The semantic index these tools and `vectors` give, read back from a cache (see indexCacheKey). */
  semantic?: SemanticIndex;
  /** The BM25 index of these tools with the resolved weights' bm25 parameters, read back from a cache. */
  bm25?: Bm25Index;
}

/**
 * A 64-bit hex digest (the head of a SHA-256) of everything a cached index depends on: the tools (ids, names,
 * titles, descriptions, parameter schemas, servers and instructions), the BM25 parameters and the word-vector table.
 */
export function indexCacheKey(tools: ToolRef[], vectors: WordVectors | undefined, weights?: WeightsInput): string {
  const h = createHash('sha256');
  const add = (text: string): void => {
    h.update(text);
    h.update('\0');
  };
  add(`index-v3 ${JSON.stringify(resolveWeights(weights).bm25)}`);
  if (vectors)
    add(
      `${vectors.size}x${vectors.dims}:${vectors.scales[0]}:${vectors.scales[vectors.size - 1]}:${vectors.ranks[vectors.size - 1]}`,
    );
  // In the given order (no sort, for the cold start): the same tools in another order only miss the cache.
  for (const t of tools) {
    add(t.id);
    add(t.server);
    add(t.serverInstructions ?? '');
    add(t.tool.name);
    add(t.tool.title ?? '');
    add(t.tool.description ?? '');
    add(t.tool.inputSchema === undefined ? '' : JSON.stringify(t.tool.inputSchema));
  }
  return h.digest('hex').slice(0, 16);
}

/** Bytes of an index's cacheable parts (BM25 with its weights, semantic); see decodeIndexCache. */
export function encodeIndexCache(index: DiscoverIndex): Uint8Array {
  const bm = encodeBm25Index(bm25For(index, index.weights));
  const sem = index.semantic ? encodeSemanticIndex(index.semantic) : new Uint8Array(0);
  const out = new Uint8Array(8 + bm.byteLength + sem.byteLength);
  new DataView(out.buffer).setUint32(0, bm.byteLength, true);
  new DataView(out.buffer).setUint32(4, sem.byteLength, true);
  out.set(bm, 8);
  out.set(sem, 8 + bm.byteLength);
  return out;
}

/** The cached parts for `size` tools (vectors of `dims`), as BuildOptions; null when the bytes do not fit. */
export function decodeIndexCache(
  buf: Uint8Array,
  size: number,
  dims: number | undefined,
): { bm25: Bm25Index; semantic?: SemanticIndex } | null {
  if (buf.byteLength < 8) return null;
  const copy = buf.byteOffset % 4 === 0 ? buf : new Uint8Array(buf); // an aligned copy (Buffer#slice would be a view)
  const view = new DataView(copy.buffer, copy.byteOffset, copy.byteLength);
  const bmBytes = view.getUint32(0, true);
  const semBytes = view.getUint32(4, true);
  if (8 + bmBytes + semBytes !== copy.byteLength || bmBytes % 4 !== 0) return null;
  const bm25 = decodeBm25Index(copy.subarray(8, 8 + bmBytes), size);
  if (!bm25) return null;
  if (dims === undefined) return { bm25 };
  const semantic = semBytes > 0 ? decodeSemanticIndex(copy.subarray(8 + bmBytes), size, dims) : null;
  return semantic ? { bm25, semantic } : null;
}

/** The text a tool's semantic vector is built from: its name, the lead of its description, its parameters. */
export function semanticText(ref: ToolRef): string {
  return `${splitWords(ref.tool.name).join(' ')} ${leadPassage(ref.tool.description ?? '')} ${paramText(ref)}`.trimEnd();
}

/** semanticText's words, reusing the description's words when the lead is the whole description. */
function semanticWords(ref: ToolRef, name: string[], description: string[], params: string[]): string[][] {
  const text = ref.tool.description ?? '';
  const lead = leadPassage(text);
  return [name, lead === text ? description : splitWords(lead), params];
}

/** Indexes tools for every engine. Deterministic: tools are ordered by id. */
export function buildDiscoverIndex(tools: ToolRef[], opts: BuildOptions = {}): DiscoverIndex {
  const order = tools.map((t, i) => i).sort((a, b) => cmp(tools[a]!.id, tools[b]!.id));
  const sorted = order.map((i) => tools[i]!);
  const weights = resolveWeights(opts.weights);
  const cachedBm25 = opts.bm25 && opts.bm25.size === sorted.length ? opts.bm25 : undefined;
  const cachedSemantic =
    opts.vectors && opts.semantic && opts.semantic.size === sorted.length ? opts.semantic : undefined;
  // Each text is split once; the words feed both the BM25 fields and the sentence vectors. With both
  // indexes from a cache nothing is analysed until some caller reads `fields` (other BM25 parameters, the tuner).
  type Words = { name: string[][]; description: string[][]; params: string[][] };
  let words: Words | undefined;
  const split = (): Words =>
    (words ??= {
      name: sorted.map((t) => splitWords(t.tool.name)),
      description: sorted.map((t) => splitWords(t.tool.description ?? '')),
      params: sorted.map((t) => splitWords(paramText(t))),
    });
  let fields: DiscoverIndex['fields'] | undefined;
  const analyse = (): DiscoverIndex['fields'] => {
    if (fields) return fields;
    const servers = new Map<string, string[]>();
    const w = split();
    return (fields = sorted.map((t, i) => analyzeFields(t, w.name[i], w.description[i], servers, w.params[i])));
  };
  const index = {
    tools: sorted,
    weights,
    keywords: opts.keywords ?? {},
    bm25ByParams: new Map(),
  } as unknown as DiscoverIndex;
  Object.defineProperty(index, 'fields', { get: analyse, enumerable: true, configurable: true });
  if (cachedBm25) index.bm25ByParams.set(JSON.stringify(weights.bm25), cachedBm25);
  else bm25For(index, weights);
  if (opts.embeddings) {
    const rows = order.map((i) => opts.embeddings![i] ?? null);
    const dims = rows.find((r) => r)?.length ?? 1;
    index.semantic = semanticIndexFromRows(rows, dims, false);
  } else if (opts.vectors) {
    index.vectors = opts.vectors;
    const w = cachedSemantic ? undefined : split();
    index.semantic =
      cachedSemantic ??
      buildSemanticIndex(
        opts.vectors,
        w!.name.map((name, i) => semanticWords(sorted[i]!, name, w!.description[i]!, w!.params[i]!)),
      );
  }
  return index;
}

/** Tool refs of every reachable server, ids `<server>.<tool>`. */
export function toolRefsFromSnapshots(servers: ServerSnapshot[]): ToolRef[] {
  return servers
    .filter((s) => s.status === 'ok')
    .flatMap((s) =>
      s.tools.map((tool) => ({
        id: `${s.name}.${tool.name}`,
        server: s.name,
        tool,
        ...(s.instructions ? { serverInstructions: s.instructions } : {}),
      })),
    );
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
  const effects =
    opts.patterns?.rules.length || opts.patterns?.allowList
      ? applyPatterns(
          index.tools.map((t) => t.id),
          opts.patterns.rules,
          opts.patterns.allowList,
        )
      : null;
  const allowed = (i: number): boolean => !effects || effects[i]!.allowed;
  const boost = (i: number): number => effects?.[i]!.boost ?? 0;
  const scores = new Float32Array(n);
  let explain: (i: number) => Record<string, number> = () => ({});
  let matched: (i: number) => string[] | undefined = () => undefined;
  let any = false;
  let k = opts.k;
  /** The hybrid's server shares: they order tools, but do not by themselves make a tool match. */
  let shares: Float32Array | null = null;

  if (opts.engine === 'keyword') {
    index.keywordDocs ??= index.tools.map((t) => keywordDoc(t, index.keywords));
    const words = intentWords(intent);
    const parts = index.keywordDocs.map((d) => keywordScore(d, words));
    parts.forEach((p, i) => {
      scores[i] = p.strong + p.weak;
      if (scores[i] > 0 && allowed(i)) any = true;
    });
    explain = (i) => ({ strong: parts[i]!.strong, weak: parts[i]!.weak });
    matched = (i) => parts[i]!.matched;
  } else {
    const terms = queryTerms(intent);
    const bmIndex = bm25For(index, weights);
    const { bm, sem, bmHit, q } = signals(index, bmIndex, terms, intent, opts.engine, opts.queryVector);
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
      // Multi-step intents (long task texts): each clause is also ranked on its own. A tool's cosine is mixed
      // with its best per-clause cosine, and it gains its best per-clause hybrid score (relative to that
      // clause's best tool), so the tool of every step can reach the top (bench/discover.mjs, multi-intent set).
      const cw = { semantic: weights.fusion.clauseSemantic, hybrid: weights.fusion.clauses };
      const clauses =
        any && (cw.semantic > 0 || cw.hybrid > 0) && !opts.queryVector && index.vectors
          ? intentClauses(intent).slice(0, MAX_CLAUSES)
          : [];
      let clause: Float32Array | null = null;
      if (clauses.length >= 2) {
        const m = multiStep(index, bmIndex, clauses, bm, sem, weights);
        if (q && cw.semantic > 0) {
          for (let j = 0; j < m.docs.length; j++) {
            const i = m.docs[j]!;
            if (m.semBest[i]! > -Infinity) sem[i] = (1 - cw.semantic) * sem[i]! + cw.semantic * m.semBest[i]!;
          }
        }
        if (cw.hybrid > 0) clause = m.hybridBest;
      }
      const parts = fuse(opts.fusion ?? 'sum', bmHit ? bm : null, q ? sem : null, prior, weights, allowed, scores);
      if (clause) for (let i = 0; i < n; i++) scores[i] = scores[i]! + clause[i]!;
      const server =
        any && weights.fusion.server > 0
          ? serverShares(index, weights, bmIndex, terms, q ? sem : null, effects ? allowed : undefined)
          : null;
      // RRF scores are about 1/(RRF_K + 1) per signal: the shares are scaled into that range, as the usage prior is.
      if (server && opts.fusion === 'rrf') for (let i = 0; i < n; i++) server[i] = server[i]! / (RRF_K + 1);
      if (server) for (let i = 0; i < n; i++) scores[i] = scores[i]! + server[i]!;
      shares = server;
      explain = (i) => ({
        bm25: parts.bm25(i),
        semantic: parts.semantic(i),
        usage: parts.usage(i),
        ...(clause ? { clauses: clause[i]! } : {}),
        ...(server ? { server: server[i]! } : {}),
      });
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
  if (effects) for (let i = 0; i < n; i++) final[i] = scores[i]! + boost(i);
  else final.set(scores);
  const own = (i: number): number => (shares ? final[i]! - shares[i]! : final[i]!);
  const keep = (i: number): boolean => allowed(i) && (any ? own(i) > 0 || opts.engine === 'semantic' : true);
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

interface Signals {
  bm: Float32Array;
  sem: Float32Array;
  bmHit: boolean;
  /** The finished query vector, or null when the intent has no known word. */
  q: Float32Array | null;
}

/** BM25 and cosine scores of every tool for one text (the engine decides which are computed). */
function signals(
  index: DiscoverIndex,
  bmIndex: Bm25Index,
  terms: string[],
  text: string,
  engine: EngineName,
  given?: Float32Array,
): Signals {
  const n = index.tools.length;
  const bm = new Float32Array(n);
  const sem = new Float32Array(n);
  const bmHit = engine !== 'semantic' && scoreBm25(bmIndex, terms, bm) > 0;
  let q: Float32Array | null = null;
  if (engine !== 'bm25' && index.semantic) {
    const raw = given ?? (index.vectors ? sentenceVector(index.vectors, text) : null);
    if (raw) {
      q = queryVector(index.semantic, raw);
      if (index.semantic.sketch) {
        // Large index: approximate cosines from the sketch for every tool, exact ones for the candidates, which
        // are the only tools that can rank near the top: the best by the sketch, the best by each tool's upper
        // bound on its cosine (semantic.ts, scoreSketch), and in the hybrid the best by bm25.
        const bound = new Float32Array(n);
        scoreSketch(index.semantic, q, sem, bound);
        const count = engine === 'semantic' ? SEMANTIC_CANDIDATES : SKETCH_CANDIDATES;
        const byBound = topN(bound, count);
        scoreSemanticDocs(index.semantic, q, topN(sem, count), sem);
        scoreSemanticDocs(index.semantic, q, byBound, sem);
        if (bmHit && engine === 'hybrid') scoreSemanticDocs(index.semantic, q, topN(bm, SKETCH_CANDIDATES), sem);
      } else {
        scoreSemantic(index.semantic, q, sem);
      }
    }
  }
  return { bm, sem, bmHit, q };
}

let scratchArrays: Float32Array[] = [];
/** Four arrays of length n, reused by every multiStep call (rankTools is synchronous; callers fill them). */
function scratch(n: number): [Float32Array, Float32Array, Float32Array, Float32Array] {
  if (scratchArrays[0]?.length !== n) scratchArrays = [0, 1, 2, 3].map(() => new Float32Array(n));
  return scratchArrays as [Float32Array, Float32Array, Float32Array, Float32Array];
}

const identities = new Map<number, Int32Array>();
/** 0, 1, …, n − 1 (shared, read-only). */
function identity(n: number): Int32Array {
  let ids = identities.get(n);
  if (!ids) {
    ids = new Int32Array(n);
    for (let i = 0; i < n; i++) ids[i] = i;
    if (identities.size > 16) identities.clear();
    identities.set(n, ids);
  }
  return ids;
}

/** At most this many clauses of an intent are ranked on their own (the rest still count in the whole intent). */
const MAX_CLAUSES = 12;

/**
 * Per-clause signals over the docs that can rank near the top: every tool of a small index; with a sketch
 * (large index), the best tools of the whole intent by cosine and by bm25. `semBest` holds each doc's best
 * clause cosine (-Infinity when no clause has a known word), `hybridBest` its best clause hybrid score
 * (bm25 over its clause maximum plus min–max scaled cosine, then divided by the clause's best) × fusion.clauses.
 */
function multiStep(
  index: DiscoverIndex,
  bmIndex: Bm25Index,
  clauses: string[],
  bm: Float32Array,
  sem: Float32Array,
  weights: HybridWeights,
): { docs: Int32Array; semBest: Float32Array; hybridBest: Float32Array } {
  const n = index.tools.length;
  const semIndex = index.semantic!;
  let docs: Int32Array;
  if (semIndex.sketch) {
    const set = new Set<number>([...topN(sem, SKETCH_CANDIDATES), ...topN(bm, SKETCH_CANDIDATES)]);
    docs = Int32Array.from([...set].sort((a, b) => a - b));
  } else {
    docs = identity(n);
  }
  // Scratch arrays are reused across calls (allocating typed arrays per query costs more than filling them).
  const [semBest, hybridBest, cbm, csem] = scratch(n);
  semBest.fill(-Infinity);
  hybridBest.fill(0);
  const h = new Float32Array(docs.length);
  const w = weights.fusion;
  for (const text of clauses) {
    cbm.fill(0);
    const bmHit = scoreBm25(bmIndex, queryTerms(text), cbm) > 0;
    const raw = sentenceVector(index.vectors!, text);
    if (raw) {
      const q = queryVector(semIndex, raw);
      if (semIndex.sketch) scoreSemanticDocs(semIndex, q, docs, csem);
      else scoreSemantic(semIndex, q, csem);
    }
    if (!bmHit && !raw) continue;
    let bmMax = 0;
    let semMax = -Infinity;
    let semMin = Infinity;
    for (let j = 0; j < docs.length; j++) {
      const i = docs[j]!;
      if (cbm[i]! > bmMax) bmMax = cbm[i]!;
      if (raw) {
        if (csem[i]! > semMax) semMax = csem[i]!;
        if (csem[i]! < semMin) semMin = csem[i]!;
        if (csem[i]! > semBest[i]!) semBest[i] = csem[i]!;
      }
    }
    const bmScale = bmMax > 0 ? w.bm25 / bmMax : 0;
    const semScale = raw && semMax > semMin ? w.semantic / (semMax - semMin) : 0;
    let best = 0;
    for (let j = 0; j < docs.length; j++) {
      const i = docs[j]!;
      h[j] = cbm[i]! * bmScale + (raw ? (csem[i]! - semMin) * semScale : 0);
      if (h[j]! > best) best = h[j]!;
    }
    if (best <= 0) continue;
    const scale = weights.fusion.clauses / best;
    for (let j = 0; j < docs.length; j++) {
      const i = docs[j]!;
      const v = h[j]! * scale;
      if (v > hybridBest[i]!) hybridBest[i] = v;
    }
  }
  return { docs, semBest, hybridBest };
}

/** Tool → server number and the number of servers of an index (memoised on it). */
export function serverGroups(index: DiscoverIndex): { of: Int32Array; count: number } {
  return (index.servers ??= groupServers(index.tools.map((t) => t.server)));
}

/** Each tool's share of its server's score: fusion.server × (its server's score ÷ the best server's); null with one server. */
function serverShares(
  index: DiscoverIndex,
  weights: HybridWeights,
  bmIndex: Bm25Index,
  terms: string[],
  sem: Float32Array | null,
  allowed?: (i: number) => boolean,
): Float32Array | null {
  const g = serverGroups(index);
  if (g.count < 2) return null;
  // Excluded tools (patterns) do not vote for their server.
  const scores = deriveServerScores(bmIndex, terms, sem, g.of, g.count, weights.fusion, allowed);
  const out = new Float32Array(index.tools.length);
  return addServerShares(scores, g.of, weights.fusion.server, out) ? out : null;
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
  const semOffset = sem ? semMin : 0;
  const semS = sem ?? out;
  const bmS = bm ?? out;
  const wu = w.usage;
  for (let i = 0; i < n; i++) out[i] = bmS[i]! * bmScale + (semS[i]! - semOffset) * semScale + wu * prior[i]!;
  return { bm25: fb, semantic: fs, usage };
}

/** Tools scored exactly per signal when the semantic index has a sketch (hybrid adds the best by bm25). */
const SKETCH_CANDIDATES = 2048;
/**
 * The semantic engine alone has no bm25 candidates, so it scores more tools exactly: with 32 sketch dimensions
 * and the bound, its top 5 at 100,000 tools match exact scoring on 291 of 294 queries (bench/RESULTS.md).
 */
const SEMANTIC_CANDIDATES = 4096;

/** Indexes of (about) the n highest scores, in index order: every doc scoring at least the n-th best (quickselect). */
export function topN(scores: Float32Array, n: number): Int32Array {
  if (n >= scores.length) return Int32Array.from(scores.keys());
  const copy = Float32Array.from(scores);
  // Quickselect for the n-th largest value.
  let lo = 0;
  let hi = copy.length - 1;
  const want = n - 1;
  while (lo < hi) {
    const pivot = copy[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (copy[i]! > pivot) i++;
      while (copy[j]! < pivot) j--;
      if (i <= j) {
        const t = copy[i]!;
        copy[i] = copy[j]!;
        copy[j] = t;
        i++;
        j--;
      }
    }
    if (want <= j) hi = j;
    else if (want >= i) lo = i;
    else break;
  }
  const threshold = copy[want]!;
  const out: number[] = [];
  for (let i = 0; i < scores.length && out.length < 4 * n; i++) if (scores[i]! >= threshold) out.push(i);
  return Int32Array.from(out);
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
