/** Candidates: which tools are scored exactly and which can reach the top (quickselect, top-k, sketch sizes). */

/** Tools scored exactly per signal when the semantic index has a sketch (hybrid adds the best by bm25). */
export const SKETCH_CANDIDATES = 2048;
/**
 * The semantic engine alone has no bm25 candidates, so it scores more tools exactly: with 32 sketch dimensions
 * and the bound, its top 5 at 100,000 tools match exact scoring on 291 of 294 queries (bench/RESULTS.md).
 */
export const SEMANTIC_CANDIDATES = 4096;

/** Indexes of (about) the n highest scores, in index order: every doc scoring at least the n-th best (quickselect). */
export function topN(scores: Float32Array, n: number): Int32Array {
  if (n >= scores.length) return Int32Array.from(scores.keys());
  const copy = Float32Array.from(scores);
  // Quickselect for the n-th largest value.
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
  const threshold = copy[want]!;
  const out: number[] = [];
  for (let i = 0; i < scores.length && out.length < 4 * n; i++) if (scores[i]! >= threshold) out.push(i);
  return Int32Array.from(out);
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
