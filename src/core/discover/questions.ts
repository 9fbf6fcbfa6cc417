/**
 * Question grammar: the command a read question amounts to, by the shape of the question, not by its words. Each
 * rule is named (`rule`), and --explain shows which one read the question (named.ts, readingNotes). The only word
 * lists are closed classes: wh-words, auxiliaries, pronouns and prepositions.
 *
 * - count:    "how many documents are in the orders collection" → "count documents are in the orders collection"
 * - contents: "what's in the R2 bucket assets" → "list the R2 bucket assets" ("what's hot in X" → "list hot X"); with a topic after it,
 *             "what's on the web about Rust" → "search the web for Rust"
 * - says:     "what does the config.yaml file say" → "read the config.yaml file" (what a thing says, holds or
 *             reported is its content: the question's object is the thing itself)
 * - status:   "is the checkout flag on in production" → "check the status of the checkout flag on in production"
 * - where:    "where is the Q3 budget spreadsheet" → "look for the Q3 budget spreadsheet"
 * - topic:    "what do we know about alice" → "search what do we know about alice" (a question about a topic)
 */
import { isVerb } from './related.js';
import { stem } from './tokenize.js';

/** A word of a clause: lower case, with its [at, end) in the text. */
export interface Token {
  w: string;
  at: number;
  end: number;
}

/** The command a question was read as, and the rule that read it. */
export interface QuestionCommand {
  text: string;
  /** The container a contents question asks into ("the R2 bucket assets"): the tool to answer takes it as input. */
  container?: string;
  rule: 'count' | 'contents' | 'says' | 'status' | 'topic' | 'where';
}

const WORD = /[\p{L}\p{N}]+/gu;
const WH = new Set(['what', 'which', 'who', 'whom', 'whose', 'where', 'when', 'how', 'why']);

/** The words of a text with their offsets. */
export function tokens(text: string): Token[] {
  return [...text.matchAll(WORD)].map((m) => ({ w: m[0].toLowerCase(), at: m.index, end: m.index + m[0].length }));
}

// Forms of "be" after a wh-word ("what's" is what + s).
const BE = new Set(['is', 'are', 'am', 's', 're', 'was', 'were']);
const DO = new Set(['do', 'does', 'did']);
// Prepositions of a container: what is in / on / inside it.
const IN = new Set(['in', 'on', 'inside', 'within', 'under']);
// Personal pronouns and dummy subjects: "what do we know", "is it raining", "is there a way".
const PRONOUN = new Set(['i', 'we', 'you', 'they', 'he', 'she', 'it', 'there', 'this', 'that', 'these', 'those']);

/**
 * The command a read question amounts to (see the rules above), or undefined when no rule reads it. `text` is the
 * intent; `clause` its first clause's words (the rest of the intent is kept after the rewritten clause); `end` where
 * that clause ends in the text.
 */
export function questionCommand(text: string, clause: readonly Token[], end: number): QuestionCommand | undefined {
  if (clause.length < 2) return undefined;
  const w = (k: number): string | undefined => clause[k]?.w;
  const from = (k: number): string => (k < clause.length ? text.slice(clause[k]!.at, end) : '');
  const after = text.slice(end).replace(/^\?+/, '');
  const done = (head: string, rule: QuestionCommand['rule']): QuestionCommand => ({
    text: `${head.replace(/\s*\?+\s*$/, '')}${after}`,
    rule,
  });
  const about = clause.findIndex((t, k) => k >= 2 && t.w === 'about');

  // "how many X …": a count of X.
  if (w(0) === 'how' && w(1) === 'many' && clause.length > 2) return done(`count ${from(2)}`, 'count');

  // "what's in X", "what is on X", "what's left in X": X's contents, a listing (a search of X when a topic follows).
  // "what is written / stored in X", with a participle: what X holds, read. ("what's happening in X" asks for
  // events, not contents: no rule.)
  if (w(0) === 'what' && BE.has(w(1)!)) {
    const filler = IN.has(w(2)!) ? undefined : w(2);
    const p = filler === undefined ? 2 : IN.has(w(3)!) && !DO.has(filler) && !filler.endsWith('ing') ? 3 : -1;
    if (p > 0 && p + 1 < clause.length) {
      if (about > p + 1 && about + 1 < clause.length) {
        const place = text.slice(clause[p + 1]!.at, clause[about - 1]!.end);
        return done(`search ${place} for ${from(about + 1)}`, 'contents');
      }
      const participle = filler !== undefined && /(?:ed|en)$/.test(filler);
      // Any other word there says what of X is asked ("what's hot in r/rust", "what's left in the budget"): kept.
      const kept = filler !== undefined && !participle ? `${filler} ` : '';
      return {
        ...done(`${participle ? 'read' : 'list'} ${kept}${from(p + 1)}`, 'contents'),
        container: from(p + 1).replace(/\s*\?+\s*$/, ''),
      };
    }
  }

  // "what does X say", "what did X report (about Y)": read X. The verb ends the clause (or comes right before
  // "about"): "what" is its object, so what is asked for is X's content.
  if (w(0) === 'what' && DO.has(w(1)!) && !PRONOUN.has(w(2)!)) {
    const verb = about > 3 ? about - 1 : clause.length - 1;
    if (verb > 2 && isVerb(stem(clause[verb]!.w))) {
      const thing = text.slice(clause[2]!.at, clause[verb - 1]!.end);
      return done(about > 3 ? `read ${thing} about ${from(about + 1)}` : `read ${thing}`, 'says');
    }
  }

  // "where is X", "where are my notes": a search for X.
  if (w(0) === 'where' && BE.has(w(1)!) && clause.length > 2) return done(`look for ${from(2)}`, 'where');

  // "is X on", "are the checks passing": X's status.
  if ((w(0) === 'is' || w(0) === 'are') && !PRONOUN.has(w(1)!) && clause.length > 2) {
    return done(`check the status of ${from(1)}`, 'status');
  }

  // A question (led by a wh-word or an auxiliary) about a topic: a search.
  if ((WH.has(w(0)!) || DO.has(w(0)!) || BE.has(w(0)!)) && about >= 2 && about + 1 < clause.length) {
    return done(`search ${from(0)}`, 'topic');
  }
  return undefined;
}

/** What each rule of the question grammar read, as --explain says it (mood.ts adds the plural rules). */
export const RULE_NOTES: Record<QuestionCommand['rule'] | 'many' | 'narrows' | 'parts', string> = {
  count: '"how many" asks for a count',
  contents: '"what is in X" asks for what X holds',
  says: '"what does X say" asks to read X',
  status: '"is X …" asks for the state of X',
  topic: 'a question about a topic asks to search',
  where: '"where is X" asks to look for X',
  many: 'a question after many things asks for their list',
  narrows: 'a question narrowing many things asks to search them',
  parts: '"which Ns does X have" asks to describe X',
};
