/**
 * The container of a contents question ("what's in the R2 bucket assets?"): the tool that answers takes the
 * container as input (r2_list_objects has a `bucket` parameter), where a tool listing the containers themselves
 * (r2_list_buckets) takes none. After the re-ranker, the best candidates whose top-level parameter names hold a
 * word of the container gain a share of the best score. The tool's own schema, not a list.
 */
import type { Check } from './check.js';
import type { DiscoverIndex } from '../build.js';
import { ACTION_PENALTY } from '../actions.js';
import { bestScore, kept, shiftScores, type ViewStore } from '../per-tool.js';
import { analyzeWords, splitWords } from '../tokenize.js';
import { topParams } from '../param-names.js';

/** Share of the best candidate's score a tool taking the container as input gains: the action check's share. */
export const CONTAINER_SHARE = ACTION_PENALTY;

const params: ViewStore<Set<string>> = new WeakMap();

/** The analysed words of a tool's top-level parameter names ("bucket", "calendarId" → calendar, id). */
function paramTerms(index: DiscoverIndex, doc: number): Set<string> {
  return kept(params, index, doc, () => {
    return new Set(analyzeWords(topParams(index.tools[doc]!.tool).flatMap((n) => splitWords(n))));
  });
}

/**
 * Raises `scores` of the candidates (`cands`, the best first) whose parameter names hold a word of `container`, in
 * place; returns what each gained (the `container` reason of --explain), or null when none did.
 */
export function containerInputs(
  index: DiscoverIndex,
  container: string,
  scores: Float32Array,
  cands: readonly number[],
  unstemmed?: (word: string) => boolean,
): Map<number, number> | null {
  const words = new Set(analyzeWords(splitWords(container), [], unstemmed));
  if (words.size === 0 || CONTAINER_SHARE <= 0) return null;
  const top = bestScore(scores, cands);
  if (!(top > 0)) return null;
  return shiftScores(scores, cands, CONTAINER_SHARE * top, (i) => {
    const takes = paramTerms(index, i);
    return [...words].some((w) => takes.has(w)) ? 1 : 0;
  });
}

export const containerInputCheck: Check = {
  name: 'container-input',
  reason: 'container',
  doc: 'a tool taking as input the container a "what\'s in X" question names (a `bucket` parameter for "what\'s in the bucket assets?") gains 5 % of the best score',
  stage: 'reranked',
  pool: 'near',
  reads: ['parameters'],
  applies: (c) => c.intent.mood.question && !!c.intent.mood.container,
  shift: (c, pool) => containerInputs(c.index, c.intent.mood.container!, c.scores, pool(), c.index.unstemmed),
};
