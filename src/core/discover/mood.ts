/**
 * The mood of a request: a question ("what meetings do I have tomorrow", "which channels…", "do I have…", "is
 * there…") asks to know, so it asks to read, unless it asks how to do something else ("how do I delete…", "can you
 * add…"). Grammar, not a list of requests: a question is a clause led by a wh-word, or by an auxiliary verb and
 * its subject, or one ending in "?". bm25.ts adds the read action to a question that names no other.
 */
import type { ActionClass } from './lexicon.js';

const WH = new Set(['what', 'which', 'who', 'whom', 'whose', 'where', 'when', 'how', 'why']);
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

/** The first clause of an intent: up to its first sentence end or line break. */
function firstClause(intent: string): string {
  const m = /[.!?\n]/.exec(intent);
  return m ? intent.slice(0, m.index + (m[0] === '?' ? 1 : 0)) : intent;
}

/** Whether an intent asks a question (its first clause is one). */
export function isQuestion(intent: string): boolean {
  const clause = firstClause(intent.trim().toLowerCase());
  const words = [...clause.matchAll(WORD)].map((m) => m[0]);
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
  const words = [...firstClause(intent.toLowerCase()).matchAll(WORD)].map((m) => m[0]);
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
 * Whether a question asks for many things ("which issues…", "what collections…", "are there any…", "do I have
 * any…"), which a listing answers: its first content word is a plural (the stemmer takes an "s" off it), or it asks
 * about "any". `isStop` tells the words that are not content.
 */
export function asksForMany(intent: string, isStop: (word: string) => boolean, stem: (w: string) => string): boolean {
  if (!isQuestion(intent)) return false;
  for (const m of firstClause(intent.toLowerCase()).matchAll(WORD)) {
    const w = m[0];
    if (w === 'any') return true;
    if (isStop(w) || WH.has(w) || AUX.has(w)) continue;
    return w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && stem(w) !== w;
  }
  return false;
}
