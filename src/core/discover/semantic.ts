/** Sentence vectors by SIF (smooth inverse frequency) averaging of word vectors, with common-component removal. */
import { KEPT_WEIGHT, PAYLOAD_WEIGHT, keptClause, payloadSpans, withoutPayload, type ReadText } from './lexicon.js';
import { splitWords, STOP_WORDS, intentText } from './tokenize.js';
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
  /** Large indexes only (SKETCH_MIN_TOOLS): rows projected on `dims` principal directions (`basis`, row-major). */
  sketch?: {
    dims: number;
    basis: Float32Array;
    rows: Float32Array;
    /** Per tool, the length of the part of its vector the sketch does not hold: √(|t|² − |sketch(t)|²). */
    residual: Float32Array;
  };
}

/** Words of a tool description that its vector is built from (FirstP: long descriptions drift to generic words). */
export const LEAD_WORDS = 40;
// Sentence ends: Latin punctuation before a space, CJK full stops (no space follows them), paragraph breaks.
// Captured, so that the lead has a space where the text had whitespace and none after a bare 。.
const SENTENCE_END = /((?<=[.!?])\s+|(?<=[。！？])\s*|\n\s*\n)/;

/**
 * FirstP: the leading whole sentences of a text while they hold at most `maxWords` words (a first sentence
 * longer than that is cut at `maxWords`). Short texts come back unchanged. A CJK character counts as half a
 * word (a Chinese word is about two characters), so Chinese descriptions are cut as English ones are.
 */
export function leadPassage(text: string, maxWords = LEAD_WORDS): string {
  if (wordsEnd(text, maxWords) === text.length) return text; // at most maxWords words
  const parts = text.split(SENTENCE_END); // sentence, its end, sentence, …
  let out = '';
  let words = 0;
  for (let i = 0; i < parts.length; i += 2) {
    const sentence = parts[i]!;
    const n = countWords(sentence);
    if (words + n > maxWords) {
      if (words === 0) out = sentence.slice(0, wordsEnd(sentence, maxWords)).trimEnd();
      break;
    }
    out += (out && parts[i - 1] ? ' ' : '') + sentence;
    words += n;
  }
  return out;
}

// Ideographs, kana and hangul count as half a word each; CJK and full-width punctuation separates, as a space does.
const CJK_CHAR = /[\u2e80-\u2fff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]/;
const CJK_PUNCT = /[\u3000-\u303f\uff01-\uff0f\uff1a-\uff20]/;

function countWords(text: string): number {
  return wordsEnd(text, Infinity, true);
}

/** The end of the first `maxWords` words of a text; with `count`, the number of words in it instead. */
function wordsEnd(text: string, maxWords: number, count = false): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 32 || (c >= 0x3000 && CJK_PUNCT.test(text[i]!))) {
      inWord = false;
      continue;
    }
    let step: number;
    if (c >= 0x2e80 && CJK_CHAR.test(text[i]!)) {
      step = 0.5;
      inWord = false;
    } else {
      step = inWord ? 0 : 1;
      inWord = true;
    }
    if (n + step > maxWords) return i;
    n += step;
  }
  return count ? n : text.length;
}

/** Weighted average of the word vectors of an intent (and of the kinds of the files it names); null when no word is known. */
export function sentenceVector(vectors: WordVectors, text: string): Float32Array | null {
  const out = new Float32Array(vectors.dims);
  return addWords(vectors, splitWords(intentText(text)), out, 0) > 0 ? out : null;
}

/**
 * An intent's sentence vector with its payload (lexicon.ts, payloadSpans) weighed down to PAYLOAD_WEIGHT: the
 * request's words count fully, quoted text, code, JSON, URLs and paths a third; null when no word is known.
 */
export function intentVector(vectors: WordVectors, text: string, read?: ReadText): Float32Array | null {
  // The kept clause (lexicon.ts, keptClause) is read at KEPT_WEIGHT, other payload at PAYLOAD_WEIGHT.
  const that = read ? read.kept : keptClause(text);
  const spans = payloadSpans(text).filter(([a]) => KEPT_WEIGHT > 0 || a !== that);
  if (spans.length === 0) return sentenceVector(vectors, that >= 0 ? text.slice(0, that) : text);
  const request = sentenceVector(vectors, read ? read.plain : withoutPayload(text));
  const payload = sentenceVector(vectors, spans.map(([a, b]) => text.slice(a, b)).join(' '));
  if (!request || !payload) return request ?? payload;
  // Each part at unit length first: a payload of many words (a pasted document, a long kept clause) weighs
  // PAYLOAD_WEIGHT of the request however long it is, not PAYLOAD_WEIGHT per word.
  const scale = PAYLOAD_WEIGHT * (norm(request) / (norm(payload) || 1));
  for (let d = 0; d < request.length; d++) request[d] = request[d]! + scale * payload[d]!;
  return request;
}

const norm = (v: Float32Array): number => Math.hypot(...v);

/** The table row a word's vector is read from (-1: unknown, a stop word or one letter), memoised per table. */
export function wordRow(vectors: WordVectors, word: string): number {
  const rows = (vectors.rowOf ??= new Map<string, number>());
  let row = rows.get(word);
  if (row === undefined) {
    row = word.length < 2 || STOP_WORDS.has(word) ? -1 : (lookupWord(vectors, word) ?? -1);
    if (rows.size < 200_000) rows.set(word, row);
  }
  return row;
}

/** Adds the SIF-weighted vectors of `words` into `out` at `offset`; returns how many words were known. */
export function addWords(vectors: WordVectors, words: readonly string[], out: Float32Array, offset: number): number {
  const dims = vectors.dims;
  let count = 0;
  for (const word of words) {
    const row = wordRow(vectors, word);
    if (row < 0) continue;
    const table = weightedRow(vectors, row);
    // Unrolled by 8 (about 1.7× faster in V8: this loop is most of a semantic index build), then the rest.
    let o = offset;
    let b = row * dims;
    for (const end = offset + dims - 7; o < end; o += 8, b += 8) {
      out[o] = out[o]! + table[b]!;
      out[o + 1] = out[o + 1]! + table[b + 1]!;
      out[o + 2] = out[o + 2]! + table[b + 2]!;
      out[o + 3] = out[o + 3]! + table[b + 3]!;
      out[o + 4] = out[o + 4]! + table[b + 4]!;
      out[o + 5] = out[o + 5]! + table[b + 5]!;
      out[o + 6] = out[o + 6]! + table[b + 6]!;
      out[o + 7] = out[o + 7]! + table[b + 7]!;
    }
    for (const end = offset + dims; o < end; o++, b++) out[o] = out[o]! + table[b]!;
    count++;
  }
  return count;
}

/**
 * Rows dequantised and premultiplied by each word's SIF weight a/(a + p(w)). Rows are filled on first use
 * (`weightedReady`), so a cold start pays only for the words its texts contain.
 */
export function weightedRow(vectors: WordVectors, row: number): Float32Array {
  const { size, dims } = vectors;
  const table = (vectors.weighted ??= new Float32Array(size * dims));
  const ready = (vectors.weightedReady ??= new Uint8Array(size));
  if (ready[row] === 0) {
    const p = 1 / ((vectors.ranks[row]! + 1) * ZIPF_H);
    const w = (SIF_A / (SIF_A + p)) * vectors.scales[row]!;
    for (let d = 0, base = row * dims; d < dims; d++) table[base + d] = w * vectors.data[base + d]!;
    ready[row] = 1;
  }
  return table;
}

/** Tool vectors: SIF averages, minus their first principal direction, unit length. */
export function buildSemanticIndex(
  vectors: WordVectors,
  texts: (string | readonly string[] | (readonly string[])[])[],
  removeCommon = true,
): SemanticIndex {
  const dims = vectors.dims;
  const size = texts.length;
  const matrix = new Float32Array(size * dims);
  texts.forEach((t, i) => {
    // A text, its words, or several word lists (name and description) summed into one row.
    if (typeof t === 'string') addWords(vectors, splitWords(t), matrix, i * dims);
    else if (t.length > 0 && Array.isArray(t[0]))
      for (const part of t as (readonly string[])[]) addWords(vectors, part, matrix, i * dims);
    else addWords(vectors, t as readonly string[], matrix, i * dims);
  });
  return finishIndex(matrix, size, dims, removeCommon);
}

/** Semantic index from precomputed rows (SIF or a sentence model's embeddings). */
export function semanticIndexFromRows(
  rows: (Float32Array | null)[],
  dims: number,
  removeCommon: boolean,
): SemanticIndex {
  const size = rows.length;
  const matrix = new Float32Array(size * dims);
  rows.forEach((r, i) => {
    if (r) matrix.set(r, i * dims);
  });
  return finishIndex(matrix, size, dims, removeCommon);
}

function finishIndex(matrix: Float32Array, size: number, dims: number, removeCommon: boolean): SemanticIndex {
  const common = removeCommon && size > 2 ? firstComponent(matrix, size, dims) : null;
  for (let i = 0; i < size; i++) finish(matrix.subarray(i * dims, (i + 1) * dims), common);
  const index: SemanticIndex = { dims, size, matrix, common };
  if (size >= SKETCH_MIN_TOOLS) index.sketch = buildSketch(index);
  return index;
}

/** Applies the index's common-component removal and normalisation to a query vector. */
export function queryVector(index: SemanticIndex, raw: Float32Array): Float32Array {
  const q = Float32Array.from(raw);
  finish(q, index.common);
  return q;
}

function finish(v: Float32Array, common: Float32Array | null): void {
  if (common) removeComponent(v, common);
  normalize(v);
}

/** Subtracts from `v` its projection on the unit vector `u`. */
function removeComponent(v: Float32Array, u: Float32Array): void {
  let dot = 0;
  for (let d = 0; d < v.length; d++) dot += v[d]! * u[d]!;
  for (let d = 0; d < v.length; d++) v[d] = v[d]! - dot * u[d]!;
}

/** Scales `v` to unit length (a zero vector stays zero); returns its length before. */
function normalize(v: Float32Array): number {
  let norm = 0;
  for (let d = 0; d < v.length; d++) norm += v[d]! * v[d]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let d = 0; d < v.length; d++) v[d] = v[d]! / norm;
  return norm;
}

/** Cosine of the (unit) query with every tool, into `out`. */
export function scoreSemantic(index: SemanticIndex, q: Float32Array, out: Float32Array): void {
  const { matrix, dims, size } = index;
  let i = 0;
  let base = 0;
  // Two rows at a time, each summed exactly as dot() sums it (the same four sums, in the same order), so the same
  // cosines: the two rows' additions overlap, where one row's wait on each other (about 1.4× faster at 2,781 tools).
  if (dims % 4 === 0)
    for (; i + 1 < size; i += 2, base += 2 * dims) {
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let t0 = 0;
      let t1 = 0;
      let t2 = 0;
      let t3 = 0;
      for (let d = 0, b = base, c = base + dims; d < dims; d += 4, b += 4, c += 4) {
        const q0 = q[d]!;
        const q1 = q[d + 1]!;
        const q2 = q[d + 2]!;
        const q3 = q[d + 3]!;
        s0 += matrix[b]! * q0;
        s1 += matrix[b + 1]! * q1;
        s2 += matrix[b + 2]! * q2;
        s3 += matrix[b + 3]! * q3;
        t0 += matrix[c]! * q0;
        t1 += matrix[c + 1]! * q1;
        t2 += matrix[c + 2]! * q2;
        t3 += matrix[c + 3]! * q3;
      }
      out[i] = s0 + s1 + s2 + s3;
      out[i + 1] = t0 + t1 + t2 + t3;
    }
  for (; i < size; i++, base += dims) out[i] = dot(matrix, base, q, dims);
}

/** Rows the common component and the sketch basis are estimated from: all of a small index, an even spread of a large one. */
const COMPONENT_SAMPLE = 1024;

/** Uncentred scatter Σ x·xᵀ/|x|² (each row counts once whatever its length) over an even sample of rows. */
function scatter(matrix: Float32Array, size: number, dims: number): Float64Array {
  const cov = new Float64Array(dims * dims);
  const step = Math.max(1, size / COMPONENT_SAMPLE);
  for (let s = 0; s < size; s += step) {
    const base = Math.floor(s) * dims;
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += matrix[base + d]! ** 2;
    if (norm === 0) continue;
    const inv = 1 / norm;
    for (let a = 0; a < dims; a++) {
      const va = matrix[base + a]! * inv;
      if (va === 0) continue;
      const row = a * dims;
      for (let b = a; b < dims; b++) cov[row + b] = cov[row + b]! + va * matrix[base + b]!;
    }
  }
  for (let a = 0; a < dims; a++) for (let b = 0; b < a; b++) cov[a * dims + b] = cov[b * dims + a]!;
  return cov;
}

/** Leading eigenvectors of a symmetric matrix by power iteration with deflation (deterministic start). */
function eigenvectors(cov: Float64Array, dims: number, count: number): Float32Array[] {
  const out: Float32Array[] = [];
  const m = Float64Array.from(cov);
  for (let k = 0; k < count; k++) {
    let v = new Float64Array(dims);
    for (let d = 0; d < dims; d++) v[d] = 1 / Math.sqrt(dims) + (k > 0 && d === k % dims ? 0.5 : 0);
    let lambda = 0;
    for (let iter = 0; iter < 50; iter++) {
      const next = new Float64Array(dims);
      for (let a = 0; a < dims; a++) {
        let s = 0;
        for (let b = 0; b < dims; b++) s += m[a * dims + b]! * v[b]!;
        next[a] = s;
      }
      let n = 0;
      for (let a = 0; a < dims; a++) n += next[a]! * next[a]!;
      n = Math.sqrt(n);
      if (n === 0) return out;
      for (let a = 0; a < dims; a++) next[a] = next[a]! / n;
      v = next;
      lambda = n;
    }
    out.push(Float32Array.from(v));
    for (let a = 0; a < dims; a++)
      for (let b = 0; b < dims; b++) m[a * dims + b] = m[a * dims + b]! - lambda * v[a]! * v[b]!;
  }
  return out;
}

/** First principal direction (uncentred, as in SIF) by power iteration on the dims×dims scatter matrix. */
function firstComponent(matrix: Float32Array, size: number, dims: number): Float32Array | null {
  return eigenvectors(scatter(matrix, size, dims), dims, 1)[0] ?? null;
}

/** Gram–Schmidt, two passes (enough in float32 for a few dozen vectors); drops vectors (nearly) in the span of earlier ones. */
function orthonormalize(vectors: Float32Array[]): Float32Array[] {
  const out: Float32Array[] = [];
  for (const v of vectors) {
    const w = Float32Array.from(v);
    for (let pass = 0; pass < 2; pass++) for (const u of out) removeComponent(w, u);
    if (normalize(w) >= 1e-4) out.push(w);
  }
  return out;
}

/** From this many tools on, queries score a low-dimensional sketch first and exact cosines only for candidates. */
export const SKETCH_MIN_TOOLS = 20_000;
const SKETCH_DIMS = 32;

/** Projects every (finished) tool vector on the leading principal directions of the tool vectors. */
export function buildSketch(index: SemanticIndex): NonNullable<SemanticIndex['sketch']> {
  const { matrix, size, dims } = index;
  // Orthonormal (Gram–Schmidt; power iteration with deflation only approximates it), so that the sketch is an
  // orthogonal projection and `residual` bounds what it leaves out.
  const basis = orthonormalize(eigenvectors(scatter(matrix, size, dims), dims, SKETCH_DIMS));
  const p = basis.length;
  const flat = new Float32Array(p * dims);
  basis.forEach((v, k) => flat.set(v, k * dims));
  const rows = new Float32Array(size * p);
  const residual = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    const base = i * dims;
    let held = 0;
    for (let k = 0; k < p; k++) {
      let dot = 0;
      const kb = k * dims;
      for (let d = 0; d < dims; d++) dot += matrix[base + d]! * flat[kb + d]!;
      rows[i * p + k] = dot;
      held += dot * dot;
    }
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += matrix[base + d]! ** 2;
    residual[i] = Math.sqrt(Math.max(0, norm - held));
  }
  return { dims: p, basis: flat, rows, residual };
}

/**
 * Approximate cosines from the sketch (the query projected on the same basis), into `out`. With `bound`, also
 * each tool's upper bound on its cosine, sketch part plus |query residual| · |tool residual| (Cauchy–Schwarz):
 * a tool the sketch holds poorly, such as one unlike the many tools the basis was estimated from, gets a high
 * bound and so can still be among the candidates scored exactly.
 */
export function scoreSketch(index: SemanticIndex, q: Float32Array, out: Float32Array, bound?: Float32Array): void {
  const sketch = index.sketch!;
  const { dims, basis, rows, residual } = sketch;
  const qp = new Float32Array(dims);
  let held = 0;
  for (let k = 0; k < dims; k++) {
    let dot = 0;
    for (let d = 0; d < index.dims; d++) dot += basis[k * index.dims + d]! * q[d]!;
    qp[k] = dot;
    held += dot * dot;
  }
  let norm = 0;
  for (let d = 0; d < index.dims; d++) norm += q[d]! * q[d]!;
  const qRes = Math.sqrt(Math.max(0, norm - held));
  if (dims === 32) return sketch32(rows, qp, index.size, out, bound, qRes, residual);
  for (let i = 0, base = 0; i < index.size; i++, base += dims) out[i] = dot(rows, base, qp, dims);
  if (bound) for (let i = 0; i < index.size; i++) bound[i] = out[i]! + qRes * residual[i]!;
}

/**
 * `dot` of every 32-wide row with q, unrolled with q held in locals (about 1.4× faster over 100,000 rows). The
 * same four lanes summed in the same order as `dot`, so the same numbers.
 */
function sketch32(
  rows: Float32Array,
  q: Float32Array,
  size: number,
  out: Float32Array,
  /** With it, also each tool's bound out[i] + qRes · residual[i] in the same pass (as scoreSketch's own loop). */
  bound: Float32Array | undefined,
  qRes: number,
  residual: Float32Array,
): void {
  const [q0, q1, q2, q3, q4, q5, q6, q7, q8, q9, q10, q11, q12, q13, q14, q15] = Array.from(q.subarray(0, 16));
  const [q16, q17, q18, q19, q20, q21, q22, q23, q24, q25, q26, q27, q28, q29, q30, q31] = Array.from(q.subarray(16));
  for (let i = 0, b = 0; i < size; i++, b += 32) {
    // 0 + …: as `dot` starts from 0 (a −0 product then sums to 0, not −0).
    let s0 = 0 + rows[b]! * q0!;
    let s1 = 0 + rows[b + 1]! * q1!;
    let s2 = 0 + rows[b + 2]! * q2!;
    let s3 = 0 + rows[b + 3]! * q3!;
    s0 += rows[b + 4]! * q4!;
    s1 += rows[b + 5]! * q5!;
    s2 += rows[b + 6]! * q6!;
    s3 += rows[b + 7]! * q7!;
    s0 += rows[b + 8]! * q8!;
    s1 += rows[b + 9]! * q9!;
    s2 += rows[b + 10]! * q10!;
    s3 += rows[b + 11]! * q11!;
    s0 += rows[b + 12]! * q12!;
    s1 += rows[b + 13]! * q13!;
    s2 += rows[b + 14]! * q14!;
    s3 += rows[b + 15]! * q15!;
    s0 += rows[b + 16]! * q16!;
    s1 += rows[b + 17]! * q17!;
    s2 += rows[b + 18]! * q18!;
    s3 += rows[b + 19]! * q19!;
    s0 += rows[b + 20]! * q20!;
    s1 += rows[b + 21]! * q21!;
    s2 += rows[b + 22]! * q22!;
    s3 += rows[b + 23]! * q23!;
    s0 += rows[b + 24]! * q24!;
    s1 += rows[b + 25]! * q25!;
    s2 += rows[b + 26]! * q26!;
    s3 += rows[b + 27]! * q27!;
    s0 += rows[b + 28]! * q28!;
    s1 += rows[b + 29]! * q29!;
    s2 += rows[b + 30]! * q30!;
    s3 += rows[b + 31]! * q31!;
    // Rounded to float32 before the bound adds to it, as the bound reads it back from `out`.
    const v = Math.fround(s0 + s1 + s2 + s3);
    out[i] = v;
    if (bound) bound[i] = v + qRes * residual[i]!;
  }
}

/** Exact cosines for the given docs only, into `out`. */
export function scoreSemanticDocs(
  index: SemanticIndex,
  q: Float32Array,
  docs: ArrayLike<number>,
  out: Float32Array,
): void {
  const { matrix, dims } = index;
  for (let j = 0; j < docs.length; j++) {
    const i = docs[j]!;
    out[i] = dot(matrix, i * dims, q, dims);
  }
}

/**
 * Exact cosines of several (unit) queries with the given docs: out[c][j] is query c's cosine with docs[j] (null for
 * a null query). One pass over the docs, each doc's vector dotted with every query while it is in cache, instead of
 * one pass per query over vectors scattered in a large matrix.
 */
export function scoreDocsMany(
  index: SemanticIndex,
  qs: readonly (Float32Array | null)[],
  docs: ArrayLike<number>,
): (Float32Array | null)[] {
  const { matrix, dims } = index;
  const out = qs.map((q) => (q ? new Float32Array(docs.length) : null));
  const live = qs.flatMap((q, c) => (q ? [{ q, o: out[c]! }] : []));
  for (let j = 0; j < docs.length; j++) {
    const base = docs[j]! * dims;
    for (let c = 0; c < live.length; c++) live[c]!.o[j] = dot(matrix, base, live[c]!.q, dims);
  }
  return out;
}

/** Dot product of row `base..base+dims` of a flat matrix with q, four lanes at a time. */
export function dot(matrix: Float32Array, base: number, q: Float32Array, dims: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 3 < dims; d += 4) {
    s0 += matrix[base + d]! * q[d]!;
    s1 += matrix[base + d + 1]! * q[d + 1]!;
    s2 += matrix[base + d + 2]! * q[d + 2]!;
    s3 += matrix[base + d + 3]! * q[d + 3]!;
  }
  for (; d < dims; d++) s0 += matrix[base + d]! * q[d]!;
  return s0 + s1 + s2 + s3;
}

const CACHE_MAGIC = 0x53494631; // "SIF1"

/** Bytes of a finished semantic index (for the command's on-disk cache). */
export function encodeSemanticIndex(index: SemanticIndex): Uint8Array {
  const head = new Uint32Array([CACHE_MAGIC, index.size, index.dims, index.common ? 1 : 0]);
  const parts = [head, index.matrix, index.common ?? new Float32Array(0)];
  const out = new Uint8Array(parts.reduce((a, p) => a + p.byteLength, 0));
  let off = 0;
  for (const p of parts) {
    out.set(new Uint8Array(p.buffer, p.byteOffset, p.byteLength), off);
    off += p.byteLength;
  }
  return out;
}

/** Reads encodeSemanticIndex's bytes; null when they do not hold an index of `size` × `dims`. */
export function decodeSemanticIndex(buf: Uint8Array, size: number, dims: number): SemanticIndex | null {
  if (buf.byteLength < 16) return null;
  const copy = new Uint8Array(buf); // a copy (Buffer#slice would be a view), 4-byte aligned
  const head = new Uint32Array(copy.buffer, 0, 4);
  const hasCommon = head[3] === 1;
  if (head[0] !== CACHE_MAGIC || head[1] !== size || head[2] !== dims) return null;
  if (copy.byteLength !== 16 + size * dims * 4 + (hasCommon ? dims * 4 : 0)) return null;
  const matrix = new Float32Array(copy.buffer, 16, size * dims);
  const common = hasCommon ? new Float32Array(copy.buffer, 16 + size * dims * 4, dims) : null;
  const index: SemanticIndex = { dims, size, matrix, common };
  if (size >= SKETCH_MIN_TOOLS) index.sketch = buildSketch(index);
  return index;
}
