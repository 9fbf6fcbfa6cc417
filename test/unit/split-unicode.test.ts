import { describe, expect, it } from 'vitest';
import { scanWords, splitUnicode, splitUnicodeByRegex } from '../../src/core/discover/split-unicode.js';
import { cjkBigrams, splitWords } from '../../src/core/discover/tokenize.js';

// Characters whose classes the rules turn on: cases, digits of other scripts, titlecase, letters that lower-case to
// another script's block, CJK scripts and the letters beside them, astral letters, surrogates, marks and joiners.
const PIECES = [
  ...['A', 'B', 'Z', 'a', 'b', 'z', '1', '9', ' ', '_', '-', '.', "'", ':', 'HTML', 'Parser', 'getUser'],
  ...['é', 'É', 'ß', 'ẞ', 'ı', 'Ω', 'ω', 'σ', 'ς', 'Ж', 'ж', 'Ꭰ', 'ꭰ', 'Ა', 'ა', 'Å', 'K', 'ǅ', 'ǆ', 'Ǆ', 'ǈ', 'ᾈ'],
  ...['١', '٣', '²', '½', 'Ⅻ', 'ⅻ', 'Ⓐ', 'ⓐ', 'Ａ', 'ａ', '１', 'ﬀ', 'ﬃ', 'ŉ', 'ΐ', '\u0301', '\u200b', '\u200d'],
  ...[
    '中',
    '文',
    '演示',
    '々',
    '〇',
    '⺀',
    '㐀',
    'ー',
    'コ',
    'ヒ',
    'ｶ',
    'ひ',
    'が',
    '한',
    '국',
    'ㄱ',
    '、',
    '。',
    '\u3000',
  ],
  ...['𐐀', '𐐨', '𞤀', '𞤢', '𝐀', '𝟏', '𠀀', '😀', '⚠️', '\ud83d', '\ude00', '\ud835', '\ufeff'],
];

/** Deterministic strings of 0–13 pieces. */
function* strings(count: number): Generator<string> {
  let seed = 20261201;
  const next = (k: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % k;
  };
  for (let i = 0; i < count; i++) {
    let text = '';
    for (let j = next(14); j > 0; j--) text += PIECES[next(PIECES.length)];
    yield text;
  }
}

describe('splitWords on text outside ASCII: one scan over code points', () => {
  it('finds the words the regular expressions found, on 40,000 mixed strings', () => {
    let scanned = 0;
    for (const text of strings(40_000)) {
      const expected = splitUnicodeByRegex(text);
      const scan = scanWords(text);
      if (scan !== undefined) {
        scanned++;
        expect(scan, JSON.stringify(text)).toEqual(expected);
      }
      expect(splitUnicode(text), JSON.stringify(text)).toEqual(expected);
      expect(splitWords(text), JSON.stringify(text)).toEqual(expected);
    }
    // Only texts holding Σ or İ (whose lower case the scan leaves to the expressions) go the other way.
    expect(scanned).toBeGreaterThan(30_000);
  });

  it('cuts words where case changes, lower-cases them, and keeps CJK runs with their glosses', () => {
    expect(scanWords('ÜberCool HTMLÜberParser')).toEqual(['über', 'cool', 'html', 'über', 'parser']);
    expect(scanWords('Ａｂｃ Ｘ１ ǅungla 𐐀𐐨x')).toEqual(['ａｂｃ', 'ｘ１', 'ǆungla', '𐐨𐐨x']);
    // A letters-and-digits run goes on through CJK letters; "ー" is a letter of no CJK script.
    expect(scanWords('abcカタカナ カタカナabc コーヒー')).toEqual(['abcカタカナ', 'カタカナ', 'abc', 'コ', 'ーヒー']);
    const mixed = scanWords('ppt演示文稿')!;
    expect(mixed.slice(0, 2)).toEqual(['ppt', '演示文稿']);
    expect(mixed.length).toBeGreaterThan(2); // the Han run's glosses follow it
    expect(scanWords('ab\ud800cd 😀x')).toEqual(['ab', 'cd', 'x']);
  });

  it('leaves a text with Σ or İ to the expressions, whose lower case depends on the letters around', () => {
    expect(scanWords('ΟΔΟΣ.')).toBeUndefined();
    // Final sigma at a word's end, σ before a letter.
    expect(splitUnicode('ΟΔΟΣ ΣΑ')).toEqual(['οδο\u03c2', '\u03c3α']);
    expect(scanWords('İstanbul')).toBeUndefined();
    expect(splitUnicode('İstanbul')).toEqual(['i', 'stanbul']);
  });
});

describe('cjkBigrams', () => {
  it('pairs code points as the string iterator reads them (surrogate pairs whole, lone surrogates alone)', () => {
    const reference = (run: string): string[] => {
      const chars = [...run];
      return chars.length < 2 ? chars : chars.slice(1).map((c, i) => chars[i]! + c);
    };
    for (const text of strings(20_000)) expect(cjkBigrams(text), JSON.stringify(text)).toEqual(reference(text));
    expect(cjkBigrams('')).toEqual([]);
    expect(cjkBigrams('𠀀')).toEqual(['𠀀']);
    expect(cjkBigrams('中𠀀文')).toEqual(['中𠀀', '𠀀文']);
    expect(cjkBigrams('\udc00\ud840')).toEqual(['\udc00\ud840']);
  });
});
