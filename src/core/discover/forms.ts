/**
 * Which of a tool name's words can say what it does. The action and question checks read a name's first words as
 * its verb, on stems; but the stemmer joins nouns to verbs ("news" → new, "collection" → collect, "testing" → test,
 * "files" → file), and a name may start with its server's name ("brave_news_search" of brave-search, "mobile_…" of
 * mobile). Those words name the object or the namespace, not the action: the checks read the name without them.
 * A word is a verb form when it is written as an action class's verb (lexicon.ts) or as a verb of WordNet's list
 * (related.ts); a word whose stem reads as a verb but that is written otherwise is a noun form.
 */
import type { DiscoverIndex } from './build.js';
import { actionOf, actionWord } from './lexicon.js';
import { kept, type ViewStore } from './per-tool.js';
import { isVerb, isVerbWord } from './related.js';
import { splitWords, stem } from './tokenize.js';

/** Whether a lower-case word, as written, is a form its stem's verb does not take ("news", "collection"). */
export function nounForm(word: string): boolean {
  const s = stem(word);
  if (actionOf(s) === undefined && !isVerb(s)) return false;
  return !actionWord(word) && !isVerbWord(word);
}

/**
 * The stems of a name's words that do not say what the tool does: the words its server's name leads it with, and
 * noun forms; a stem that the name also writes as a verb stays. `server` is the server's name.
 */
export function notActions(name: string, server: string): ReadonlySet<string> {
  const words = splitWords(name);
  const prefix = new Set(splitWords(server));
  const out = new Set<string>();
  const verbs = new Set<string>();
  let lead = true;
  for (const w of words) {
    lead &&= prefix.has(w);
    if (lead || nounForm(w)) out.add(stem(w));
    else verbs.add(stem(w));
  }
  for (const v of verbs) out.delete(v);
  return out;
}

const skipped: ViewStore<ReadonlySet<string>> = new WeakMap();

/** A tool's (analysed) name words less those that cannot say its action (notActions); the same array when none. */
export function actionReading(index: DiscoverIndex, doc: number, name: readonly string[]): readonly string[] {
  const skip = kept(skipped, index, doc, () => {
    const t = index.tools[doc]!;
    return notActions(t.tool.name, t.server);
  });
  if (skip.size === 0) return name;
  const out = name.filter((w) => !skip.has(w));
  return out.length === name.length ? name : out;
}
