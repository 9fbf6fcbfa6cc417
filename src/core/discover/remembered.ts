/**
 * Remembered intents (issue 16): the intents each tool was really called for, kept by `replay --learn`. A new
 * intent is matched against them lexically (IDF-weighted cosine of their terms, IDF over the remembered intents)
 * and semantically (cosine of their word-vector sentences, as tools are compared); each tool's signal is its best
 * match, so what a team says for a tool ("jot down that …") finds that tool even when its description has none of
 * those words.
 */
import type { RememberedIntent, UsageStats } from '../types.js';
import type { DiscoverIndex } from './build.js';
import { queryTerms } from './bm25.js';
import { queryVector } from './semantic.js';
import { sentenceVector } from './sif.js';
import { dot as dotRow } from './vector-math.js';

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

/** The remembered intents of one usage, prepared for matching (cached while the usage's lists are unchanged). */
interface Memory {
  /** Tool id → its list, to tell whether the usage changed (lists are copy-on-write, session/usage.ts). */
  lists: Map<string, RememberedIntent[]>;
  records: RememberedIntent[];
  /** Per row (remembered intent): its tool's doc number. */
  docs: Int32Array;
  /** Term → rows that hold it. */
  postings: Map<string, number[]>;
  df: Map<string, number>;
  /** Distinct remembered texts (the IDF's document count). */
  total: number;
  /** Per row: the IDF norm of its terms. */
  norms: Float32Array;
  /** Rows × dims unit vectors (zero rows for texts without a known word), or null without word vectors. */
  vecs: Float32Array | null;
  /** Per row: 1 when its text has a vector (else only the lexical similarity counts). */
  hasVec: Uint8Array;
  dims: number;
}

const memories = new WeakMap<DiscoverIndex, WeakMap<object, Memory>>();

function unchanged(m: Memory, all: Record<string, RememberedIntent[]>): boolean {
  let n = 0;
  for (const [id, list] of Object.entries(all)) {
    if (m.lists.get(id) !== list) return false;
    n++;
  }
  return n === m.lists.size;
}

function memoryOf(index: DiscoverIndex, all: Record<string, RememberedIntent[]>): Memory | null {
  let byUsage = memories.get(index);
  if (!byUsage) memories.set(index, (byUsage = new WeakMap()));
  const cached = byUsage.get(all);
  if (cached && unchanged(cached, all)) return cached;
  const docOf = (index.docOf ??= new Map(index.tools.map((t, i) => [t.id, i])));
  const lists = new Map<string, RememberedIntent[]>();
  const records: RememberedIntent[] = [];
  const docs: number[] = [];
  const prepared: Prepared[] = [];
  for (const [id, list] of Object.entries(all)) {
    lists.set(id, list);
    const doc = docOf.get(id);
    if (doc === undefined) continue;
    for (const r of list) {
      records.push(r);
      docs.push(doc);
      prepared.push(prepare(index, r.text));
    }
  }
  if (records.length === 0) {
    byUsage.set(all, {
      lists,
      records,
      docs: new Int32Array(0),
      postings: new Map(),
      df: new Map(),
      total: 0,
      norms: new Float32Array(0),
      vecs: null,
      hasVec: new Uint8Array(0),
      dims: 0,
    });
    return null;
  }
  // Document frequencies over the distinct remembered texts.
  const df = new Map<string, number>();
  const seen = new Set<string>();
  const postings = new Map<string, number[]>();
  prepared.forEach((p, row) => {
    const text = records[row]!.text;
    const first = !seen.has(text);
    seen.add(text);
    for (const t of p.terms) {
      if (first) df.set(t, (df.get(t) ?? 0) + 1);
      let rows = postings.get(t);
      if (!rows) postings.set(t, (rows = []));
      rows.push(row);
    }
  });
  const total = seen.size;
  const m: Memory = {
    lists,
    records,
    docs: Int32Array.from(docs),
    postings,
    df,
    total,
    norms: new Float32Array(records.length),
    vecs: null,
    hasVec: new Uint8Array(records.length),
    dims: 0,
  };
  prepared.forEach((p, row) => {
    let norm = 0;
    for (const t of p.terms) norm += idfOf(m, t) ** 2;
    m.norms[row] = Math.sqrt(norm);
  });
  const dims = prepared.find((p) => p.vec)?.vec?.length ?? 0;
  if (dims > 0) {
    const vecs = new Float32Array(records.length * dims);
    prepared.forEach((p, row) => {
      if (p.vec) {
        vecs.set(p.vec, row * dims);
        m.hasVec[row] = 1;
      }
    });
    m.vecs = vecs;
    m.dims = dims;
  }
  byUsage.set(all, m);
  return m;
}

const idfOf = (m: Memory, t: string): number => Math.log(1 + (m.total + 1) / ((m.df.get(t) ?? 0) + 0.5));

/** Matches `intent` against every tool's remembered intents; null when the usage holds none for these tools. */
export function rememberedMatch(
  index: DiscoverIndex,
  usage: UsageStats | undefined,
  intent: string,
  /** Where the scores go (zeroed first); a new array when absent, made only when there are remembered intents. */
  into?: Float32Array,
): RememberedMatch | null {
  const all = usage?.intents;
  if (!all) return null;
  const m = memoryOf(index, all);
  if (!m) return null;
  const out = into ? into.fill(0) : new Float32Array(index.tools.length);
  const q = prepare(index, intent);
  const rows = m.records.length;
  // Lexical: IDF-weighted cosine of the term sets, through the postings (only rows sharing a term).
  const dot = new Float32Array(rows);
  let qNorm = 0;
  for (const t of q.terms) {
    const w = idfOf(m, t);
    qNorm += w * w;
    const hits = m.postings.get(t);
    if (hits) for (const row of hits) dot[row] = dot[row]! + w * w;
  }
  qNorm = Math.sqrt(qNorm);
  const qv = q.vec && m.vecs ? q.vec : null;
  const dims = m.dims;
  const bestRow = new Map<number, number>();
  let any = false;
  for (let row = 0; row < rows; row++) {
    const lexical = dot[row]! > 0 && qNorm > 0 ? dot[row]! / (qNorm * m.norms[row]!) : 0;
    let sim = lexical;
    if (qv && m.hasVec[row] === 1) {
      const c = dotRow(m.vecs!, row * dims, qv, dims);
      const semantic = c > SEMANTIC_FLOOR ? (c - SEMANTIC_FLOOR) / (1 - SEMANTIC_FLOOR) : 0;
      sim = LEXICAL_SHARE * lexical + (1 - LEXICAL_SHARE) * semantic;
    }
    const doc = m.docs[row]!;
    if (sim > out[doc]!) {
      out[doc] = sim;
      bestRow.set(doc, row);
      any = true;
    }
  }
  return { scores: out, best: (doc) => (bestRow.has(doc) ? m.records[bestRow.get(doc)!] : undefined), any };
}
