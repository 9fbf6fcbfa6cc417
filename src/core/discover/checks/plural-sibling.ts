/**
 * The singular sibling of a listing: a question after many things asks for a list, and among its best candidates a
 * name naming its object in the singular where another candidate's name is the same in the plural reads one item.
 */
import type { DiscoverIndex } from '../build.js';
import { bestScore, shiftScores } from '../per-tool.js';
import { splitWords } from '../tokenize.js';
import type { Check } from './check.js';
import { acts, NUMBER_PENALTY, nameWords, nounWords, pluralOf } from './noun-number.js';

/** Whether name `one` is name `many` with one word in the singular where `many` has its plural, the rest the same. */
export function singularSibling(
  one: readonly string[],
  many: readonly string[],
  asked: readonly string[] = [],
): boolean {
  if (one.length !== many.length || one.length === 0) return false;
  let differ = 0;
  for (let k = 0; k < one.length; k++) {
    if (one[k] === many[k]) continue;
    if (!pluralOf(one[k]!, many[k]!) || asked.includes(one[k]!) || ++differ > 1) return false;
  }
  return differ === 1;
}

/**
 * A question after many things ("do I have any unread emails?", mood.ts 'many') asks for a list: among the best
 * candidates, a name naming its object in the singular where another candidate's name is the same with that object
 * in the plural (get-mail-message beside list-mail-messages) reads one item, and loses the number share. The
 * question's own nouns need not be the tools' ("emails" against "messages"); a word it gives in the singular is
 * not checked. Returns each loss (reason `number`).
 */
export function siblingConflicts(
  index: DiscoverIndex,
  text: string,
  scores: Float32Array,
  cands: readonly number[],
  /** What the noun-number check shifted: those tools are not checked again. */
  had: ReadonlyMap<number, number> | undefined,
): Map<number, number> | null {
  const top = bestScore(scores, cands);
  if (!(top > 0)) return null;
  // A word the question itself gives in the singular names one thing ("the requests in the collection X").
  const asked = nounWords(splitWords(text));
  const sibling = (i: number): boolean => {
    const one = nameWords(index, i);
    return cands.some((j) => j !== i && singularSibling(one, nameWords(index, j), asked));
  };
  return shiftScores(scores, cands, -NUMBER_PENALTY * top, (i) =>
    !had?.has(i) && acts(index, i) && sibling(i) ? 1 : 0,
  );
}

export const pluralSiblingCheck: Check = {
  name: 'plural-sibling',
  reason: 'number',
  doc: 'in a question after many things, a tool reading one item (`get-mail-message`) where another candidate lists them (`list-mail-messages`) loses 5 % of the best score',
  stage: 'reranked',
  pool: 'near',
  reads: ['name', 'server'],
  applies: (c) => c.intent.mood.question && c.intent.mood.rule === 'many',
  shift: (c, pool) => siblingConflicts(c.index, c.intent.plain, c.scores, pool(), c.shifts.get('noun-number')),
};
