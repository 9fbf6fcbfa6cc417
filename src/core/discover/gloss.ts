/**
 * Chinese → English glosses from the shipped glossary (data/glossary-zh.tsv.gz, built from CC-CEDICT by
 * scripts/build-glossary.mjs). The tokenizer adds a Han run's glosses to its words, so an English intent finds a
 * tool described in Chinese and a Chinese intent an English one. The file is read on the first Han text only.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

interface Glossary {
  /**
   * "headword\twords" lines, sorted (by UTF-16 code units, which for these headwords is also their UTF-8 byte
   * order), kept as UTF-8 bytes: 4.8 MB outside the JS heap instead of a 7.9 MB two-byte string in it.
   */
  bytes: Buffer;
  /** Byte offset where each line starts. */
  starts: Int32Array;
  /** Longest headword, in UTF-16 code units. */
  maxKey: number;
}

const TAB = 0x09;
const NEWLINE = 0x0a;

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
    const bytes = gunzipSync(readFileSync(file));
    // One pass over the lines: where each starts, and the longest headword (the text before its tab).
    const starts: number[] = [];
    let maxKey = 0;
    for (let start = 0; start < bytes.length;) {
      starts.push(start);
      const tab = bytes.indexOf(TAB, start);
      if (tab < 0) break;
      maxKey = Math.max(maxKey, utf16Length(bytes, start, tab));
      const end = bytes.indexOf(NEWLINE, tab);
      start = end < 0 ? bytes.length : end + 1;
    }
    glossary = { bytes, starts: Int32Array.from(starts), maxKey };
  } catch {
    // Missing or unreadable: no glosses, as without the feature.
  }
  return glossary;
}

/** UTF-16 code units of the UTF-8 text in bytes[start, end): one per character, two for a 4-byte one. */
function utf16Length(bytes: Uint8Array, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
  }
  return n;
}

/** The gloss words of one headword, or undefined. */
function lookup(g: Glossary, key: string): string | undefined {
  const k = Buffer.from(key, 'utf8');
  let lo = 0;
  let hi = g.starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const start = g.starts[mid]!;
    const tab = g.bytes.indexOf(TAB, start);
    const order = g.bytes.compare(k, 0, k.length, start, tab);
    if (order === 0) {
      const end = mid + 1 < g.starts.length ? g.starts[mid + 1]! - 1 : g.bytes.length;
      return g.bytes.toString('utf8', tab + 1, end);
    }
    if (order < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
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
    let step = 1;
    for (let len = Math.min(g.maxKey, run.length - i); len >= 1; len--) {
      const hit = lookup(g, run.slice(i, i + len));
      if (hit !== undefined) {
        words.push(...hit.split(' '));
        step = len;
        break;
      }
    }
    i += step;
  }
  out = words.length > 0 ? words : NONE;
  if (cache.size < CACHE_MAX) cache.set(run, out);
  return out;
}
