/**
 * Whether a tool acts (writes, sends, changes) rather than reads, from the tool itself: what the question check
 * after the re-ranker (checks/acting-tool.ts questionConflicts) weighs. Each kind of evidence counts once:
 * - `name`: the name's verb is of an action class other than read, or a word WordNet has mostly as a verb
 *   (actions.ts nameActs); an agent noun ending the name, the head of the compound, decides instead
 *   ("netlify-deploy-services-updater" updates, "netlify-deploy-services-reader" reads);
 * - `annotations`: the server says so (destructiveHint, or readOnlyHint false);
 * - `description`: it opens with a verb tool names use to create, update or delete ("Create a new pull request…"),
 *   in a first sentence naming no read verb besides ("Create playlists, search for music…" does several things).
 * A name whose verb reads ("describe_sheets", "post-search") reads, whatever its annotations say: servers get
 * those wrong more often than their names (bench/RESULTS.md, issue 29: tools that act).
 */
import type { DiscoverIndex } from './build.js';
import { actionNameWords, actionOf, toolAction, toolVerbs, type ActionClass } from './lexicon.js';
import { kept, type ViewStore } from './per-tool.js';
import { isVerb } from './related.js';
import { splitWords, stem, STOP_WORDS } from './tokenize.js';

/** The kinds of evidence that a tool acts (--explain names them). */
export type ActsSource = 'name' | 'annotations' | 'description';

/**
 * How many question shares (checks/acting-tool.ts QUESTION_PENALTY) each kind of evidence costs: the server's own statement
 * two, a name or description read by the lexicon one (annotations at 2 and 3 gained one hit@5 each on the
 * servers-111 intents and questions and moved nothing else; the description at 2 lost hit@1 on MetaTool and BFCL).
 */
export const SHARES: Readonly<Record<ActsSource, number>> = { name: 1, annotations: 2, description: 1 };

const AGENT_SUFFIXES = ['er', 'or', 'r'];

/**
 * The action class of an agent noun made from a verb of a class ("updater" → update, "creator" → create, "reader"
 * → read, "setter" → set), or undefined. The verb has at least four letters ("seer" is no "see"-er here).
 */
export function agentAction(word: string): ActionClass | undefined {
  for (const suffix of AGENT_SUFFIXES) {
    if (!word.endsWith(suffix) || word.length < suffix.length + 4) continue;
    const base = word.slice(0, -suffix.length);
    for (const v of [base, `${base}e`, base.replace(/([^aeiou])\1$/, '$1')]) {
      const cls = actionOf(stem(v));
      if (cls !== undefined) return cls;
    }
  }
  return undefined;
}

/** The action an agent noun ending a tool's name says it performs ("…-services-updater" → update), or undefined. */
export function nameAgent(name: string): ActionClass | undefined {
  const words = splitWords(name);
  const last = words[words.length - 1];
  return last === undefined ? undefined : agentAction(last);
}

/**
 * Whether a description opens with a verb that acts: one of the verbs tool names use to create, update or delete
 * (lexicon.ts toolVerbs: "Create…", "Add…", "Update…", "Set…", "Delete…"), in a first sentence naming no read verb.
 */
export function descriptionActs(description: string | undefined): boolean {
  const m = /^\s*([A-Za-z]+)\b/.exec(description ?? '');
  if (!m) return false;
  const st = stem(m[1]!.toLowerCase());
  const cls = actionOf(st);
  if (cls === undefined || cls === 'read' || !toolVerbs(cls).includes(st)) return false;
  const first = /^[^.!?\n]*/.exec(description!.trim())![0];
  return !splitWords(first).some((w) => actionOf(stem(w)) === 'read');
}

/** Whether a tool's annotations say it acts: destructiveHint, or readOnlyHint false. */
export function annotationsAct(annotations: unknown): boolean {
  const a = annotations as { readOnlyHint?: unknown; destructiveHint?: unknown } | undefined;
  return a?.destructiveHint === true || a?.readOnlyHint === false;
}

const NONE: readonly ActsSource[] = [];

/**
 * The evidence that tool `doc` acts, kept per index (none when its name reads). `nameActs` is the name check
 * (actions.ts), which the question check used alone before.
 */
export function actsEvidence(
  index: DiscoverIndex,
  doc: number,
  nameActs: (index: DiscoverIndex, doc: number) => boolean,
): readonly ActsSource[] {
  return kept(memo, index, doc, () => {
    const tool = index.tools[doc]!.tool;
    const agent = nameAgent(tool.name);
    const named = agent ?? toolAction(actionNameWords(tool.name));
    if (named === 'read') return NONE;
    const out: ActsSource[] = [];
    if (agent !== undefined || nameActs(index, doc)) out.push('name');
    if (annotationsAct(tool.annotations)) out.push('annotations');
    if (descriptionActs(tool.description)) out.push('description');
    return out.length > 0 ? out : NONE;
  });
}
const memo: ViewStore<readonly ActsSource[]> = new WeakMap();

/**
 * Whether a sentence after an intent's first asks to act: it is no question, and its first content word is a verb
 * of an action class other than read, or, opening the sentence (an imperative, not after "can you"), a word WordNet
 * has mostly as a verb ("Where are my notes? Forward them to Bob." asks to forward as well). The question check,
 * which reads the first sentence's mood, then holds no tool that acts back.
 */
export function asksToActBesides(intent: string, isQuestion: (sentence: string) => boolean): boolean {
  // One sentence (most intents): nothing after it.
  if (!/[.!?]\s+\S|\n\s*\S/.test(intent)) return false;
  const sentences = intent.split(/(?<=[.!?])\s+|\n+/).filter((s) => s.trim() !== '');
  for (const s of sentences.slice(1)) {
    if (isQuestion(s)) continue;
    const words = splitWords(s);
    const at = words.findIndex((w) => !STOP_WORDS.has(w) && !/^\d/.test(w));
    if (at < 0) continue;
    const st = stem(words[at]!);
    const cls = actionOf(st);
    if (cls !== undefined ? cls !== 'read' : at === 0 && isVerb(st)) return true;
  }
  return false;
}

/** The --explain reason of each kind of evidence (`name` keeps the question check's own reason). */
const REASON: Record<ActsSource, string> = { name: 'question', annotations: 'hints', description: 'opening' };

/**
 * A question check's loss of a tool (`total`, shared among its kinds of evidence by their SHARES) as --explain
 * reasons: `question` for its name, `hints` for its annotations, `opening` for its description's opening verb.
 */
export function actsReasons(sources: readonly ActsSource[], total: number): Record<string, number> {
  const shares = actsShares(sources);
  const out: Record<string, number> = {};
  for (const s of sources) out[REASON[s]] = (total * SHARES[s]) / shares;
  return out;
}

/** The question shares a tool's evidence costs (SHARES summed). */
export function actsShares(sources: readonly ActsSource[]): number {
  let n = 0;
  for (const s of sources) n += SHARES[s];
  return n;
}
