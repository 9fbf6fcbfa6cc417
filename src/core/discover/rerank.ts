/**
 * The second stage of the hybrid engine: a linear re-ranker over the first stage's best candidates. Its features
 * are computed from the index and the first stage's signals; its weights are data (rerank-model.ts), written by
 * scripts/train-reranker.mjs with cross-validation on the development sets. It only reorders the candidates.
 */
import { isDestructive } from './actions.js';
import type { DiscoverIndex } from './build.js';
import { leadPassage } from './lead-passage.js';
import { actionOf } from './lexicon.js';
import { kept } from './per-tool.js';
import { addWords, weightedRow, wordRow } from './sif.js';
import { dot } from './vector-math.js';
import { intentText, splitWords } from './tokenize.js';
import type { WordVectors } from './vectors.js';

export { actionOf } from './lexicon.js';

/** How many of the first stage's best tools the re-ranker reorders. */
export const RERANK_DEPTH = 10;

/** Feature names, in the order of a model's weights. */
export const RERANK_FEATURES = [
  'hybrid',
  'bm25',
  'semantic',
  'server',
  'nameCover',
  'queryCover',
  'nameVerb',
  'nameObject',
  'verbConflict',
  'destructiveConflict',
  'firstRank',
  'descriptionCover',
  'paramsCover',
  'serverCover',
  'bm25Rank',
  'semanticRank',
  'agreement',
  'nameSemantic',
  'leadSemantic',
  'nameSoft',
  'querySoft',
  'contrast',
] as const;

export interface RerankModel {
  /** Which features, by name, with one weight each (RERANK_FEATURES order is not required). */
  features: string[];
  weights: number[];
  /** Candidates scored (RERANK_DEPTH when absent). */
  depth?: number;
  /**
   * `first`: the best-scored candidate goes first and the others keep the first stage's order (what won on the
   * development sets: it changes rank 1 only, never which tools make the top 5 from below); `order` (the default):
   * every candidate in the model's order.
   */
  mode?: 'first' | 'order';
}

/** Candidate positions (indexes into the first stage's best-first list) in the order the model gives. */
export function rerankOrder(model: RerankModel, scores: readonly number[]): number[] {
  const by = scores.map((s, j) => ({ s, j }));
  by.sort((a, b) => b.s - a.s || a.j - b.j);
  if (model.mode !== 'first') return by.map((x) => x.j);
  const best = by.length > 0 ? by[0]!.j : 0;
  return [best, ...scores.keys()].filter((j, k) => k === 0 || j !== best);
}

export interface CandidateSignals {
  /** First-stage hybrid score per doc. */
  score: (i: number) => number;
  bm25: (i: number) => number;
  semantic: (i: number) => number;
  server: (i: number) => number;
  /** Query terms found in the doc (any field). */
  matched: (i: number) => number;
}

/** Feature vectors (RERANK_FEATURES order) of the candidates, best first. */
export function rerankFeatures(
  index: DiscoverIndex,
  terms: readonly string[],
  candidates: readonly number[],
  s: CandidateSignals,
  /** The intent's text without its payload (lexicon.ts withoutPayload; intent.ts Intent.plain). */
  request = '',
): number[][] {
  const q = new Set(terms);
  const soft = index.vectors ? softFeatures(index, index.vectors, request) : null;
  const fields = candidates.map((i) => index.fieldsOf(i));
  // Each candidate's words as sets (a long intent's terms are looked up in them, not scanned for).
  const sets = candidates.map((i, r) => setsOf(index, i, fields[r]!));
  // How many candidates hold each query term (contrastOf).
  const df = new Map<string, number>();
  for (const w of sets) for (const t of q) if (w.all.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  const qActions = new Set<string>();
  for (const t of terms) {
    const a = actionOf(t);
    if (a) qActions.add(a);
  }
  let top = 0;
  let bmMax = 0;
  let semMin = Infinity;
  let semMax = -Infinity;
  for (const i of candidates) {
    top = Math.max(top, s.score(i));
    bmMax = Math.max(bmMax, s.bm25(i));
    semMin = Math.min(semMin, s.semantic(i));
    semMax = Math.max(semMax, s.semantic(i));
  }
  const semRange = semMax > semMin ? semMax - semMin : 1;
  // Reciprocal rank of each candidate among the candidates by bm25 and by cosine alone.
  const rankBy = (f: (i: number) => number): Map<number, number> => {
    const order = [...candidates].sort((a, b) => f(b) - f(a) || a - b);
    return new Map(order.map((i, r) => [i, 1 / (r + 1)]));
  };
  const bmRank = rankBy(s.bm25);
  const semRank = rankBy(s.semantic);
  return candidates.map((i, r) => {
    const f = fields[r]!;
    const w = sets[r]!;
    const name = f.name;
    let inName = 0;
    for (const t of name) if (q.has(t)) inName++;
    const cover = (list: ReadonlySet<string>): number => {
      if (terms.length === 0) return 0;
      let hit = 0;
      for (const t of terms) if (list.has(t)) hit++;
      return hit / terms.length;
    };
    const first = name[0];
    const action = actionOf(first);
    const conflict = action !== undefined && qActions.size > 0 && !qActions.has(action) ? 1 : 0;
    return [
      top > 0 ? s.score(i) / top : 0,
      bmMax > 0 ? s.bm25(i) / bmMax : 0,
      (s.semantic(i) - semMin) / semRange,
      s.server(i),
      name.length > 0 ? inName / name.length : 0,
      terms.length > 0 ? s.matched(i) / terms.length : 0,
      first !== undefined && q.has(first) ? 1 : 0,
      name.slice(1).some((t) => q.has(t)) ? 1 : 0,
      conflict,
      conflict && isDestructive(index, i, action) ? 1 : 0,
      r === 0 ? 1 : 0,
      cover(w.description),
      cover(w.params),
      cover(w.server),
      bmRank.get(i)!,
      semRank.get(i)!,
      (bmMax > 0 ? s.bm25(i) / bmMax : 0) * ((s.semantic(i) - semMin) / semRange),
      ...(soft ? soft(i) : [0, 0, 0, 0]),
      contrastOf(w.all, q, df, candidates.length),
    ];
  });
}

/** The model's score of one feature vector (RERANK_FEATURES order). */
export function rerankScore(model: RerankModel, x: readonly number[]): number {
  let at = positions.get(model);
  if (!at) {
    at = model.features.map((f) => (RERANK_FEATURES as readonly string[]).indexOf(f));
    positions.set(model, at);
  }
  let s = 0;
  for (let j = 0; j < at.length; j++) if (at[j]! >= 0) s += model.weights[j]! * x[at[j]!]!;
  return s;
}

/** Each model's feature positions in RERANK_FEATURES (−1 for a name this version does not compute). */
const positions = new WeakMap<RerankModel, number[]>();

/**
 * How much of the intent a tool holds that the other candidates do not: each query term it matches counts by the
 * share of the other candidates lacking it (a term every candidate holds tells none of them apart), over the terms.
 */
function contrastOf(
  words: ReadonlySet<string>,
  q: ReadonlySet<string>,
  df: ReadonlyMap<string, number>,
  n: number,
): number {
  if (q.size === 0 || n < 2) return 0;
  let v = 0;
  for (const t of q) if (words.has(t)) v += 1 - ((df.get(t) ?? 1) - 1) / (n - 1);
  return v / q.size;
}

/** Words of a tool's description lead its vector is built from (the first sentence, about). */
const LEAD_VECTOR_WORDS = 16;
/** Words of that lead whose single words an intent word can match (soft coverage: each costs a cosine per intent word). */
const LEAD_SOFT_WORDS = 8;
/** Intent words the soft coverage reads at most (the longest development intent has fewer). */
const SOFT_INTENT_WORDS = 128;

/** A tool's word-vector view: its name's and lead's SIF vectors (unit length), and the table rows of their words. */
interface ToolWords {
  name: Float32Array;
  lead: Float32Array;
  /** Rows of the name's words, then of the lead's (each known word once per part). */
  rows: Int32Array;
  nameRows: number;
}

/** A tool's words as sets: all of its name, description and parameter words, and three of those fields. */
interface ToolSets {
  all: ReadonlySet<string>;
  description: ReadonlySet<string>;
  params: ReadonlySet<string>;
  server: ReadonlySet<string>;
}

const toolWords = new WeakMap<DiscoverIndex, Map<number, ToolWords>>();
const toolSets = new WeakMap<DiscoverIndex, Map<number, ToolSets>>();

function setsOf(index: DiscoverIndex, doc: number, f: ReturnType<DiscoverIndex['fieldsOf']>): ToolSets {
  return kept(toolSets, index, doc, () => ({
    all: new Set([...f.name, ...f.description, ...f.params]),
    description: new Set(f.description),
    params: new Set(f.params),
    server: new Set(f.server),
  }));
}

/**
 * Per word table: each row's length (its SIF-weighted vector's, 0 until first needed) and a query's word-pair
 * cosines, kept by row (`stamp` says which query filled a row's `slot` in `sims`).
 */
interface Scratch {
  norms: Float32Array;
  stamp: Int32Array;
  slot: Int32Array;
  sims: Float32Array;
  query: number;
}
const scratches = new WeakMap<WordVectors, Scratch>();

/** The distinct table rows of the known words, in order, at most `max`. */
function rowsOf(vectors: WordVectors, words: readonly string[], max = Infinity): number[] {
  const seen = new Set<number>();
  for (const w of words) {
    if (seen.size >= max) break;
    const r = wordRow(vectors, w);
    if (r >= 0) seen.add(r);
  }
  return [...seen];
}

function unitVector(vectors: WordVectors, words: readonly string[]): Float32Array {
  const v = new Float32Array(vectors.dims);
  addWords(vectors, words, v, 0);
  const n = Math.hypot(...v);
  if (n > 0) for (let d = 0; d < v.length; d++) v[d] = v[d]! / n;
  return v;
}

function wordsOf(index: DiscoverIndex, vectors: WordVectors, doc: number): ToolWords {
  return kept(toolWords, index, doc, () => {
    const tool = index.tools[doc]!.tool;
    const nameWords = splitWords(tool.name);
    const leadWords = splitWords(leadPassage(tool.description ?? '', LEAD_VECTOR_WORDS)).slice(0, LEAD_VECTOR_WORDS);
    const nameRows = rowsOf(vectors, nameWords);
    return {
      name: unitVector(vectors, nameWords),
      lead: unitVector(vectors, leadWords),
      rows: Int32Array.from([...nameRows, ...rowsOf(vectors, leadWords.slice(0, LEAD_SOFT_WORDS))]),
      nameRows: nameRows.length,
    };
  });
}

function scratchOf(vectors: WordVectors): Scratch {
  let s = scratches.get(vectors);
  if (!s) {
    const n = vectors.size;
    s = {
      norms: new Float32Array(n),
      stamp: new Int32Array(n),
      slot: new Int32Array(n),
      sims: new Float32Array(0),
      query: 0,
    };
    scratches.set(vectors, s);
  }
  return s;
}

function normOf(vectors: WordVectors, s: Scratch, row: number): number {
  if (s.norms[row] === 0) {
    const base = row * vectors.dims;
    const table = weightedRow(vectors, row);
    s.norms[row] = Math.sqrt(dot(table, base, table.subarray(base), vectors.dims)) || 1;
  }
  return s.norms[row]!;
}

/**
 * Word-vector features of the candidates against an intent (its payload left out): the cosine of the intent with
 * the tool's name words and with its description's lead, and soft coverage both ways: how well each name word is
 * matched by some intent word, and each intent word by some word of the name or lead (a paraphrase the averaged
 * vectors blur: "tweets" for a Twitter search, "forecast" for a weather tool).
 */
function softFeatures(index: DiscoverIndex, vectors: WordVectors, request: string): (doc: number) => number[] {
  const words = splitWords(intentText(request));
  const q = unitVector(vectors, words);
  const dims = vectors.dims;
  const s = scratchOf(vectors);
  // Stamps start at 1 for each table; after 2^31 queries they start again on cleared stamps.
  if (++s.query === 0x7fffffff) {
    s.stamp.fill(0);
    s.query = 1;
  }
  // The first SOFT_INTENT_WORDS distinct known words: a pasted page costs no more than a long request.
  const asked = rowsOf(vectors, words, SOFT_INTENT_WORDS);
  const k = asked.length;
  // The intent's words as unit rows, one after another.
  const matrix = new Float32Array(k * dims);
  asked.forEach((r, j) => {
    const v = weightedRow(vectors, r).subarray(r * dims, (r + 1) * dims);
    const n = normOf(vectors, s, r);
    for (let d = 0; d < dims; d++) matrix[j * dims + d] = v[d]! / n;
  });
  const askedRows = asked.map((_, j) => matrix.subarray(j * dims, (j + 1) * dims));
  let used = 0;
  // A tool word's cosines with each intent word, computed once per query (candidates share many words).
  const simsAt = (row: number): number => {
    if (s.stamp[row] === s.query) return s.slot[row]!;
    if ((used + 1) * k > s.sims.length) {
      const grown = new Float32Array(Math.max(64 * k, 2 * s.sims.length));
      grown.set(s.sims.subarray(0, used * k));
      s.sims = grown;
    }
    const table = weightedRow(vectors, row);
    const n = normOf(vectors, s, row);
    for (let j = 0; j < k; j++) s.sims[used * k + j] = dot(table, row * dims, askedRows[j]!, dims) / n;
    s.stamp[row] = s.query;
    s.slot[row] = used * k;
    return used++ * k;
  };
  const best = new Float32Array(k);
  return (doc) => {
    const t = wordsOf(index, vectors, doc);
    // nameSoft: each name word's best intent word; querySoft: each intent word's best word of the name or lead.
    let nameSoft = 0;
    best.fill(0);
    for (let j = 0; j < t.rows.length; j++) {
      const at = simsAt(t.rows[j]!);
      let m = 0;
      for (let x = 0; x < k; x++) {
        const v = s.sims[at + x]!;
        if (v > m) m = v;
        if (v > best[x]!) best[x] = v;
      }
      if (j < t.nameRows) nameSoft += m;
    }
    let querySoft = 0;
    for (let x = 0; x < k; x++) querySoft += best[x]!;
    return [
      dot(t.name, 0, q, dims),
      dot(t.lead, 0, q, dims),
      t.nameRows > 0 ? nameSoft / t.nameRows : 0,
      k > 0 ? querySoft / k : 0,
    ];
  };
}
