/**
 * splitWords' path for a text with letters or digits outside ASCII: one scan over its code points, with the same
 * words as the regular expressions it replaced (`splitUnicodeByRegex`, kept for what the scan leaves to it). Those
 * cost ~0.1 µs a character each (two replaces, a lower-casing, a match, a Han test per word: ~250 ms for 2 M
 * characters of text in a cold process), so a catalogue described in Chinese, Japanese or with accents took several
 * times an English one's time to index.
 *
 * What the expressions do, read per code point (each code point's classes are found once, then kept):
 *  - `([\p{Ll}\p{N}])(\p{Lu})` → '$1 $2': a word ends before an upper-case letter that follows a lower-case letter or
 *    a digit ("getUser" → get user). The pairs a global replace finds cannot overlap (the second is never a first).
 *  - `(\p{Lu})(\p{Lu}\p{Ll})` → '$1 $2': a word ends between two upper-case letters when a lower-case one follows
 *    ("HTMLParser" → html parser). No space of the first rule can fall inside such a triple, and triples cannot
 *    overlap either, so both rules read the text as written.
 *  - the text lower-cased: the same as each word lower-cased, except for the characters whose lower case depends on
 *    the letters around them (Σ) or is longer than they are (İ): a text holding one is left to the expressions.
 *  - `[CJK]+|[\p{L}\p{N}]+` over the lower-cased text: at each place a run of CJK characters if one starts there,
 *    else a run of letters and digits (which goes on through CJK letters: "ppt演示文稿" is one match, "コーヒー" two, as
 *    "ー" is not of a CJK script but a letter), else the next code point is skipped.
 *  - a word holding a Han character is cut into its CJK and other runs, each Han run followed by its glosses.
 */
import { glossHan } from './gloss.js';

/** Han, Hiragana, Katakana and Hangul, as a regular expression's class (a run of them is a word of its own). */
export const CJK_SCRIPTS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
const WORDS = new RegExp(`[${CJK_SCRIPTS}]+|[\\p{L}\\p{N}]+`, 'gu');
// A word that mixes CJK and other letters ("ppt演示文稿") is cut into its runs ("ppt", "演示文稿").
const RUNS = new RegExp(`[${CJK_SCRIPTS}]+|[^${CJK_SCRIPTS}]+`, 'gu');
const HAN = /\p{Script=Han}/u;
const CJK_CHAR = new RegExp(`^[${CJK_SCRIPTS}]$`, 'u');
const LL_CHAR = /^\p{Ll}$/u;
const LU_CHAR = /^\p{Lu}$/u;
const N_CHAR = /^\p{N}$/u;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const HAN_CHAR = /^\p{Script=Han}$/u;

/** The words of `text` as splitWords' Unicode path has them (the regular expressions' reading). */
export function splitUnicodeByRegex(text: string): string[] {
  const spaced = text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase();
  const words = spaced.match(WORDS) ?? [];
  if (!HAN.test(text)) return words;
  const out: string[] = [];
  for (const word of words) {
    if (!HAN.test(word)) out.push(word);
    else pushRuns(word, out);
  }
  return out;
}

/** A word holding Han: its CJK and other runs, each Han run followed by its glosses. */
function pushRuns(word: string, out: string[]): void {
  for (const run of word.match(RUNS)!) {
    out.push(run);
    if (HAN.test(run)) for (const g of glossHan(run)) out.push(g);
  }
}

// A code point's classes: as written (the word ends), and lower-cased (the match).
const LL = 1;
const LU = 2;
const NUM = 4;
/** Lower-cased, a letter or a digit. */
const WORD = 8;
/** Lower-cased, of a CJK script. */
const CJK = 16;
const HAN_SCRIPT = 32;
/** Its lower case is another character. */
const CASED = 64;
/** Its lower case depends on its neighbours or changes its length: the text goes to the expressions. */
const SPECIAL = 128;
const KNOWN = 256;

/** The classes of the BMP's code units as found (0: not yet; ASCII's from the start), and of those above it. */
let bmp: Uint16Array | undefined;
const astral = new Map<number, number>();

function newTable(): Uint16Array {
  const table = new Uint16Array(0x10000);
  for (let c = 0; c < 128; c++) table[c] = KNOWN;
  for (let c = 48; c <= 57; c++) table[c] = KNOWN | NUM | WORD;
  for (let c = 65; c <= 90; c++) table[c] = KNOWN | LU | WORD | CASED;
  for (let c = 97; c <= 122; c++) table[c] = KNOWN | LL | WORD;
  return table;
}

function classify(cp: number): number {
  const ch = String.fromCodePoint(cp);
  const lower = ch.toLowerCase();
  // Σ is the one character whose lower case depends on its neighbours (σ, or ς at a word's end).
  if (cp === 0x3a3 || lower.length !== ch.length) return KNOWN | SPECIAL;
  let bits = KNOWN;
  if (lower !== ch) bits |= CASED;
  if (LL_CHAR.test(ch)) bits |= LL;
  if (LU_CHAR.test(ch)) bits |= LU;
  if (N_CHAR.test(ch)) bits |= NUM;
  if (WORD_CHAR.test(lower)) bits |= WORD;
  if (CJK_CHAR.test(lower)) bits |= CJK;
  if (HAN_CHAR.test(lower)) bits |= HAN_SCRIPT;
  return bits;
}

/** The classes of code point `cp` (a lone surrogate is its own), found on first sight and kept. */
function classesOf(table: Uint16Array, cp: number): number {
  if (cp > 0xffff) {
    let bits = astral.get(cp);
    if (bits === undefined) astral.set(cp, (bits = classify(cp)));
    return bits;
  }
  let bits = table[cp]!;
  if (bits === 0) table[cp] = bits = classify(cp);
  return bits;
}

/** The words of `text` (splitWords' Unicode path): one scan, or the expressions when it holds Σ or İ. */
export function splitUnicode(text: string): string[] {
  return scanWords(text) ?? splitUnicodeByRegex(text);
}

/** The scan (see the file's comment); undefined when a character's lower case needs the expressions. */
export function scanWords(text: string): string[] | undefined {
  const table = (bmp ??= newTable());
  const n = text.length;
  const out: string[] = [];
  /** 0: between words; CJK: in a run of CJK characters; WORD: in a run of letters and digits. */
  let mode = 0;
  let start = 0;
  /** The word holds a Han character; one whose lower case is another. */
  let han = false;
  let cased = false;
  let prev = 0;
  for (let i = 0; i < n;) {
    const cp = text.codePointAt(i)!;
    const size = cp > 0xffff ? 2 : 1;
    const bits = classesOf(table, cp);
    if (bits & SPECIAL) return undefined;
    if (
      mode !== 0 &&
      // The run ends; or a rule's space: after a lower-case letter or digit before an upper-case one, between two
      // upper-case letters before a lower-case one.
      ((mode === CJK ? !(bits & CJK) : !(bits & WORD)) ||
        (bits & LU &&
          (prev & (LL | NUM) || (prev & LU && i + size < n && classesOf(table, text.codePointAt(i + size)!) & LL))))
    ) {
      const word = cased ? text.slice(start, i).toLowerCase() : text.slice(start, i);
      pushWord(word, mode, han, out);
      mode = 0;
    }
    if (mode === 0 && bits & (CJK | WORD)) {
      mode = bits & CJK ? CJK : WORD;
      start = i;
      han = false;
      cased = false;
    }
    if (bits & HAN_SCRIPT) han = true;
    if (bits & CASED) cased = true;
    prev = bits;
    i += size;
  }
  if (mode !== 0) pushWord(cased ? text.slice(start).toLowerCase() : text.slice(start), mode, han, out);
  return out;
}

/** A word the scan found; one holding Han as the expressions have it (a CJK run is one run: it, then its glosses). */
function pushWord(word: string, mode: number, han: boolean, out: string[]): void {
  if (!han) out.push(word);
  else if (mode === CJK) {
    out.push(word);
    for (const g of glossHan(word)) out.push(g);
  } else pushRuns(word, out);
}
