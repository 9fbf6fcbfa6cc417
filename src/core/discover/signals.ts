/** Signals: per-tool scores for one intent (bm25, cosine, usage prior, per-clause, per-server), before fusion. */
import type { EngineName, UsageStats } from '../types.js';
import type { DiscoverIndex } from './build.js';
import { bm25Query, scoreBm25, type Bm25Index, type Bm25Query } from './bm25.js';
import { SEMANTIC_CANDIDATES, SKETCH_CANDIDATES, identity, topN, unionSorted } from './candidates.js';
import { queryVector, scoreDocsMany, scoreSemantic, scoreSemanticDocs } from './semantic.js';
import { intentVector, sentenceVector } from './sif.js';
import { scoreSketch } from './sketch.js';
import { groupServers, serverLexicalScores, serverSemanticScores } from './servers.js';
import { usagePrior, usagePriorTotal, type TaskType, type UsageParts } from './usage.js';
import type { HybridWeights } from './weights.js';
import type { ReadText } from './lexicon.js';

export interface Signals {
  bm: Float32Array;
  sem: Float32Array;
  bmHit: boolean;
  /** The finished query vector, or null when the intent has no known word. */
  q: Float32Array | null;
  /** topN(bm, SKETCH_CANDIDATES), when the sketch's candidates needed it (multiStep reuses it). */
  bmTop?: Int32Array;
}

/** Upper bounds of the sketch's cosines, reused by the next query of the same catalogue size (signals only). */
let boundSpare = new Float32Array(0);

/** BM25 and cosine scores of every tool for one text (the engine decides which are computed). */
export function signals(
  index: DiscoverIndex,
  bmIndex: Bm25Index,
  query: Bm25Query,
  text: string,
  engine: EngineName,
  given?: Float32Array,
  /** What the ranking has read of `text` already (intent.ts). */
  read?: ReadText,
  /** Arrays of n floats to score into (cleared first), or new ones. */
  into?: { bm: Float32Array; sem: Float32Array },
): Signals {
  const n = index.tools.length;
  const bm = into?.bm.length === n ? into.bm.fill(0) : new Float32Array(n);
  const sem = into?.sem.length === n ? into.sem.fill(0) : new Float32Array(n);
  const bmHit = engine !== 'semantic' && scoreBm25(bmIndex, query.terms, bm, query.weights) > 0;
  let q: Float32Array | null = null;
  let bmTop: Int32Array | undefined;
  if (engine !== 'bm25' && index.semantic) {
    const raw = given ?? (index.vectors ? intentVector(index.vectors, text, read) : null);
    if (raw) {
      q = queryVector(index.semantic, raw);
      if (index.semantic.sketch) {
        // Large index: approximate cosines from the sketch for every tool, exact ones for the candidates, which
        // are the only tools that can rank near the top: the best by the sketch, the best by each tool's upper
        // bound on its cosine (sketch.ts, scoreSketch), and in the hybrid the best by bm25.
        const bound = n === boundSpare.length ? boundSpare : (boundSpare = new Float32Array(n));
        scoreSketch(index.semantic, q, sem, bound);
        const count = engine === 'semantic' ? SEMANTIC_CANDIDATES : SKETCH_CANDIDATES;
        const lists = [topN(sem, count), topN(bound, count)];
        if (bmHit && engine === 'hybrid') lists.push((bmTop = topN(bm, SKETCH_CANDIDATES)));
        // Each candidate once, though it may be in several lists (its exact cosine is the same either way).
        scoreSemanticDocs(index.semantic, q, unionSorted(lists), sem);
      } else {
        scoreSemantic(index.semantic, q, sem);
      }
    }
  }
  return { bm, sem, bmHit, q, ...(bmTop ? { bmTop } : {}) };
}

/** The usage prior of every tool (0 for tools the store does not know), as the hybrid engine weighs it. */
export function usagePriors(
  index: DiscoverIndex,
  usage: UsageStats | undefined,
  type: TaskType,
  weights: HybridWeights['usage'],
  now: number | undefined,
  out: Float32Array = new Float32Array(index.tools.length),
): Float32Array {
  if (!usage) return out;
  // Usually far fewer tools are in the store than in the index: those are looked up by id (a lookup of every tool's
  // id in the store's object cost ~1 µs each, V8's slow path for keys the object does not have: 2.9 ms on 2,781
  // tools, more than the rest of the ranking). `out` starts zeroed, as a tool the store does not know scores 0.
  const used = Object.keys(usage.tools);
  const docOf = (index.docOf ??= new Map(index.tools.map((t, i) => [t.id, i])));
  if (used.length < index.tools.length && docOf.size === index.tools.length) {
    out.fill(0);
    for (const id of used) {
      const i = docOf.get(id);
      if (i !== undefined) out[i] = usagePrior(usage.tools[id], type, weights, now).total;
    }
    return out;
  }
  index.tools.forEach((t, i) => (out[i] = usagePrior(usage.tools[t.id], type, weights, now).total));
  return out;
}

/** The usage prior of the given tools only (the rest of `out` is zeroed), from their cached parts (usageParts). */
export function usagePriorsOf(
  used: readonly { doc: number; parts: UsageParts }[],
  weights: HybridWeights['usage'],
  out: Float32Array,
): Float32Array {
  out.fill(0);
  for (const u of used) out[u.doc] = usagePriorTotal(u.parts, weights);
  return out;
}

/** Server-level signals: each server's lexical and semantic score (servers.ts); null with fewer than two servers. */
export function serverSignals(
  index: DiscoverIndex,
  bmIndex: Bm25Index,
  query: Bm25Query,
  sem: Float32Array | null,
  keep?: (i: number) => boolean,
): ServerSignals | null {
  const g = serverGroups(index);
  if (g.count < 2) return null;
  return {
    of: g.of,
    lexical: serverLexicalScores(bmIndex, query.terms, g.of, g.count, keep, query.weights),
    semantic: sem ? serverSemanticScores(sem, g.of, g.count, keep) : null,
  };
}

export interface ServerSignals {
  /** Tool → server number. */
  of: Int32Array;
  lexical: Float32Array;
  semantic: Float32Array | null;
}

let scratchArrays: Float32Array[] = [];
/** Three arrays of length n, reused by every multiStep call (rankTools is synchronous; callers fill them). */
function scratch(n: number): [Float32Array, Float32Array, Float32Array] {
  if (scratchArrays[0]?.length !== n) scratchArrays = [0, 1, 2].map(() => new Float32Array(n));
  return scratchArrays as [Float32Array, Float32Array, Float32Array];
}

/**
 * Per-clause signals over the docs that can rank near the top: every tool of a small index; with a sketch
 * (large index), the best tools of the whole intent by cosine and by bm25. `semBest` holds each doc's best
 * clause cosine (-Infinity when no clause has a known word), `hybridBest` its best clause hybrid score
 * (bm25 over its clause maximum plus min–max scaled cosine, then divided by the clause's best) × fusion.clauses.
 */
export function multiStep(
  index: DiscoverIndex,
  bmIndex: Bm25Index,
  clauses: readonly string[],
  bm: Float32Array,
  sem: Float32Array,
  weights: HybridWeights,
  /** topN(bm, SKETCH_CANDIDATES) when signals computed it already (Signals.bmTop). */
  bmTop?: Int32Array,
): { docs: Int32Array; semBest: Float32Array; hybridBest: Float32Array } {
  const n = index.tools.length;
  const semIndex = index.semantic!;
  let docs: Int32Array;
  if (semIndex.sketch) {
    docs = unionSorted([topN(sem, SKETCH_CANDIDATES), bmTop ?? topN(bm, SKETCH_CANDIDATES)]);
  } else {
    docs = identity(n);
  }
  // Scratch arrays are reused across calls (allocating typed arrays per query costs more than filling them).
  const [semBest, hybridBest, cbm] = scratch(n);
  semBest.fill(-Infinity);
  hybridBest.fill(0);
  const h = new Float32Array(docs.length);
  const w = weights.fusion;
  // A clause's bm25 and cosines are read at the docs only: cbm and csem hold them by position in docs (j), not by
  // doc number. Every clause's cosines come from one pass over the docs' vectors (each read from memory once).
  const pos = positions(n, docs);
  const qs = clauses.map((text) => {
    const raw = sentenceVector(index.vectors!, text);
    return raw ? queryVector(semIndex, raw) : null;
  });
  const csems = scoreDocsMany(semIndex, qs, docs);
  for (let c = 0; c < clauses.length; c++) {
    const cq = bm25Query(clauses[c]!, index.unstemmed);
    const bmHit = scoreBm25At(bmIndex, cq.terms, pos, docs.length, cbm, cq.weights) > 0;
    const csem = csems[c];
    if (!bmHit && !csem) continue;
    let bmMax = 0;
    let semMax = -Infinity;
    let semMin = Infinity;
    for (let j = 0; j < docs.length; j++) {
      const i = docs[j]!;
      if (cbm[j]! > bmMax) bmMax = cbm[j]!;
      if (csem) {
        if (csem[j]! > semMax) semMax = csem[j]!;
        if (csem[j]! < semMin) semMin = csem[j]!;
        if (csem[j]! > semBest[i]!) semBest[i] = csem[j]!;
      }
    }
    const bmScale = bmMax > 0 ? w.bm25 / bmMax : 0;
    const semScale = csem && semMax > semMin ? w.semantic / (semMax - semMin) : 0;
    let best = 0;
    for (let j = 0; j < docs.length; j++) {
      h[j] = cbm[j]! * bmScale + (csem ? (csem[j]! - semMin) * semScale : 0);
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

let positionSpare = new Int32Array(0);
/**
 * Doc → its position in `docs` (ascending), −1 for docs not in it: identity(n) when docs are all of them, else an
 * array reused by the next call.
 */
function positions(n: number, docs: Int32Array): Int32Array {
  if (docs.length === n) return identity(n);
  if (positionSpare.length !== n) positionSpare = new Int32Array(n);
  positionSpare.fill(-1);
  for (let j = 0; j < docs.length; j++) positionSpare[docs[j]!] = j;
  return positionSpare;
}

/**
 * scoreBm25 read at some docs only: the score of the doc at position j of them (`pos`: doc → j or −1) into
 * out[j] for j < count (zeroed here), summed term by term in the same order, so the same numbers; returns how many
 * postings matched, as scoreBm25 does. Each term's part is times its weight (1 without `weights`).
 */
function scoreBm25At(
  index: Bm25Index,
  terms: readonly string[],
  pos: Int32Array,
  count: number,
  out: Float32Array,
  weights?: readonly number[],
): number {
  out.fill(0, 0, count);
  let hits = 0;
  for (let t = 0; t < terms.length; t++) {
    const p = index.postings.get(terms[t]!);
    if (!p) continue;
    const { docs, contrib } = p;
    const w = weights ? weights[t]! : 1;
    for (let k = 0; k < docs.length; k++) {
      const j = pos[docs[k]!]!;
      if (j >= 0) out[j] = out[j]! + (w === 1 ? contrib[k]! : w * contrib[k]!);
    }
    hits += docs.length;
  }
  return hits;
}

/** Tool → server number and the number of servers of an index (memoised on it). */
export function serverGroups(index: DiscoverIndex): { of: Int32Array; count: number } {
  return (index.servers ??= groupServers(index.tools.map((t) => t.server)));
}
