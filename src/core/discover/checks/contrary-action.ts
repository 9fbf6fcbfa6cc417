/**
 * The first stage's action check (actions.ts actionConflicts): among the best candidates, a tool whose name's verb
 * contradicts every action the intent's verbs ask for loses a share of the best score, twice that when it deletes.
 */
import { actionConflicts } from '../actions.js';
import type { Check } from './check.js';

export const contraryActionCheck: Check = {
  name: 'contrary-action',
  reason: 'action',
  doc: "a tool whose name's verb contradicts every action the intent's verbs ask for (add vs delete, read vs write) loses 5 % of the best score, 10 % when it deletes (its verb or `destructiveHint`)",
  stage: 'fused',
  pool: 'top',
  reads: ['name', 'server', 'annotations'],
  applies: () => true,
  shift: (c, pool) => actionConflicts(c.index, c.actions, c.scores, c.allowed, pool),
};
