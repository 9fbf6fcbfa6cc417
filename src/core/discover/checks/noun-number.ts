/**
 * Grammatical number, a surface form the stemmer erases: "workspaces" and "workspace" are one term, but an intent
 * asking after many workspaces wants getWorkspaces, and one asking what is in one calendar does not want
 * listCalendars (the calendars themselves). After the re-ranker (which sees only stems), the best candidates whose
 * name holds a word of a question in the other number lose a share of the best score. Questions only: their number
 * is marked ("which workspaces are…", "what is in the bucket"); a command's plural may ask for one call per item
 * ("delete these files" → delete_file), and checking commands too lost hit@5 on two development sets.
 */
import type { DiscoverIndex } from '../build.js';
import type { Check } from './check.js';
import { topK } from '../candidates.js';
import { ACTION_PENALTY, verbName } from '../actions.js';
import { actionOf } from '../lexicon.js';
import { bestScore, kept, shiftScores, type ViewStore } from '../per-tool.js';
import { isVerb } from '../related.js';
import { expandAbbreviation, splitWords, stem, STOP_WORDS } from '../tokenize.js';

/**
 * Candidates checked: the re-ranker's ten and as many again (a share of the best score moves a tool among the top,
 * not up from far below). The checks' `near` pool (index.ts).
 */
export const NUMBER_DEPTH = 20;
/**
 * Share of the best candidate's score a tool whose name disagrees in number loses: the action check's share
 * (chosen on the development sets among 0.05, 0.1 and 0.2: bench/RESULTS.md).
 */
export const NUMBER_PENALTY = ACTION_PENALTY;

/** Whether `many` is the plural `one` takes: +s, +es, or y → ies ("workspace" → "workspaces", "query" → "queries"). */
export function pluralOf(one: string, many: string): boolean {
  // Lengths first: the check runs for every pair of question and name words of 40 candidates.
  const d = many.length - one.length;
  if (d === 1) return many.endsWith('s') && many.startsWith(one);
  if (d !== 2) return false;
  if (many.endsWith('es') && many.startsWith(one)) return true;
  return one.endsWith('y') && many.endsWith('ies') && many.startsWith(one.slice(0, -1));
}

/** The words of a text as the number check reads them: lower case, abbreviations written out, stop words out. */
export function nounWords(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    if (w.length < 3 || STOP_WORDS.has(w) || /\d/.test(w)) continue;
    for (const x of expandAbbreviation(w) ?? [w]) if (actionOf(stem(x)) === undefined) out.push(x);
  }
  return out;
}

const names: ViewStore<string[]> = new WeakMap();

/** A tool's name as the number checks read it (nounWords). */
export function nameWords(index: DiscoverIndex, doc: number): string[] {
  return kept(names, index, doc, () => nounWords(splitWords(index.tools[doc]!.tool.name)));
}

/** Whether one of a name's first two words is a verb (actions.ts verbName): an action class's, or mostly a verb. */
export function acts(index: DiscoverIndex, doc: number): boolean {
  return verbName(index, doc)
    .slice(0, 2)
    .some((w) => actionOf(w) !== undefined || isVerb(w));
}

/** Whether a name holds one of the asked words in the other number (and not also in the same). */
function disagrees(asked: readonly string[], name: readonly string[]): boolean {
  for (const t of name) {
    if (asked.includes(t)) continue;
    for (const w of asked) if (pluralOf(w, t) || pluralOf(t, w)) return true;
  }
  return false;
}

/**
 * Lowers `scores` of the best candidates whose name holds one of the intent's nouns (`text`'s words) in the other
 * number, in place; returns what each lost (the `number` reason of --explain), or null when none did.
 */
export function numberConflicts(
  index: DiscoverIndex,
  text: string,
  scores: Float32Array,
  keep: (i: number) => boolean,
  /** The best candidates, when the caller has them (the question check's). */
  given?: readonly number[],
): Map<number, number> | null {
  const asked = nounWords(splitWords(text));
  if (asked.length === 0) return null;
  const cands = given ?? topK(scores, NUMBER_DEPTH, keep);
  const top = bestScore(scores, cands);
  if (!(top > 0)) return null;
  // Only a name that acts on an object ("listCalendars", "getWorkspace"), not a product's ("PodcastTool").
  return shiftScores(scores, cands, -NUMBER_PENALTY * top, (i) =>
    acts(index, i) && disagrees(asked, nameWords(index, i)) ? 1 : 0,
  );
}

export const nounNumberCheck: Check = {
  name: 'noun-number',
  reason: 'number',
  doc: "a tool whose name holds a question's noun in the other number (`listCalendars` for what is in one calendar) loses 5 % of the best score",
  stage: 'reranked',
  pool: 'near',
  reads: ['name', 'server'],
  applies: (c) => c.intent.mood.question,
  shift: (c, pool) => numberConflicts(c.index, c.intent.plain, c.scores, c.allowed, pool()),
};
