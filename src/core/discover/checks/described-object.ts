/**
 * What a tool's description says it does first: "List KV namespaces in your account" lists namespaces. A read
 * question whose own words hold that object's head noun in the same surface form (the number the stems erase)
 * asks for what the tool says it returns: among the best candidates, such a tool gains a share of the best score.
 */
import type { Check } from './check.js';
import type { DiscoverIndex } from '../build.js';
import { ACTION_PENALTY } from '../actions.js';
import { actionOf } from '../lexicon.js';
import { bestScore, kept, shiftScores, type ViewStore } from '../per-tool.js';
import { splitWords, stem, STOP_WORDS } from '../tokenize.js';

/** Share of the best candidate's score gained by a tool whose description's object the question names. */
export const DESCRIBED_SHARE = ACTION_PENALTY;

const HEAD =
  /^\s*([A-Za-z]+)\s+([^.,;:()\n]*?)(?=\s+(?:in|for|of|from|on|with|by|to|and|that|which|using|via)\b|[.,;:()\n]|$)/;

/** The read verb's object head of a description ("List KV namespaces in …" → "namespaces"), or undefined. */
export function describedObject(description: string): string | undefined {
  const m = HEAD.exec(description);
  if (!m || actionOf(stem(m[1]!.toLowerCase())) !== 'read') return undefined;
  const words = splitWords(m[2]!).filter((w) => !STOP_WORDS.has(w));
  return words.length > 0 ? words[words.length - 1] : undefined;
}

/**
 * Whether a command opens with a read verb ("list my KV namespaces", "get the reviews of PR 17"): it asks for the
 * verb's object as surely as a read question does. (Any command asking to read, its verb anywhere, lost a hit@5 on
 * BFCL turns: bench/RESULTS.md.)
 */
export function opensWithRead(text: string): boolean {
  const first = /^\s*([A-Za-z]+)/.exec(text);
  return first !== null && actionOf(stem(first[1]!.toLowerCase())) === 'read';
}

const PLACE = /\s(?:in|on|of|for|from|at|inside|within|under|about|to|by|with)\s/i;

const memo: ViewStore<string | null> = new WeakMap();

/** Raises `scores` of the candidates whose description's object is one of the question's words; returns each gain. */
export function describedObjects(
  index: DiscoverIndex,
  text: string,
  scores: Float32Array,
  cands: readonly number[],
): Map<number, number> | null {
  // The thing asked comes before the place asked in: the words before the first preposition.
  const cut = PLACE.exec(text);
  const asked = new Set(splitWords(cut ? text.slice(0, cut.index) : text));
  const top = bestScore(scores, cands);
  if (!(top > 0)) return null;
  return shiftScores(scores, cands, DESCRIBED_SHARE * top, (i) => {
    const o = kept(memo, index, i, () => describedObject(index.tools[i]!.tool.description ?? '') ?? null);
    return o !== null && asked.has(o) ? 1 : 0;
  });
}

export const describedObjectCheck: Check = {
  name: 'described-object',
  reason: 'described',
  doc: 'a tool whose description opens by returning what a read question or a command opening with a read verb asks for ("List KV namespaces…" for "which KV namespaces do I have?") gains 5 % of the best score',
  stage: 'reranked',
  pool: 'near',
  reads: ['description'],
  applies: (c) => (c.intent.mood.question ? c.intent.mood.read : opensWithRead(c.intent.text)),
  shift: (c, pool) => describedObjects(c.index, c.intent.plain, c.scores, pool()),
};
