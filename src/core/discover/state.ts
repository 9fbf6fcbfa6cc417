/**
 * The state a listing question asks its things to be in ("which monitors are alerting": mood.ts, stateWords) filters
 * the listing; it does not say what to list, so its words weigh less in the BM25 query than the things asked for.
 */
import type { Bm25Query } from './bm25.js';
import { analyzeWords, splitWords } from './tokenize.js';

/** Weight of a term only the state words of a listing question hold (mood.ts, stateWords). */
export const STATE_WEIGHT = 0.5;

/**
 * The query with the terms that only the question's state words give ("alerting" in "which monitors are
 * alerting") at STATE_WEIGHT, when they weigh more; the query itself when none do.
 */
export function mutedState(
  query: Bm25Query,
  text: string,
  state: readonly string[] | undefined,
  unstemmed?: (word: string) => boolean,
): Bm25Query {
  if (!state || state.length === 0) return query;
  const count = (terms: readonly string[]): Map<string, number> => {
    const m = new Map<string, number>();
    for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  };
  const all = count(analyzeWords(splitWords(text), [], unstemmed));
  const only = count(analyzeWords(state, [], unstemmed));
  let weights: number[] | null = null;
  query.literal.forEach((t, k) => {
    const n = only.get(t);
    if (n === undefined || n !== all.get(t) || query.weights[k]! <= STATE_WEIGHT) return;
    weights ??= [...query.weights];
    weights[k] = STATE_WEIGHT;
  });
  return weights ? { ...query, weights } : query;
}
