/**
 * The first stage's action check: a tool whose name starts with a verb of one action class (lexicon.ts) loses a
 * share of the best score when the intent asks for another action (add vs delete, read vs write), twice that when
 * the tool is destructive (a delete verb or the destructiveHint annotation). Only the best candidates are checked:
 * the check reorders the top, as the re-ranker does, and costs nothing on the rest of a large index.
 */
import type { DiscoverIndex } from './build.js';
import { topK } from './candidates.js';
import { actionNameWords, actionsConflict, toolAction, type ActionClass } from './lexicon.js';
import { kept, shiftScores, type ViewStore } from './per-tool.js';
import { isVerb } from './related.js';
import { actionReading } from './forms.js';

/** Candidates checked (the re-ranker's depth and then some, so that a penalised tool can leave its top). */
export const ACTION_DEPTH = 40;
/** Share of the best candidate's score a contradicting tool loses; a destructive one loses twice this. */
export const ACTION_PENALTY = 0.05;

/**
 * Lowers `scores` of the contradicting tools among the best candidates, in place; returns what each lost (a
 * negative number, the `action` reason of --explain), or null when the intent names no action.
 */
export function actionConflicts(
  index: DiscoverIndex,
  asked: ReadonlySet<ActionClass>,
  scores: Float32Array,
  keep: (i: number) => boolean,
  /** The candidates, best first (asked for only when the intent names an action). */
  pool: () => readonly number[] = () => topK(scores, ACTION_DEPTH, keep),
): Map<number, number> | null {
  if (asked.size === 0) return null;
  const cands = pool();
  if (cands.length === 0) return null;
  const top = scores[cands[0]!]!;
  if (!(top > 0)) return null;
  const classes = [...asked];
  return shiftScores(scores, cands, -ACTION_PENALTY * top, (i) => {
    const action = nameAction(index, i);
    if (action === undefined || asked.has(action)) return 0;
    if (!classes.every((a) => actionsConflict(a, action))) return 0;
    return isDestructive(index, i, action) ? 2 : 1;
  });
}

/**
 * The action class a tool's name says it performs, as the action check reads it (its analysed name less the words
 * that cannot be its verb), or undefined; kept per index in one slot per tool (null: not read yet), as it depends on
 * the tool alone and the check asks it of 40 candidates per intent.
 */
export function nameAction(index: DiscoverIndex, doc: number): ActionClass | undefined {
  let slots = nameActions.get(index);
  if (slots?.length !== index.tools.length)
    nameActions.set(index, (slots = new Array<ActionClass | undefined | null>(index.tools.length).fill(null)));
  let action = slots[doc];
  if (action === null) slots[doc] = action = toolAction(actionReading(index, doc, index.nameOf(doc)));
  return action;
}
const nameActions = new WeakMap<DiscoverIndex, (ActionClass | undefined | null)[]>();

/** Whether a tool doing `action` destroys: a delete verb, or the destructiveHint annotation. */
export function isDestructive(index: DiscoverIndex, doc: number, action: ActionClass | undefined): boolean {
  const ann = index.tools[doc]!.tool.annotations as { destructiveHint?: unknown } | undefined;
  return action === 'delete' || ann?.destructiveHint === true;
}

/**
 * A tool's name words as the question check reads them (lexicon.ts actionNameWords), less the words that cannot
 * be its verb (forms.ts).
 */
export function verbName(index: DiscoverIndex, doc: number): readonly string[] {
  return kept(verbNames, index, doc, () => actionReading(index, doc, actionNameWords(index.tools[doc]!.tool.name)));
}
const verbNames: ViewStore<readonly string[]> = new WeakMap();

/** Whether a tool's name says it acts: a verb of an action class other than read, or a word WordNet has mostly as a verb. */
export function nameActs(index: DiscoverIndex, doc: number): boolean {
  const name = verbName(index, doc);
  const action = toolAction(name);
  return action !== undefined ? action !== 'read' : name.slice(0, 2).some((w) => isVerb(w));
}
