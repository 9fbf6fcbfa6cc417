/** Sentence vectors by SIF (smooth inverse frequency) averaging of word vectors, with common-component removal. */
import { splitWords, STOP_WORDS } from './tokenize.js';
import { lookupWord, type WordVectors } from './vectors.js';

/** SIF smoothing: weight a/(a + p(w)). */
const SIF_A = 1e-3;
/** Zipf normaliser for ranks of a ~400k-word table: p(rank) ≈ 1 / ((rank + 1) · H). */
const ZIPF_H = Math.log(400_000) + 0.5772;

export interface SemanticIndex {
  dims: number;
  size: number;
  /** Row-major unit vectors (zero rows for tools without a known word). */
  matrix: Float32Array;
  /** Common component removed from every vector (unit length), or null. */
  common: Float32Array | null;
}

/** Weighted average of the word vectors of a text; null when no word is known. */
export function sentenceVector(vectors: WordVectors, text: string): Float32Array | null {
  const { dims, data, scales, ranks } = vectors;
  const out = new Float32Array(dims);
  let count = 0;
  for (const word of splitWords(text)) {
    if (word.length < 2 || STOP_WORDS.has(word)) continue;
    const row = lookupWord(vectors, word);
    if (row === undefined) continue;
    const p = 1 / ((ranks[row]! + 1) * ZIPF_H);
    const w = (SIF_A / (SIF_A + p)) * scales[row]!;
    const base = row * dims;
    for (let d = 0; d < dims; d++) out[d] = out[d]! + w * data[base + d]!;
    count++;
  }
  if (count === 0) return null;
  return out;
}

/** Tool vectors: SIF averages, minus their first principal direction, unit length. */
export function buildSemanticIndex(vectors: WordVectors, texts: string[], removeCommon = true): SemanticIndex {
  const dims = vectors.dims;
  const rows = texts.map((t) => sentenceVector(vectors, t));
  return semanticIndexFromRows(rows, dims, removeCommon);
}

/** Semantic index from precomputed rows (SIF or a sentence model's embeddings). */
export function semanticIndexFromRows(rows: (Float32Array | null)[], dims: number, removeCommon: boolean): SemanticIndex {
  const size = rows.length;
  const matrix = new Float32Array(size * dims);
  rows.forEach((r, i) => {
    if (r) matrix.set(r, i * dims);
  });
  const common = removeCommon && size > 2 ? firstComponent(matrix, size, dims) : null;
  for (let i = 0; i < size; i++) finish(matrix.subarray(i * dims, (i + 1) * dims), common);
  return { dims, size, matrix, common };
}

/** Applies the index's common-component removal and normalisation to a query vector. */
export function queryVector(index: SemanticIndex, raw: Float32Array): Float32Array {
  const q = Float32Array.from(raw);
  finish(q, index.common);
  return q;
}

function finish(v: Float32Array, common: Float32Array | null): void {
  if (common) {
    let dot = 0;
    for (let d = 0; d < v.length; d++) dot += v[d]! * common[d]!;
    for (let d = 0; d < v.length; d++) v[d] = v[d]! - dot * common[d]!;
  }
  let norm = 0;
  for (let d = 0; d < v.length; d++) norm += v[d]! * v[d]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let d = 0; d < v.length; d++) v[d] = v[d]! / norm;
}

/** Cosine of the (unit) query with every tool, into `out`. */
export function scoreSemantic(index: SemanticIndex, q: Float32Array, out: Float32Array): void {
  const { matrix, dims, size } = index;
  for (let i = 0, base = 0; i < size; i++, base += dims) {
    let dot = 0;
    for (let d = 0; d < dims; d++) dot += matrix[base + d]! * q[d]!;
    out[i] = dot;
  }
}

/** First principal direction (uncentred, as in SIF) by power iteration on the dims×dims scatter matrix. */
function firstComponent(matrix: Float32Array, size: number, dims: number): Float32Array | null {
  const cov = new Float64Array(dims * dims);
  for (let i = 0; i < size; i++) {
    const base = i * dims;
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += matrix[base + d]! ** 2;
    if (norm === 0) continue;
    const inv = 1 / norm;
    for (let a = 0; a < dims; a++) {
      const va = matrix[base + a]! * inv;
      if (va === 0) continue;
      for (let b = a; b < dims; b++) cov[a * dims + b] = cov[a * dims + b]! + va * matrix[base + b]!;
    }
  }
  for (let a = 0; a < dims; a++) for (let b = 0; b < a; b++) cov[a * dims + b] = cov[b * dims + a]!;
  let v = new Float64Array(dims).fill(1 / Math.sqrt(dims));
  for (let iter = 0; iter < 50; iter++) {
    const next = new Float64Array(dims);
    for (let a = 0; a < dims; a++) {
      let s = 0;
      for (let b = 0; b < dims; b++) s += cov[a * dims + b]! * v[b]!;
      next[a] = s;
    }
    const n = Math.hypot(...next);
    if (n === 0) return null;
    for (let a = 0; a < dims; a++) next[a] = next[a]! / n;
    v = next;
  }
  return Float32Array.from(v);
}
