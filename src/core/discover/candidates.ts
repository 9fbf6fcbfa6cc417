/** Candidates: which tools are scored exactly and which can reach the top (quickselect, top-k, sketch sizes). */

/** Tools scored exactly per signal when the semantic index has a sketch (hybrid adds the best by bm25). */
export const SKETCH_CANDIDATES = 2048;
/**
 * The semantic engine alone has no bm25 candidates, so it scores more tools exactly: with 32 sketch dimensions
 * and the bound, its top 5 at 100,000 tools match exact scoring on 291 of 294 queries (bench/RESULTS.md).
 */
export const SEMANTIC_CANDIDATES = 4096;

/** Indexes of (about) the n highest scores, in index order: every doc scoring at least the n-th best (at most 4n). */
export function topN(scores: Float32Array, n: number): Int32Array {
  if (n >= scores.length) return Int32Array.from(scores.keys());
  const threshold = nthLargest(scores, n);
  const out = new Int32Array(Math.min(scores.length, 4 * n));
  let count = 0;
  for (let i = 0; i < scores.length && count < out.length; i++) if (scores[i]! >= threshold) out[count++] = i;
  return out.subarray(0, count);
}

/** Buckets of the histogram nthLargest selects with; below this many values a quickselect on a copy is cheaper. */
const BUCKETS = 2048;
const SMALL = 512;
let histogram = new Int32Array(BUCKETS);

/**
 * The n-th largest of `values` (1 ≤ n < length), read-only and without copying them all: one pass for the range,
 * one for a histogram over it, then the same on the values of the one bucket that holds the n-th largest
 * (values equal to the minimum are counted apart, so that sparse scores — mostly zeros — stay cheap).
 */
function nthLargest(values: Float32Array, n: number): number {
  const len = values.length;
  if (len <= SMALL) return quickselect(Float32Array.from(values), n);
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < len; i++) {
    const v = values[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  // NaN (neither bound moves for it) or infinite bounds: the plain quickselect.
  if (!(max - min < Infinity)) return quickselect(Float32Array.from(values), n);
  if (max === min) return max;
  const counts = histogram.fill(0);
  const scale = BUCKETS / (max - min);
  let atMin = 0;
  for (let i = 0; i < len; i++) {
    const v = values[i]!;
    if (v === min) atMin++;
    else counts[Math.min(BUCKETS - 1, Math.floor((v - min) * scale))]!++;
  }
  if (len - atMin < n) return min;
  // The bucket that holds the n-th largest, and how many values above it.
  let above = 0;
  let b = BUCKETS - 1;
  while (above + counts[b]! < n) above += counts[b--]!;
  const inBucket = new Float32Array(counts[b]!);
  let k = 0;
  for (let i = 0; i < len; i++) {
    const v = values[i]!;
    if (v !== min && Math.min(BUCKETS - 1, Math.floor((v - min) * scale)) === b) inBucket[k++] = v;
  }
  // The recursion reuses the histogram: this call is done with it.
  if (inBucket.length > SMALL) {
    histogram = new Int32Array(BUCKETS);
    const t = nthLargest(inBucket, n - above);
    histogram = counts;
    return t;
  }
  return quickselect(inBucket, n - above);
}

/** The n-th largest value of `copy` (reordered in place), by quickselect. */
function quickselect(copy: Float32Array, n: number): number {
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
  return copy[want]!;
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

/** At most this many clauses of an intent are ranked on their own (the rest still count in the whole intent). */
export const MAX_CLAUSES = 12;

const identities = new Map<number, Int32Array>();
/** 0, 1, …, n − 1 (shared, read-only). */
export function identity(n: number): Int32Array {
  let ids = identities.get(n);
  if (!ids) {
    ids = new Int32Array(n);
    for (let i = 0; i < n; i++) ids[i] = i;
    if (identities.size > 16) identities.clear();
    identities.set(n, ids);
  }
  return ids;
}
