/**
 * The stem table shipped beside the word vectors (data/word-vectors.stems, built by scripts/build-stems.mjs): the
 * Porter stem of every table word, so an index build does not stem thousands of table words to find the rows of
 * words the table lacks (vectors.ts, lookupWord). The first line names the table it was made from (the SHA-256 of
 * its words); a table it does not match is stemmed as before.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export const STEMS_MAGIC = 'MSWS0001';

/** The stem table of a word-vector file: `word-vectors.bin` → `word-vectors.stems`. */
export function stemsFileFor(vectorsFile: string): string {
  return vectorsFile.replace(/(\.bin)?$/, '.stems');
}

/** SHA-256 (hex) of a table's words in row order, one a line: what a stem table is checked against. */
export function wordsDigest(words: readonly string[]): string {
  return createHash('sha256').update(words.join('\n')).digest('hex');
}

/**
 * The table's text: a head line (magic, words' digest, row count), then one line per row: the stem of the row's
 * word, or an empty line for a row that gets no stem entry (not `latin`, or a repeated word whose index is a later row).
 */
export function encodeStemTable(
  words: readonly string[],
  stemOf: (word: string) => string,
  hasStem: (word: string, row: number) => boolean,
): string {
  const lines = words.map((w, row) => (hasStem(w, row) ? stemOf(w) : ''));
  return `${STEMS_MAGIC}\t${wordsDigest(words)}\t${words.length}\n${lines.join('\n')}`;
}

/**
 * Stem → the row lookupWord reads for it (the lowest frequency rank; the first row on a tie), from a stem table's
 * text; undefined when the text is not a table of these words.
 */
export function decodeStemTable(
  text: string,
  words: readonly string[],
  ranks: Uint32Array,
): Map<string, number> | undefined {
  const nl = text.indexOf('\n');
  const head = (nl < 0 ? text : text.slice(0, nl)).split('\t');
  if (head[0] !== STEMS_MAGIC || head[2] !== String(words.length) || head[1] !== wordsDigest(words)) return undefined;
  const lines = text.slice(nl + 1).split('\n');
  if (lines.length !== words.length) return undefined;
  const stems = new Map<string, number>();
  for (let row = 0; row < lines.length; row++) {
    const s = lines[row]!;
    if (s === '') continue;
    const prev = stems.get(s);
    if (prev === undefined || ranks[row]! < ranks[prev]!) stems.set(s, row);
  }
  return stems;
}

/** The stem map from the table beside `vectorsFile`, or undefined when there is none or it does not match. */
export function readStemTable(
  vectorsFile: string,
  words: readonly string[],
  ranks: Uint32Array,
): Map<string, number> | undefined {
  let text: string;
  try {
    text = readFileSync(stemsFileFor(vectorsFile), 'utf8');
  } catch {
    return undefined; // no table shipped: the words are stemmed as before
  }
  return decodeStemTable(text, words, ranks);
}
