/**
 * The second stage of the hybrid engine: a linear re-ranker over the first stage's best candidates. Its features
 * are computed from the index and the first stage's signals; its weights are data (rerank-model.ts), written by
 * scripts/train-reranker.mjs with cross-validation on the development sets. It only reorders the candidates.
 */
import { isDestructive } from './actions.js';
import type { DiscoverIndex } from './build.js';
import { actionOf } from './lexicon.js';
import { kept, type ViewStore } from './per-tool.js';
import { softFeatures } from './soft-features.js';

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
  // Which fields of each candidate hold each distinct query term (a long intent's terms are looked up in its
  // words, not scanned for; each term once per candidate), and how many candidates hold each (contrastOf).
  const distinct = [...q];
  const at = new Map(distinct.map((t, x) => [t, x]));
  const termAt = terms.map((t) => at.get(t)!);
  const where = new Uint8Array(candidates.length * distinct.length);
  const df = new Float64Array(distinct.length);
  candidates.forEach((i, r) => {
    const fieldsOfTerm = termFields(index, i, fields[r]!);
    for (let x = 0; x < distinct.length; x++) {
      const m = fieldsOfTerm.get(distinct[x]!) ?? 0;
      where[r * distinct.length + x] = m;
      if ((m & IN_ALL) !== 0) df[x]!++;
    }
  });
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
    const held = where.subarray(r * distinct.length, (r + 1) * distinct.length);
    const name = f.name;
    let inName = 0;
    for (const t of name) if (q.has(t)) inName++;
    // A field's share of the terms (each occurrence counts).
    const cover = (field: number): number => {
      if (terms.length === 0) return 0;
      let hit = 0;
      for (let j = 0; j < terms.length; j++) if ((held[termAt[j]!]! & field) !== 0) hit++;
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
      cover(IN_DESCRIPTION),
      cover(IN_PARAMS),
      cover(IN_SERVER),
      bmRank.get(i)!,
      semRank.get(i)!,
      (bmMax > 0 ? s.bm25(i) / bmMax : 0) * ((s.semantic(i) - semMin) / semRange),
      ...(soft ? soft(i) : [0, 0, 0, 0]),
      contrastOf(held, df, candidates.length),
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
 * `held`: the fields of the tool holding each distinct query term (IN_ALL…); `df`: how many of the n candidates hold each.
 */
function contrastOf(held: Uint8Array, df: Float64Array, n: number): number {
  if (held.length === 0 || n < 2) return 0;
  let v = 0;
  for (let x = 0; x < held.length; x++) if ((held[x]! & IN_ALL) !== 0) v += 1 - (df[x]! - 1) / (n - 1);
  return v / held.length;
}

/** Where a tool holds a word (bits of termFields' values): its name, description or parameters (`all`), … */
const IN_ALL = 1;
const IN_DESCRIPTION = 2;
const IN_PARAMS = 4;
const IN_SERVER = 8;

const toolTerms: ViewStore<ReadonlyMap<string, number>> = new WeakMap();

/** A tool's words, each with the fields holding it (IN_ALL for its name, description and parameters, …). */
function termFields(
  index: DiscoverIndex,
  doc: number,
  f: ReturnType<DiscoverIndex['fieldsOf']>,
): ReadonlyMap<string, number> {
  return kept(toolTerms, index, doc, () => {
    const m = new Map<string, number>();
    const mark = (words: readonly string[], bits: number): void => {
      for (const w of words) m.set(w, (m.get(w) ?? 0) | bits);
    };
    mark(f.name, IN_ALL);
    mark(f.description, IN_ALL | IN_DESCRIPTION);
    mark(f.params, IN_ALL | IN_PARAMS);
    mark(f.server, IN_SERVER);
    return m;
  });
}
