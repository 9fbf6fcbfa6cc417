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
  const limit = Math.min(scores.length, 4 * n);
  const fast = scores.length >= 8 * SAMPLE ? sampledTopN(scores, n, limit) : null;
  if (fast) return fast;
  const threshold = quickselect(Float32Array.from(scores), n);
  const out = new Int32Array(limit);
  let count = 0;
  for (let i = 0; i < scores.length && count < limit; i++) if (scores[i]! >= threshold) out[count++] = i;
  return out.subarray(0, count);
}

/** Scores sampled (evenly spread) to guess a value below the n-th best. */
const SAMPLE = 1024;
/** The docs sampledTopN keeps, reused by the next call (they never leave it). */
let keptSpare = new Int32Array(0);

/**
 * topN in one pass over the scores: a value safely below the n-th best, guessed from an even sample, keeps the
 * few docs that can reach it; the exact n-th best is then selected among those. Null when the guess fails (too
 * few or too many docs kept), and topN selects over all scores instead — the result is the same either way.
 */
function sampledTopN(scores: Float32Array, n: number, limit: number): Int32Array | null {
  const len = scores.length;
  const sample = new Float32Array(SAMPLE);
  for (let k = 0; k < SAMPLE; k++) sample[k] = scores[Math.floor((k * len) / SAMPLE)]!;
  sample.sort();
  // The n-th best is expected at rank n·SAMPLE/len of the sample: go twice as deep, and a margin more.
  const depth = Math.ceil((2 * n * SAMPLE) / len) + 16;
  if (depth >= SAMPLE) return null;
  const low = sample[SAMPLE - 1 - depth]!;
  if (!(low > -Infinity && low < Infinity)) return null;
  // When the guess is the sample's minimum (sparse scores, mostly zeros), keep only what lies above it.
  const strict = low === sample[0];
  const cap = Math.min(len, 16 * n);
  if (keptSpare.length < cap) keptSpare = new Int32Array(cap);
  const kept = keptSpare;
  let count = 0;
  let below = false;
  if (strict) {
    for (let i = 0; i < len; i++) {
      const v = scores[i]!;
      if (v > low) {
        if (count === cap) return null;
        kept[count++] = i;
      } else if (v < low) below = true;
    }
  } else {
    for (let i = 0; i < len; i++) {
      if (scores[i]! >= low) {
        if (count === cap) return null;
        kept[count++] = i;
      }
    }
  }
  let threshold: number;
  if (count >= n) {
    // Every doc scoring at least the n-th best is kept: select it among them.
    const values = new Float32Array(count);
    for (let j = 0; j < count; j++) values[j] = scores[kept[j]!]!;
    threshold = quickselect(values, n);
  } else if (strict && !below) {
    // Fewer than n docs above the minimum: the n-th best is the minimum, which every doc reaches.
    const all = new Int32Array(limit);
    for (let i = 0; i < limit; i++) all[i] = i;
    return all;
  } else {
    return null;
  }
  const out = new Int32Array(limit);
  let m = 0;
  for (let j = 0; j < count && m < limit; j++) if (scores[kept[j]!]! >= threshold) out[m++] = kept[j]!;
  return out.subarray(0, m);
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
  if (k <= 0) return [];
  // The best so far in two typed arrays, one slot past k (an insertion shifts the last one out): no splice, no
  // growing arrays; the same order and ties as inserting into sorted lists.
  const room = Math.min(k, scores.length) + 1;
  const idx = new Int32Array(room);
  const val = new Float64Array(room);
  let len = 0;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!;
    if (len === k && s <= val[k - 1]!) continue;
    if (!keep(i)) continue;
    let pos = len;
    while (pos > 0 && val[pos - 1]! < s) {
      idx[pos] = idx[pos - 1]!;
      val[pos] = val[pos - 1]!;
      pos--;
    }
    idx[pos] = i;
    val[pos] = s;
    if (len < k) len++;
  }
  // A loop, not Array.from (which walks the typed array's iterator: a fifth of topK's time on 2,781 tools).
  const out: number[] = [];
  for (let j = 0; j < len; j++) out.push(idx[j]!);
  return out;
}

/** The docs of several ascending lists, each once, ascending (a merge: the lists are topN's, already in order). */
export function unionSorted(lists: readonly ArrayLike<number>[]): Int32Array {
  let out: Int32Array = new Int32Array(0);
  for (const list of lists) {
    const merged = new Int32Array(out.length + list.length);
    let a = 0;
    let b = 0;
    let m = 0;
    while (a < out.length || b < list.length) {
      const x = a < out.length ? out[a]! : Infinity;
      const y = b < list.length ? list[b]! : Infinity;
      const v = x <= y ? x : y;
      if (x === v) a++;
      if (y === v) b++;
      merged[m++] = v;
    }
    out = merged.subarray(0, m);
  }
  return out;
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
