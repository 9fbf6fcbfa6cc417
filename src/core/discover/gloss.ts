/**
 * Chinese → English glosses from the shipped glossary (data/glossary-zh.tsv, built from CC-CEDICT by
 * scripts/build-glossary.mjs). The tokenizer adds a Han run's glosses to its words, so an English intent finds a
 * tool described in Chinese and a Chinese intent an English one. The file is read on the first Han text only.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

interface Glossary {
  /**
   * The file's bytes, UTF-8 "headword\twords" lines, sorted by UTF-16 code units, no two with the same headword. Not
   * decoded as a whole (a first run's Chinese texts need a few hundred of its 170,000 lines): a search decodes the
   * headwords it meets, each once.
   */
  bytes: Buffer;
  /**
   * The headwords decoded so far, by their line's start, and where each key searched for so far was found
   * (lowerBound, up to FOUND_MAX keys). Each search decoding every step's headword again took ~12 µs, ~18 µs a
   * character of Chinese text: seconds for a catalogue described in Chinese. Every search passes the same lines near
   * the top, and a text's runs share their first characters and words.
   */
  heads: Map<number, string>;
  found: Map<string, number>;
  /** The gloss words of the headwords found so far, by their line's start. */
  glosses: Map<number, readonly string[]>;
  /** How many runs' positions began with each code unit so far, up to BLOCK_AFTER. */
  uses: Uint16Array;
  /** The blocks read so far, by the code unit their headwords begin with. */
  blocks: Map<number, Block>;
}

/**
 * The lines whose headword begins with one code unit, decoded once, in the file's order: each line, where its
 * headword ends (its tab, or the line's end) and its gloss words as they are first asked for. A catalogue described
 * in Chinese meets the same few thousand characters at every other position, and each search of the file cost a
 * dozen string keys and lookups.
 */
interface Block {
  lines: string[];
  headEnds: Int32Array;
  glosses: (readonly string[] | undefined)[];
}

/** undefined: not read yet; null: the file is missing or unreadable (no glosses, as without the feature). */
let glossary: Glossary | null | undefined;
let file: string | null = defaultGlossaryFile();
const cache = new Map<string, readonly string[]>();
const CACHE_MAX = 50_000;
const FOUND_MAX = 200_000;
/** A code unit's block is read once this many positions began with it (a few runs need a few searches only). */
const BLOCK_AFTER = 32;
const NONE: readonly string[] = [];
const NL = 0x0a;
const TAB = 0x09;

export function defaultGlossaryFile(): string {
  return fileURLToPath(new URL('../../../data/glossary-zh.tsv', import.meta.url));
}

/** Points the glossary at another file (or none, with null), for tests; forgets what was read. */
export function setGlossaryFile(path: string | null): void {
  file = path;
  glossary = undefined;
  cache.clear();
}

function load(): Glossary | null {
  if (glossary !== undefined) return glossary;
  glossary = null;
  if (file === null) return glossary;
  try {
    // The shipped file is not compressed (a gunzip and a decode of the whole text were most of a first run's
    // glossary time); a .gz file (tests, a rebuild with --out x.gz) is still read.
    const bytes = readFileSync(file);
    glossary = {
      bytes: file.endsWith('.gz') ? gunzipSync(bytes) : bytes,
      heads: new Map(),
      found: new Map(),
      glosses: new Map(),
      uses: new Uint16Array(0x10000),
      blocks: new Map(),
    };
  } catch {
    // Missing or unreadable: no glosses, as without the feature.
  }
  return glossary;
}

/** Where the line holding byte `at` ends: its newline, or the end. */
function lineEnd(bytes: Buffer, at: number): number {
  const nl = bytes.indexOf(NL, at);
  return nl < 0 ? bytes.length : nl;
}

/** Where the headword of the line starting at `start` ends (its tab, or the line's end) and where the line ends. */
function lineParts(bytes: Buffer, start: number): { tab: number; end: number } {
  const end = lineEnd(bytes, start);
  const tab = bytes.indexOf(TAB, start);
  return { tab: tab < 0 || tab > end ? end : tab, end };
}

/** The headword of the line starting at `start`: up to its tab, or the whole line. */
function headAt(g: Glossary, start: number): string {
  let head = g.heads.get(start);
  if (head === undefined) {
    head = g.bytes.toString('utf8', start, lineParts(g.bytes, start).tab);
    g.heads.set(start, head);
  }
  return head;
}

/**
 * Where the first line whose headword is not below `key` starts (bytes.length when there is none). Headwords are
 * decoded and compared as strings, in the order the file is sorted in (UTF-16 code units, which UTF-8 bytes do not
 * keep for astral characters).
 */
function lowerBound(g: Glossary, key: string, from: number, to: number): number {
  const found = g.found.get(key);
  if (found !== undefined) return found;
  const { bytes } = g;
  let lo = from; // a line start; every line before it has a headword below key
  let hi = to; // a line start or the end; every line from it on has one not below key
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = mid === 0 ? 0 : bytes.lastIndexOf(NL, mid - 1) + 1; // mid's line: lo <= start <= mid < hi
    if (headAt(g, start) < key) {
      const end = lineEnd(bytes, start);
      lo = end < bytes.length ? end + 1 : bytes.length;
    } else hi = start;
  }
  if (g.found.size >= FOUND_MAX) g.found.clear();
  g.found.set(key, lo);
  return lo;
}

/** The gloss words of the line starting at `start` (one empty word when it has none, as its text split). */
function glossesAt(g: Glossary, start: number): readonly string[] {
  let words = g.glosses.get(start);
  if (words === undefined) {
    const { tab, end } = lineParts(g.bytes, start);
    words = (tab === end ? '' : g.bytes.toString('utf8', tab + 1, end)).split(' ');
    g.glosses.set(start, words);
  }
  return words;
}

/**
 * The longest headword that `run` starts with at `i`, as its length and its gloss words; undefined when none does.
 * Lengths are tried upwards while some headword starts with the text so far (the same headword as trying every
 * length downwards from the longest headword's).
 */
function longestAt(g: Glossary, run: string, i: number): { len: number; words: readonly string[] } | undefined {
  const { bytes } = g;
  let best: { len: number; words: readonly string[] } | undefined;
  // A longer key is above the shorter one it extends: its line is no earlier; and every key starting with this
  // character is below the next character, whose line is then no later.
  const first = run.charCodeAt(i);
  const block = g.blocks.get(first);
  if (block !== undefined) return longestInBlock(block, run, i);
  const to = first === 0xffff ? bytes.length : lowerBound(g, String.fromCharCode(first + 1), 0, bytes.length);
  if (g.uses[first]! >= BLOCK_AFTER) return longestInBlock(readBlock(g, first, to), run, i);
  g.uses[first]!++;
  for (let len = 1, from = 0; i + len <= run.length; len++) {
    const key = run.slice(i, i + len);
    const at = (from = lowerBound(g, key, from, to));
    if (at >= bytes.length) break;
    const head = headAt(g, at);
    if (head === key) best = { len, words: glossesAt(g, at) };
    else if (!head.startsWith(key)) break;
  }
  return best;
}

/** Reads the block of lines whose headword begins with `first` (`to`: where the next code unit's lines start). */
function readBlock(g: Glossary, first: number, to: number): Block {
  const from = lowerBound(g, String.fromCharCode(first), 0, to);
  const text = g.bytes.toString('utf8', from, to);
  const lines = text.length === 0 ? [] : text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const headEnds = Int32Array.from(lines, (line) => {
    const tab = line.indexOf('\t');
    return tab < 0 ? line.length : tab;
  });
  const block = { lines, headEnds, glosses: new Array<readonly string[] | undefined>(lines.length) };
  g.blocks.set(first, block);
  return block;
}

/**
 * longestAt over a block: the headwords that begin with the text so far are a range of it, sorted by their next code
 * unit (the one that is the text so far, when there is one, first); each step narrows the range by that code unit,
 * with no key made.
 */
function longestInBlock(block: Block, run: string, i: number): { len: number; words: readonly string[] } | undefined {
  const { lines, headEnds } = block;
  let best = -1;
  let bestLen = 0;
  let lo = 0;
  let hi = lines.length;
  for (let len = 1; lo < hi; len++) {
    // The headwords of lines[lo, hi) are those that begin with run.slice(i, i + len).
    if (headEnds[lo] === len) {
      best = lo;
      bestLen = len;
      lo++;
    }
    if (i + len >= run.length) break;
    const c = run.charCodeAt(i + len);
    lo = firstFrom(lines, len, c, lo, hi);
    hi = firstFrom(lines, len, c + 1, lo, hi);
  }
  if (best < 0) return undefined;
  let words = block.glosses[best];
  if (words === undefined) {
    const line = lines[best]!;
    const end = headEnds[best]!;
    words = block.glosses[best] = (end === line.length ? '' : line.slice(end + 1)).split(' ');
  }
  return { len: bestLen, words };
}

/**
 * The first of lines[lo, hi) whose code unit at `at` is not below `c` (hi when none); each line's headword is
 * longer than `at` there, so that code unit is its headword's.
 */
function firstFrom(lines: readonly string[], at: number, c: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (lines[mid]!.charCodeAt(at) < c) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * English words glossing a run of CJK text: the run is cut into the longest headwords, left to right (forward
 * maximum matching), and each headword gives its words; characters no headword starts with are skipped.
 * Lower-case ASCII words; none when the glossary is missing.
 */
export function glossHan(run: string): readonly string[] {
  let out = cache.get(run);
  if (out !== undefined) return out;
  const g = load();
  if (!g) return NONE;
  const words: string[] = [];
  for (let i = 0; i < run.length;) {
    const hit = longestAt(g, run, i);
    if (hit) for (const w of hit.words) words.push(w);
    i += hit ? hit.len : 1;
  }
  out = words.length > 0 ? words : NONE;
  if (cache.size < CACHE_MAX) cache.set(run, out);
  return out;
}
