/**
 * What the checks after the re-ranker share: a view of a tool kept per index (its name words, its parameters,
 * its description's object), and moving the best candidates' scores by a share of the best one.
 */
import type { DiscoverIndex } from './build.js';

/** How many candidates' views an index keeps of each kind (a candidate recurs across a session's intents). */
const VIEWS_KEPT = 4096;

/** Views of one kind kept per index: a slot per tool (undefined until made) and how many are made. */
export type ViewStore<T> = WeakMap<DiscoverIndex, { slots: (T | undefined)[]; made: number }>;

/**
 * A candidate's view kept per index; past VIEWS_KEPT (a few MB) the store starts again. The slots are an array the
 * size of the index (a lookup by position: a Map's by number cost more than the views' own reads in a ranking).
 */
export function kept<T>(store: ViewStore<T>, index: DiscoverIndex, doc: number, make: () => T): T {
  let memo = store.get(index);
  if (!memo) store.set(index, (memo = { slots: new Array<T | undefined>(index.tools.length), made: 0 }));
  let v = memo.slots[doc];
  if (v === undefined) {
    if (memo.made >= VIEWS_KEPT) {
      memo.slots = new Array<T | undefined>(index.tools.length);
      memo.made = 0;
    }
    memo.slots[doc] = v = make();
    memo.made++;
  }
  return v;
}

/** The best score among `cands` (0 when there are none). */
export function bestScore(scores: Float32Array, cands: readonly number[]): number {
  let top = 0;
  for (const i of cands) top = Math.max(top, scores[i]!);
  return top;
}

/**
 * Adds `amount × weight(i)` to the score of each candidate whose weight is not 0, in place, and records each change
 * in `out` (the reason --explain shows); returns `out`, or null when it is empty.
 */
export function shiftScores(
  scores: Float32Array,
  cands: readonly number[],
  amount: number,
  weight: (i: number) => number,
  out: Map<number, number> = new Map(),
): Map<number, number> | null {
  for (const i of cands) {
    const w = weight(i);
    if (w === 0) continue;
    const delta = amount * w;
    scores[i] = scores[i]! + delta;
    out.set(i, delta);
  }
  return out.size > 0 ? out : null;
}
