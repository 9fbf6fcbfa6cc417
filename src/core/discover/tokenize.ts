/** Text → index terms: identifier splitting, stop words, Porter stemming, CJK character bigrams. */
import { stemmer } from 'stemmer';

export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both ' +
    'but by can could did do does doing down during each either etc few for from further get gets had has have having he her here ' +
    'hers him his how i if in into is it its itself just me more most my no nor not now of off on once only or other our ours ' +
    'out over own per please same she should so some such than that the their theirs them then there these they this those ' +
    'through to too under until up upon us very via was we were what when where which while who whom why will with would ' +
    'you your yours e g i.e eg ie let lets want need like using use used'
  ).split(' '),
);

// Han, Hiragana, Katakana and Hangul runs have no spaces: index them as overlapping character bigrams.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const ASCII = /^[\x00-\x7f]*$/;
const WORDS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[\p{L}\p{N}]+/gu;

/** "getUserProfile", "read_file", "list-dirs" → lower-case words. Keeps CJK runs whole. */
export function splitWords(text: string): string[] {
  // ASCII fast path: the Unicode property classes below cost several times more per character.
  if (ASCII.test(text)) {
    return (
      text
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
        .toLowerCase()
        .match(/[a-z0-9]+/g) ?? []
    );
  }
  const spaced = text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase();
  return spaced.match(WORDS) ?? [];
}

const stemCache = new Map<string, string>();

/** Porter stem of a lower-case word, memoised (the corpus repeats words a lot). */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = /^[a-z]+$/.test(word) ? stemmer(word) : word;
    if (stemCache.size < 200_000) stemCache.set(word, s);
  }
  return s;
}

export function isCjk(word: string): boolean {
  return !ASCII.test(word) && CJK.test(word);
}

/** Character bigrams of a CJK run (the run itself when it is one character). */
export function cjkBigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length < 2) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/** Index terms of a text: split, drop stop words and 1-letter Latin words, stem; CJK → bigrams. */
export function analyze(text: string, opts: { stem?: boolean; stopWords?: boolean } = {}): string[] {
  const doStem = opts.stem ?? true;
  const dropStop = opts.stopWords ?? true;
  const out: string[] = [];
  for (const word of splitWords(text)) {
    if (isCjk(word)) {
      out.push(...cjkBigrams(word));
      continue;
    }
    if (word.length < 2 && !/\d/.test(word)) continue;
    if (dropStop && STOP_WORDS.has(word)) continue;
    out.push(doStem ? stem(word) : word);
  }
  return out;
}
