/** Dense vector arithmetic over flat Float32Array matrices: dot products, projections, principal directions. */
import { rankOneKernel } from './scatter-wasm.js';

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

/**
 * Math.hypot(...v), the same number, without spreading v into 128 arguments (each a heap number): V8's algorithm,
 * step for step — the largest magnitude, then a Kahan sum of each magnitude over it, squared; its square root times
 * it (Infinity when one is infinite, NaN when one is NaN, 0 for a zero vector).
 */
export function hypot(v: Float32Array): number {
  let max = 0;
  let nan = false;
  for (let d = 0; d < v.length; d++) {
    const a = Math.abs(v[d]!);
    if (Number.isNaN(a)) nan = true;
    else if (a > max) max = a;
  }
  if (max === Infinity) return Infinity;
  if (nan) return NaN;
  if (max === 0) return 0;
  let sum = 0;
  let compensation = 0;
  for (let d = 0; d < v.length; d++) {
    const n = Math.abs(v[d]!) / max;
    const summand = n * n - compensation;
    const preliminary = sum + summand;
    compensation = preliminary - sum - summand;
    sum = preliminary;
  }
  return Math.sqrt(sum) * max;
}

/** Subtracts from `v` its projection on the unit vector `u`. */
export function removeComponent(v: Float32Array, u: Float32Array): void {
  let dot = 0;
  for (let d = 0; d < v.length; d++) dot += v[d]! * u[d]!;
  for (let d = 0; d < v.length; d++) v[d] = v[d]! - dot * u[d]!;
}

/** Scales `v` to unit length (a zero vector stays zero); returns its length before. */
export function normalize(v: Float32Array): number {
  let norm = 0;
  for (let d = 0; d < v.length; d++) norm += v[d]! * v[d]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let d = 0; d < v.length; d++) v[d] = v[d]! / norm;
  return norm;
}

/** Rows the common component and the sketch basis are estimated from: all of a small index, an even spread of a large one. */
const COMPONENT_SAMPLE = 1024;

/**
 * Uncentred scatter Σ x·xᵀ/|x|² (each row counts once whatever its length) over an even sample of rows. Its rank-one
 * updates run in WebAssembly where it gives the same bits (scatter-wasm.ts); `js` keeps the JavaScript loop (tests).
 */
export function scatter(matrix: Float32Array, size: number, dims: number, js = false): Float64Array {
  const kernel = js ? undefined : rankOneKernel(dims);
  const sums = kernel?.cov ?? new Float64Array(dims * dims);
  const step = Math.max(1, size / COMPONENT_SAMPLE);
  for (let s = 0; s < size; s += step) {
    const base = Math.floor(s) * dims;
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += matrix[base + d]! ** 2;
    if (norm === 0) continue;
    const inv = 1 / norm;
    if (kernel) {
      kernel.add(matrix, base, inv);
      continue;
    }
    for (let a = 0; a < dims; a++) {
      const va = matrix[base + a]! * inv;
      if (va === 0) continue;
      const row = a * dims;
      for (let b = a; b < dims; b++) sums[row + b] = sums[row + b]! + va * matrix[base + b]!;
    }
  }
  // Out of the module's memory (a copy), then the lower triangle mirrored.
  const cov = kernel ? sums.slice() : sums;
  for (let a = 0; a < dims; a++) for (let b = 0; b < a; b++) cov[a * dims + b] = cov[b * dims + a]!;
  return cov;
}

/** Leading eigenvectors of a symmetric matrix by power iteration with deflation (deterministic start). */
export function eigenvectors(cov: Float64Array, dims: number, count: number): Float32Array[] {
  const out: Float32Array[] = [];
  const m = Float64Array.from(cov);
  for (let k = 0; k < count; k++) {
    let v = new Float64Array(dims);
    for (let d = 0; d < dims; d++) v[d] = 1 / Math.sqrt(dims) + (k > 0 && d === k % dims ? 0.5 : 0);
    let lambda = 0;
    for (let iter = 0; iter < 50; iter++) {
      const next = new Float64Array(dims);
      // Four rows' sums in one pass over v (each its own sum in its own order, as one row at a time).
      let a = 0;
      for (; a + 4 <= dims; a += 4) {
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        const r0 = a * dims;
        const r1 = r0 + dims;
        const r2 = r1 + dims;
        const r3 = r2 + dims;
        for (let b = 0; b < dims; b++) {
          const x = v[b]!;
          s0 += m[r0 + b]! * x;
          s1 += m[r1 + b]! * x;
          s2 += m[r2 + b]! * x;
          s3 += m[r3 + b]! * x;
        }
        next[a] = s0;
        next[a + 1] = s1;
        next[a + 2] = s2;
        next[a + 3] = s3;
      }
      for (; a < dims; a++) {
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
export function firstComponent(matrix: Float32Array, size: number, dims: number): Float32Array | null {
  return eigenvectors(scatter(matrix, size, dims), dims, 1)[0] ?? null;
}

/** Gram–Schmidt, two passes (enough in float32 for a few dozen vectors); drops vectors (nearly) in the span of earlier ones. */
export function orthonormalize(vectors: Float32Array[]): Float32Array[] {
  const out: Float32Array[] = [];
  for (const v of vectors) {
    const w = Float32Array.from(v);
    for (let pass = 0; pass < 2; pass++) for (const u of out) removeComponent(w, u);
    if (normalize(w) >= 1e-4) out.push(w);
  }
  return out;
}
