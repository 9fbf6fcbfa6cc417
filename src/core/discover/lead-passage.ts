/** FirstP: the lead of a tool description that its sentence vector is built from, counted in words (CJK by half). */

/** Words of a tool description that its vector is built from (FirstP: long descriptions drift to generic words). */
export const LEAD_WORDS = 40;
// Sentence ends: Latin punctuation before a space, CJK full stops (no space follows them), paragraph breaks.
// Captured, so that the lead has a space where the text had whitespace and none after a bare 。.
const SENTENCE_END = /((?<=[.!?])\s+|(?<=[。！？])\s*|\n\s*\n)/;

/**
 * FirstP: the leading whole sentences of a text while they hold at most `maxWords` words (a first sentence
 * longer than that is cut at `maxWords`). Short texts come back unchanged. A CJK character counts as half a
 * word (a Chinese word is about two characters), so Chinese descriptions are cut as English ones are.
 */
export function leadPassage(text: string, maxWords = LEAD_WORDS): string {
  const end = wordsEnd(text, maxWords); // where the word that is one too many starts
  if (end === text.length) return text; // at most maxWords words
  // Sentence, its end, sentence, …, up to that word's first character: the sentence it is in is the last one read
  // (it is one too long), and a sentence end never spans it (it is no space), so the text after it changes nothing.
  const parts = text.slice(0, end + 1).split(SENTENCE_END);
  let out = '';
  let words = 0;
  for (let i = 0; i < parts.length; i += 2) {
    const sentence = parts[i]!;
    const n = countWords(sentence);
    if (words + n > maxWords) {
      if (words === 0) out = sentence.slice(0, wordsEnd(sentence, maxWords)).trimEnd();
      break;
    }
    out += (out && parts[i - 1] ? ' ' : '') + sentence;
    words += n;
  }
  return out;
}

// Ideographs, kana and hangul count as half a word each; CJK and full-width punctuation separates, as a space does.
const CJK_CHAR = /[\u2e80-\u2fff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]/;
const CJK_PUNCT = /[\u3000-\u303f\uff01-\uff0f\uff1a-\uff20]/;

function countWords(text: string): number {
  return wordsEnd(text, Infinity, true);
}

/** The end of the first `maxWords` words of a text; with `count`, the number of words in it instead. */
function wordsEnd(text: string, maxWords: number, count = false): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 32 || (c >= 0x3000 && CJK_PUNCT.test(text[i]!))) {
      inWord = false;
      continue;
    }
    let step: number;
    if (c >= 0x2e80 && CJK_CHAR.test(text[i]!)) {
      step = 0.5;
      inWord = false;
    } else {
      step = inWord ? 0 : 1;
      inWord = true;
    }
    if (n + step > maxWords) return i;
    n += step;
  }
  return count ? n : text.length;
}
