/**
 * The mood of a request: a question ("what meetings do I have tomorrow", "which channels…", "do I have…", "is
 * there…") asks to know, so it asks to read, unless it asks how to do something else ("how do I delete…", "can you
 * add…"). Grammar, not a list of requests: a question is a clause led by a wh-word, or by an auxiliary verb and
 * its subject, or one ending in "?". bm25.ts adds the read action to a question that names no other.
 */
import { actionOf, type ActionClass } from './lexicon.js';
import { questionCommand, tokens, type QuestionCommand } from './questions.js';
import { STOP_WORDS, stem } from './tokenize.js';

const WH = new Set(['what', 'which', 'who', 'whom', 'whose', 'where', 'when', 'how', 'why']);
// The wh-words a noun may follow ("which channels", "what meetings", "whose tasks").
const NOUN_WH = new Set(['what', 'which', 'whose']);
const AUX = new Set([
  'do',
  'does',
  'did',
  'is',
  'are',
  'was',
  'were',
  'am',
  'have',
  'has',
  'had',
  'can',
  'could',
  'should',
  'will',
  'would',
  'may',
  'might',
]);
// Auxiliaries of the past and perfect: an action verb after one is asked about, not asked for ("what did I change").
const PAST = new Set(['did', 'was', 'were', 'has', 'have', 'had']);
// Subjects an auxiliary-led question starts with ("do I…", "is there…", "are any…").
const SUBJECT = new Set([
  'i',
  'we',
  'you',
  'there',
  'it',
  'they',
  'my',
  'our',
  'any',
  'this',
  'that',
  'these',
  'those',
]);
// Subjects of a request put as a question ("can you add…", "could we create…", "would you…").
const ASKED_OF = new Set(['you', 'we', 'i']);
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Where the first clause of an intent ends: at its first sentence end (a full stop, "!" or "?" before a space or the
 * end; not the dot of "config.yaml") or line break, a question mark included.
 */
function clauseEnd(intent: string): number {
  const m = /[.!?](?=\s|$)|\n/.exec(intent);
  return m ? m.index + (m[0] === '?' ? 1 : 0) : intent.length;
}

/** The first clause of an intent (clauseEnd). */
function firstClause(intent: string): string {
  return intent.slice(0, clauseEnd(intent));
}

// The last intent's first clause words and whether it asks a question: askedAs reads them several times.
let lastIntent: string | undefined;
let lastWords: string[] = [];
let lastQuestion = false;

/** The lower-case words of an intent's first clause. */
function clauseWords(intent: string): string[] {
  if (intent !== lastIntent) {
    lastIntent = intent;
    lastWords = [...firstClause(intent.toLowerCase()).matchAll(WORD)].map((m) => m[0]);
    lastQuestion = asksQuestion(intent, lastWords);
  }
  return lastWords;
}

/** Whether an intent asks a question (its first clause is one). */
export function isQuestion(intent: string): boolean {
  clauseWords(intent);
  return lastQuestion;
}

function asksQuestion(intent: string, words: readonly string[]): boolean {
  const clause = firstClause(intent.trim().toLowerCase());
  if (words.length === 0) return false;
  const [w0, w1] = words;
  if (WH.has(w0!)) return true;
  if (AUX.has(w0!) && w1 !== undefined && SUBJECT.has(w1)) {
    // "can you add…", "could we create…": a request put politely, not a question.
    return !(ASKED_OF.has(w1) && !PAST.has(w0!) && w0 !== 'do' && w0 !== 'does' && w0 !== 'am');
  }
  return clause.endsWith('?');
}

// Words an action verb follows when the question asks for that action: "how do I delete…", "can you add…", "how
// to rename…".
const ASKER = new Set(['i', 'we', 'you', 'to']);

/**
 * The action a question asks for (undefined when the intent is no question): the action of a verb right after its
 * asker ("how do I delete…" asks to delete, "can you add…" to add) unless a past auxiliary came first ("what did I
 * change" asks about a change); read otherwise. `actionOf` gives a word's action class (lexicon.ts).
 */
export function questionAction(
  intent: string,
  actionOf: (word: string) => ActionClass | undefined,
): ActionClass | undefined {
  if (!isQuestion(intent)) return undefined;
  const words = clauseWords(intent);
  let past = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (PAST.has(w)) past = true;
    if (i === 0 || !ASKER.has(words[i - 1]!)) continue;
    const cls = actionOf(w);
    if (cls !== undefined) return past ? 'read' : cls;
  }
  return 'read';
}

/**
 * Whether a question asks for many things ("which Slack channels…", "what meetings…", "are there Shortcut
 * epics…", "do I have any…"), which a listing answers: the words after its wh-word or its "are there" hold a plural
 * (the stemmer takes an "s" off it) before the next auxiliary or stop word, or it asks about "any".
 */
export function asksForMany(intent: string, isStop: (word: string) => boolean, stem: (w: string) => string): boolean {
  if (!isQuestion(intent)) return false;
  const words = clauseWords(intent);
  return words.includes('any') || pluralAt(words, isStop, stem) >= 0;
}

/**
 * Where the plural a question asks after stands in its words (asksForMany), or -1: the last plural of the words
 * after its wh-word, before the next auxiliary or stop word ("Kubernetes events" asks after events).
 */
function pluralAt(words: readonly string[], isStop: (word: string) => boolean, stem: (w: string) => string): number {
  let i = 0;
  let at = -1;
  // "who", "how", "where"… stand for a person, a manner, a place: a verb follows them ("who follows…"), not a noun.
  if (WH.has(words[0]!) && !NOUN_WH.has(words[0]!)) return -1;
  while (i < words.length && (WH.has(words[i]!) || AUX.has(words[i]!) || words[i] === 'there')) i++;
  for (; i < words.length && !isStop(words[i]!) && !AUX.has(words[i]!); i++) {
    const w = words[i]!;
    // "status", "analysis", "access" end in "s" and are singular.
    if (w.length > 3 && w.endsWith('s') && !/(?:ss|us|is)$/.test(w) && stem(w) !== w) at = i;
  }
  return at;
}

// What follows a plural when it says where the things are, or only that they exist ("which files are in…", "what
// meetings do I have", "which monitors are alerting"): the question asks for all of them, a listing.
const WHERE = new Set(['in', 'on', 'at', 'from', 'of', 'under', 'inside', 'this', 'today', 'right', 'now']);
const BEING = new Set(['are', 'is', 'am', 'was', 'were', 'do', 'does', 'did', 'have', 'has', 'had', 'exist']);

/**
 * Whether a question after many things narrows them by what they hold or do ("which Linear issues mention…", "are
 * there Shortcut epics about billing", "which contacts work at Acme", "which models can upscale…"): the word right
 * after its plural is no auxiliary of being, no word of place or time, no auxiliary before its subject ("can I…"),
 * no past tense ("failed last night": what happened to them, a listing's filter) and not followed by "to" ("report
 * to…"). A search answers that, not a listing.
 */
export function narrowsMany(intent: string, isStop: (word: string) => boolean, stem: (w: string) => string): boolean {
  if (!isQuestion(intent)) return false;
  const words = clauseWords(intent);
  const at = pluralAt(words, isStop, stem);
  const next = at >= 0 ? words[at + 1] : undefined;
  if (next === undefined || BEING.has(next) || WHERE.has(next) || next.endsWith('ed')) return false;
  const after = words[at + 2];
  return after !== 'to' && !(AUX.has(next) && after !== undefined && SUBJECT.has(after));
}

/**
 * Whether a question after many things asks for the parts of one thing it names ("which fields does the Airtable
 * table Leads have?", "what columns do the orders rows hold?"): the plural is followed by do/does/did and a subject
 * that is no pronoun. The thing is to be described, not its kind listed ("which sites do I have" lists).
 */
export function asksForParts(intent: string, isStop: (word: string) => boolean, stem: (w: string) => string): boolean {
  if (!isQuestion(intent)) return false;
  const words = clauseWords(intent);
  const at = pluralAt(words, isStop, stem);
  const aux = at >= 0 ? words[at + 1] : undefined;
  const subject = at >= 0 ? words[at + 2] : undefined;
  return (
    (aux === 'do' || aux === 'does' || aux === 'did') &&
    subject !== undefined &&
    !SUBJECT.has(subject) &&
    !ASKED_OF.has(subject) &&
    subject !== 'they'
  );
}

// Words that end a state: prepositions and words of time ("waiting in the repository" says where; "this week").
const STATE_END = new Set([...WHERE, 'to', 'by', 'with', 'since', 'during', 'within', 'yesterday', 'tonight']);

/**
 * The words of the state a question asks many things to be in ("which monitors are alerting", "which merge
 * requests are open", "which runs failed last night"): after the plural, "are" / "is" / "were" / "was" and the
 * words up to a preposition or a stop word, or a past tense and the words after it. They filter the listing; they
 * do not say what to list (state.ts weighs them STATE_WEIGHT). None when the question asks after no plural.
 */
export function stateWords(intent: string, isStop: (word: string) => boolean, stem: (w: string) => string): string[] {
  if (!isQuestion(intent)) return [];
  const words = clauseWords(intent);
  const at = pluralAt(words, isStop, stem);
  if (at < 0) return [];
  let i = at + 1;
  const next = words[i];
  if (next === 'are' || next === 'is' || next === 'were' || next === 'was') i++;
  else if (next === undefined || !next.endsWith('ed')) return [];
  const out: string[] = [];
  for (; i < words.length && !STATE_END.has(words[i]!) && !isStop(words[i]!); i++) out.push(words[i]!);
  return out;
}

/** An intent as it is ranked: a read question as its command, and whether it was a question. */
export interface Asked {
  text: string;
  question: boolean;
  /** A question asking to read. */
  read: boolean;
  /** The question grammar's rule that gave `text` (questions.ts; 'many' and 'narrows' for the plural rules). */
  rule?: QuestionCommand['rule'] | 'many' | 'narrows' | 'parts';
  /** The words of the state a listing is filtered by (stateWords), weighed less. */
  state?: string[];
  /** The container a contents question asks into (questions.ts): the tool to answer takes it as input. */
  container?: string;
}

const isStop = (w: string): boolean => w.length < 2 || STOP_WORDS.has(w);

/**
 * The command a question amounts to: a question asking after many things (asksForMany) gets the verb of its answer,
 * "list", in front and loses its question mark, so the ranking reads the action as it reads a command's. Other
 * intents are ranked as they are (a question asking to read is still one: `read`).
 */
export function askedAs(intent: string): Asked {
  const action = questionAction(intent, (w) => actionOf(stem(w)));
  if (action === undefined) return { text: intent, question: false, read: false };
  if (action !== 'read') return { text: intent, question: true, read: false };
  const trimmed = intent.trim();
  const end = clauseEnd(trimmed);
  const command = questionCommand(trimmed, tokens(trimmed.slice(0, end)), end);
  if (command) {
    const { text, rule, container } = command;
    return { text, question: true, read: true, rule, ...(container ? { container } : {}) };
  }
  if (!asksForMany(intent, isStop, stem)) return { text: intent, question: true, read: true };
  // Many things a named thing holds or did ("which fields does the table have"): that thing described.
  if (asksForParts(intent, isStop, stem)) {
    return { text: `describe ${trimmed.replace(/\?+$/, '')}`, question: true, read: true, rule: 'parts' };
  }
  // A question narrowing many things asks to search them; one asking after all of them, to list them.
  const narrows = narrowsMany(intent, isStop, stem);
  const state = narrows ? [] : stateWords(intent, isStop, stem);
  return {
    text: `${narrows ? 'search' : 'list'} ${trimmed.replace(/\?+$/, '')}`,
    question: true,
    read: true,
    rule: narrows ? 'narrows' : 'many',
    ...(state.length > 0 ? { state } : {}),
  };
}
