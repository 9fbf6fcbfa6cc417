/**
 * Chinese → English glosses from the shipped glossary (data/glossary-zh.tsv.gz, built from CC-CEDICT by
 * scripts/build-glossary.mjs). The tokenizer adds a Han run's glosses to its words, so an English intent finds a
 * tool described in Chinese and a Chinese intent an English one. The file is read on the first Han text only.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

interface Glossary {
  /** "headword\twords" lines, sorted by UTF-16 code units, no two with the same headword. */
  text: string;
}

/** undefined: not read yet; null: the file is missing or unreadable (no glosses, as without the feature). */
let glossary: Glossary | null | undefined;
let file: string | null = defaultGlossaryFile();
const cache = new Map<string, readonly string[]>();
const CACHE_MAX = 50_000;
const NONE: readonly string[] = [];

export function defaultGlossaryFile(): string {
  return fileURLToPath(new URL('../../../data/glossary-zh.tsv.gz', import.meta.url));
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
    // The text alone: lines are found by searching it (no table of line starts to build on a first run).
    glossary = { text: gunzipSync(readFileSync(file)).toString('utf8') };
  } catch {
    // Missing or unreadable: no glosses, as without the feature.
  }
  return glossary;
}

/** Where the first line whose headword is not below `key` starts (text.length when there is none). */
function lowerBound(text: string, key: string): number {
  let lo = 0; // a line start; every line before it has a headword below key
  let hi = text.length; // a line start or the end; every line from it on has one not below key
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = text.lastIndexOf('\n', mid - 1) + 1; // the start of mid's line: lo <= start <= mid < hi
    const tab = text.indexOf('\t', start);
    const nl = text.indexOf('\n', start);
    const head = text.slice(start, tab < 0 || (nl >= 0 && nl < tab) ? (nl < 0 ? text.length : nl) : tab);
    if (head < key) lo = nl < 0 ? text.length : nl + 1;
    else hi = start;
  }
  return lo;
}

/** The headword of the line starting at `start`. */
function headAt(text: string, start: number): string {
  const tab = text.indexOf('\t', start);
  return text.slice(start, tab < 0 ? text.length : tab);
}

/**
 * The longest headword that `run` starts with at `i`, as its length and its gloss words; undefined when none does.
 * Lengths are tried upwards while some headword starts with the text so far (the same headword as trying every
 * length downwards from the longest headword's).
 */
function longestAt(g: Glossary, run: string, i: number): { len: number; words: string } | undefined {
  const { text } = g;
  let best: { len: number; words: string } | undefined;
  for (let len = 1; i + len <= run.length; len++) {
    const key = run.slice(i, i + len);
    const at = lowerBound(text, key);
    if (at >= text.length) break;
    const head = headAt(text, at);
    if (head === key) {
      const nl = text.indexOf('\n', at);
      best = { len, words: text.slice(at + head.length + 1, nl < 0 ? text.length : nl) };
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
