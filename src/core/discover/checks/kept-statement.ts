/**
 * A request to keep a statement ("remember that …", lexicon.ts keptClause) asks to store beyond doubt: the
 * re-ranker, blind to the kept clause, may hand a reader its place back, so the action check runs again after it.
 * (Checking every request naming an action again lost one hit@5 each on two development sets: bench/RESULTS.md.)
 */
import { actionConflicts } from '../actions.js';
import type { Check } from './check.js';

export const keptStatementCheck: Check = {
  name: 'kept-statement',
  reason: 'action',
  doc: 'the same again after the re-ranker when the intent asks to keep a statement ("remember that alice works at acme")',
  stage: 'reranked',
  pool: 'top',
  reads: ['name', 'server', 'annotations'],
  applies: (c) => c.reranked && c.intent.kept >= 0,
  shift: (c, pool) => actionConflicts(c.index, c.actions, c.scores, c.allowed, pool),
};
