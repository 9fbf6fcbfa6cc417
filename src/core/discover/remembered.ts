/**
 * Remembered intents (issue 16): the intents each tool was really called for, kept by `replay --learn`. A new
 * intent is matched against them lexically (IDF-weighted cosine of their terms, IDF over the remembered intents)
 * and semantically (cosine of their word-vector sentences, as tools are compared); each tool's signal is its best
 * match, so what a team says for a tool ("jot down that …") finds that tool even when its description has none of
 * those words.
 */
import type { RememberedIntent, UsageStats } from '../../types.js';
import type { DiscoverIndex } from './build.js';
import { queryTerms } from './bm25.js';
import { queryVector, sentenceVector } from './semantic.js';

/** A remembered intent's query-independent form, cached per index by text. */
interface Prepared {
  terms: string[];
  /** Unit vector as the semantic index compares (principal direction removed), or null. */
  vec: Float32Array | null;
}

/** Cosine below which a remembered intent is not similar at all (word-vector sentences share a baseline). */
export const SEMANTIC_FLOOR = 0.35;
/** How the two similarities mix: lexical share (the rest is semantic). */
const LEXICAL_SHARE = 0.5;
const CACHE_LIMIT = 20_000;

const caches = new WeakMap<DiscoverIndex, Map<string, Prepared>>();

function prepare(index: DiscoverIndex, text: string): Prepared {
  let cache = caches.get(index);
  if (!cache) caches.set(index, (cache = new Map<string, Prepared>()));
  let p = cache.get(text);
  if (!p) {
    const raw = index.vectors && index.semantic ? sentenceVector(index.vectors, text) : null;
    p = { terms: queryTerms(text), vec: raw && index.semantic ? queryVector(index.semantic, raw) : null };
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(text, p);
  }
  return p;
}

export interface RememberedMatch {
  /** Per tool (doc number): the best similarity in [0, 1] of the intent to one of its remembered intents. */
  scores: Float32Array;
  /** The remembered intent that gave a tool its score. */
  best: (doc: number) => RememberedIntent | undefined;
  /** Some tool has a score above 0. */
  any: boolean;
}

/** Matches `intent` against every tool's remembered intents; null when the usage holds none for these tools. */
export function rememberedMatch(
  index: DiscoverIndex,
  usage: UsageStats | undefined,
  intent: string,
  out: Float32Array = new Float32Array(index.tools.length),
): RememberedMatch | null {
  const all = usage?.intents;
  if (!all) return null;
  const docs: { doc: number; list: RememberedIntent[] }[] = [];
  const docOf = (index.docOf ??= new Map(index.tools.map((t, i) => [t.id, i])));
  for (const [id, list] of Object.entries(all)) {
    const doc = docOf.get(id);
    if (doc !== undefined && list.length > 0) docs.push({ doc, list });
  }
  if (docs.length === 0) return null;
  out.fill(0);
  const q = prepare(index, intent);
  // Document frequencies over the remembered intents (each distinct text once).
  const df = new Map<string, number>();
  const seen = new Set<string>();
  let total = 0;
  for (const { list } of docs)
    for (const r of list) {
      if (seen.has(r.text)) continue;
      seen.add(r.text);
      total++;
      for (const t of prepare(index, r.text).terms) df.set(t, (df.get(t) ?? 0) + 1);
    }
  const idf = (t: string): number => Math.log(1 + (total + 1) / ((df.get(t) ?? 0) + 0.5));
  const qWeight = new Map(q.terms.map((t) => [t, idf(t)]));
  let qNorm = 0;
  for (const w of qWeight.values()) qNorm += w * w;
  qNorm = Math.sqrt(qNorm);
  const bestOf = new Map<number, RememberedIntent>();
  let any = false;
  for (const { doc, list } of docs) {
    let best = 0;
    let bestIntent: RememberedIntent | undefined;
    for (const r of list) {
      const p = prepare(index, r.text);
      let dot = 0;
      let norm = 0;
      for (const t of p.terms) {
        const w = idf(t);
        norm += w * w;
        const qw = qWeight.get(t);
        if (qw !== undefined) dot += qw * w;
      }
      const lexical = dot > 0 && qNorm > 0 ? dot / (qNorm * Math.sqrt(norm)) : 0;
      let semantic = 0;
      if (q.vec && p.vec) {
        let c = 0;
        for (let d = 0; d < q.vec.length; d++) c += q.vec[d]! * p.vec[d]!;
        semantic = c > SEMANTIC_FLOOR ? (c - SEMANTIC_FLOOR) / (1 - SEMANTIC_FLOOR) : 0;
      }
      const sim = q.vec && p.vec ? LEXICAL_SHARE * lexical + (1 - LEXICAL_SHARE) * semantic : lexical;
      if (sim > best) {
        best = sim;
        bestIntent = r;
      }
    }
    if (best > 0 && bestIntent) {
      out[doc] = best;
      bestOf.set(doc, bestIntent);
      any = true;
    }
  }
  return { scores: out, best: (doc) => bestOf.get(doc), any };
}
