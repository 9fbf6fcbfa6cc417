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
   * decoded as a whole (a first run's Chinese texts need a few hundred of its 170,000 lines): each step of a search
   * decodes one headword.
   */
  bytes: Buffer;
}

/** undefined: not read yet; null: the file is missing or unreadable (no glosses, as without the feature). */
let glossary: Glossary | null | undefined;
let file: string | null = defaultGlossaryFile();
const cache = new Map<string, readonly string[]>();
const CACHE_MAX = 50_000;
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
    glossary = { bytes: file.endsWith('.gz') ? gunzipSync(bytes) : bytes };
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

/** The headword of the line starting at `start`: up to its tab, or the whole line. */
function headAt(bytes: Buffer, start: number): string {
  const end = lineEnd(bytes, start);
  const tab = bytes.indexOf(TAB, start);
  return bytes.toString('utf8', start, tab < 0 || tab > end ? end : tab);
}

/**
 * Where the first line whose headword is not below `key` starts (bytes.length when there is none). Headwords are
 * decoded and compared as strings, in the order the file is sorted in (UTF-16 code units, which UTF-8 bytes do not
 * keep for astral characters).
 */
function lowerBound(bytes: Buffer, key: string): number {
  let lo = 0; // a line start; every line before it has a headword below key
  let hi = bytes.length; // a line start or the end; every line from it on has one not below key
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = mid === 0 ? 0 : bytes.lastIndexOf(NL, mid - 1) + 1; // mid's line: lo <= start <= mid < hi
    if (headAt(bytes, start) < key) {
      const end = lineEnd(bytes, start);
      lo = end < bytes.length ? end + 1 : bytes.length;
    } else hi = start;
  }
  return lo;
}

/**
 * The longest headword that `run` starts with at `i`, as its length and its gloss words; undefined when none does.
 * Lengths are tried upwards while some headword starts with the text so far (the same headword as trying every
 * length downwards from the longest headword's).
 */
function longestAt(g: Glossary, run: string, i: number): { len: number; words: string } | undefined {
  const { bytes } = g;
  let best: { len: number; words: string } | undefined;
  for (let len = 1; i + len <= run.length; len++) {
    const key = run.slice(i, i + len);
    const at = lowerBound(bytes, key);
    if (at >= bytes.length) break;
    const head = headAt(bytes, at);
    if (head === key) {
      const end = lineEnd(bytes, at);
      const tab = bytes.indexOf(TAB, at);
      best = { len, words: tab < 0 || tab > end ? '' : bytes.toString('utf8', tab + 1, end) };
    } else if (!head.startsWith(key)) break;
  }
  return best;
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
    if (hit) words.push(...hit.words.split(' '));
    i += hit ? hit.len : 1;
  }
  out = words.length > 0 ? words : NONE;
  if (cache.size < CACHE_MAX) cache.set(run, out);
  return out;
}
