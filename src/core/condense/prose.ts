/** Shortening descriptions for the compact level: first sentence, bounded length. */
import { normalizeName } from './lossless.js';

const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'etc',
  'vs',
  'mr',
  'mrs',
  'dr',
  'no',
  'approx',
  'incl',
  'ex',
  'cf',
  'fig',
  'st',
]);

const PARAGRAPH_END = /\n\s*\n|\n(?=\s*[-*#\d])/;
const SENTENCE_END = /([.!?])(\s|$)|[。！？]/g;

/** The first sentence (or line) of a text; abbreviations such as "e.g." do not end it. */
export function firstSentence(text: string): string {
  const trimmed = text.trim();
  const cut = trimmed.search(PARAGRAPH_END);
  const line = (cut >= 0 ? trimmed.slice(0, cut) : trimmed).replace(/\s+/g, ' ');
  SENTENCE_END.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SENTENCE_END.exec(line)) !== null) {
    const end = m.index + 1;
    if (m[1] === '.') {
      const wordStart = line.lastIndexOf(' ', m.index - 1) + 1;
      const lastWord = line.slice(wordStart, m.index).toLowerCase().replace(/^\(/, '');
      if (ABBREVIATIONS.has(lastWord) || /^[a-z]$/.test(lastWord) || /\d$/.test(lastWord)) continue;
    }
    return line.slice(0, end);
  }
  return line;
}

/** Cuts at a word boundary so the result is at most `max` characters, with an ellipsis when cut. */
export function boundLength(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = [...text];
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/**
 * A sentence that changes which tool a model should pick: a deprecation ("DEPRECATED", "no longer supported") or a
 * redirect ("use X instead"). Shortening keeps it even when it is not the first sentence.
 */
const NOTICE =
  /\bdeprecat|\bobsolete\b|\bno longer (supported|maintained|available)\b|\buse\s+[^.!?\n]{1,60}?\s+instead\b/i;
const NOTICE_MAX = 160;

/** The sentence of `text` that holds the first notice: from the end of the sentence before it. */
function noticeSentence(text: string): string | undefined {
  const m = NOTICE.exec(text);
  if (!m) return undefined;
  const start = text.slice(0, m.index).search(/[^.!?。！？\n]*$/);
  return firstSentence(text.slice(start));
}

export function shortenProse(text: string, max: number): string {
  const short = boundLength(firstSentence(text), max);
  if (NOTICE.test(short)) return short;
  const notice = noticeSentence(text);
  if (notice === undefined || notice === firstSentence(text)) return short;
  return `${short} ${boundLength(notice, NOTICE_MAX)}`;
}

const FILLER = new Set([
  'the',
  'a',
  'an',
  'of',
  'to',
  'for',
  'this',
  'value',
  'parameter',
  'param',
  'field',
  'argument',
  'input',
]);

/** True when a description adds nothing to the property name ("The path", "Query string" for `query`?). */
export function repeatsName(description: string, name: string): boolean {
  // Filler words are short: a description much longer than the name cannot be only the name.
  if (description.length > name.length * 2 + 40) return false;
  const words = description
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '' && !FILLER.has(w));
  return words.length === 0 || normalizeName(words.join('')) === normalizeName(name);
}
