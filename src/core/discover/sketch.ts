/**
 * The sketch of a large semantic index (SKETCH_MIN_TOOLS tools or more): every tool vector projected on the leading
 * principal directions of the tool vectors, so that a query scores a few dozen dimensions first and exact cosines
 * only for the candidates (signals.ts).
 */
import { dot, eigenvectors, orthonormalize, scatter } from './vector-math.js';

export interface SemanticSketch {
  dims: number;
  basis: Float32Array;
  rows: Float32Array;
  /** Per tool, the length of the part of its vector the sketch does not hold: √(|t|² − |sketch(t)|²). */
  residual: Float32Array;
}

/** The parts of a semantic index (semantic.ts, SemanticIndex) a sketch is built from and scored against. */
interface SketchedIndex {
  dims: number;
  size: number;
  /** Row-major unit vectors. */
  matrix: Float32Array;
  sketch?: SemanticSketch;
}

/** From this many tools on, queries score a low-dimensional sketch first and exact cosines only for candidates. */
export const SKETCH_MIN_TOOLS = 20_000;
const SKETCH_DIMS = 32;

/** Projects every (finished) tool vector on the leading principal directions of the tool vectors. */
export function buildSketch(index: SketchedIndex): SemanticSketch {
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
    const out = i * p;
    let held = 0;
    // Four basis vectors' dots in one pass over the row (each its own sum in its own order, as one at a time).
    let k = 0;
    for (; k + 4 <= p; k += 4) {
      let d0 = 0;
      let d1 = 0;
      let d2 = 0;
      let d3 = 0;
      const k0 = k * dims;
      const k1 = k0 + dims;
      const k2 = k1 + dims;
      const k3 = k2 + dims;
      for (let d = 0; d < dims; d++) {
        const x = matrix[base + d]!;
        d0 += x * flat[k0 + d]!;
        d1 += x * flat[k1 + d]!;
        d2 += x * flat[k2 + d]!;
        d3 += x * flat[k3 + d]!;
      }
      rows[out + k] = d0;
      rows[out + k + 1] = d1;
      rows[out + k + 2] = d2;
      rows[out + k + 3] = d3;
      held += d0 * d0;
      held += d1 * d1;
      held += d2 * d2;
      held += d3 * d3;
    }
    for (; k < p; k++) {
      let dot = 0;
      const kb = k * dims;
      for (let d = 0; d < dims; d++) dot += matrix[base + d]! * flat[kb + d]!;
      rows[out + k] = dot;
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
export function scoreSketch(index: SketchedIndex, q: Float32Array, out: Float32Array, bound?: Float32Array): void {
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
