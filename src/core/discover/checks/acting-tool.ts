/**
 * A question asks to read (mood.ts): after the re-ranker (trained on commands, blind to the mood), the candidates
 * that act lose a share of the best score for each share of evidence that they do (acts.ts).
 */
import type { DiscoverIndex } from '../build.js';
import { ACTION_PENALTY, nameActs } from '../actions.js';
import { actsEvidence, actsReasons, actsShares, asksToActBesides } from '../acts.js';
import { isQuestion } from '../mood.js';
import { shiftScores } from '../per-tool.js';
import type { Check } from './check.js';

/**
 * Share of the best candidate's score a tool that acts loses when the intent is a question asking to read: the
 * action check's share (chosen on the servers-111 questions among 0.05, 0.1, 0.2 and 0.35; bench/RESULTS.md).
 */
export const QUESTION_PENALTY = ACTION_PENALTY;

/**
 * A question asks to read (mood.ts): after the re-ranker (trained on commands, blind to the mood), the candidates
 * that act lose QUESTION_PENALTY of the best score for each share of evidence that they do (acts.ts): their name (a
 * verb of another action class, or a word WordNet has mostly as a verb: "send", "deploy", "sync"), their
 * annotations (destructiveHint, readOnlyHint false; two shares), their description's opening verb. Returns each loss.
 */
export function questionConflicts(
  index: DiscoverIndex,
  scores: Float32Array,
  /** The best candidates, best first. */
  cands: readonly number[],
): Map<number, number> | null {
  const top = cands.length > 0 ? scores[cands[0]!]! : 0;
  if (!(top > 0)) return null;
  return shiftScores(scores, cands, -QUESTION_PENALTY * top, (i) => actsShares(actsEvidence(index, i, nameActs)));
}

export const actingToolCheck: Check = {
  name: 'acting-tool',
  reason: 'question',
  doc: 'when a question asks to read, a tool that acts loses 5 % of the best score for each share of evidence that it does (a negative amount, shown by its evidence):',
  stage: 'reranked',
  pool: 'best',
  reads: ['name', 'server', 'annotations', 'description'],
  // Not when a sentence after the question asks to act: "Where are my notes? Forward them to Bob."
  applies: (c) => c.intent.mood.question && c.intent.mood.read && !asksToActBesides(c.intent.raw, isQuestion),
  shift: (c, pool) => questionConflicts(c.index, c.scores, pool()),
  parts: {
    docs: {
      question:
        'its name: a verb of another action class, a word WordNet has mostly as a verb (`send`, `deploy`), or an agent noun made from one (`updater`); one share',
      hints: 'its annotations (`destructiveHint`, or `readOnlyHint` false); two shares',
      opening: 'its description opening with a verb tool names use to create, update or delete; one share',
    },
    split: (index, doc, amount) => actsReasons(actsEvidence(index, doc, nameActs), amount),
  },
};
