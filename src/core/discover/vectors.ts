/** The shipped word-vector table (data/word-vectors.bin): int8 rows with a per-row scale, ordered by frequency. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readStemTable } from './stem-table.js';
import { stem } from './tokenize.js';

export const VECTORS_MAGIC = 'MSWV0001';

export interface WordVectors {
  dims: number;
  size: number;
  /** word → row */
  index: Map<string, number>;
  /** Row → dequantisation scale (value = int8 · scale). */
  scales: Float32Array;
  /** Row → frequency rank in the source table (0 = most frequent), for SIF weights. */
  ranks: Uint32Array;
  data: Int8Array;
  /** Porter stem → most frequent row with that stem; built on first use. */
  stems?: Map<string, number>;
  /** Word → row (-1: unknown or a stop word), memoised by the semantic engine. */
  rowOf?: Map<string, number>;
  /** Rows dequantised and premultiplied by their SIF weight (sif.ts), each filled on first use. */
  weighted?: Float32Array;
  weightedReady?: Uint8Array;
  /** Word of each row, as read from the file (absent in tables built in memory). */
  words?: readonly string[];
  /** The prefixes already stemmed into the lazily built stem map. */
  byPrefix?: PrefixBuckets;
  /** The file the table was read from: its stem table (stem-table.ts) lies beside it. */
  file?: string;
}

/** Where the table lives: `<package>/data`, three levels above both src/core/discover and dist/core/discover. */
export function defaultVectorsFile(): string {
  return fileURLToPath(new URL('../../../data/word-vectors.bin', import.meta.url));
}

/** Reads the shipped table (or another file in the same format), in one call (not in 512 KiB thread-pool steps). */
export function loadWordVectors(file: string = defaultVectorsFile()): Promise<WordVectors> {
  return Promise.resolve().then(() => ({ ...parseWordVectors(readFileSync(file)), file }));
}

/** The shipped table, or undefined in an install that dropped it (hybrid then fuses bm25 and usage only). */
export async function loadShippedWordVectors(): Promise<WordVectors | undefined> {
  try {
    return await loadWordVectors();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`word-vector table: ${(e as Error).message}`, { cause: e });
  }
}

/** Decodes the binary layout written by scripts/build-vectors.mjs. */
export function parseWordVectors(buf: Uint8Array): WordVectors {
  const magic = new TextDecoder().decode(buf.subarray(0, 8));
  if (magic !== VECTORS_MAGIC) throw new Error(`not a word-vector table (magic ${JSON.stringify(magic)})`);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const size = view.getUint32(8, true);
  const dims = view.getUint32(12, true);
  const wordBytes = view.getUint32(16, true);
  let off = 20;
  const words = new TextDecoder().decode(buf.subarray(off, off + wordBytes)).split('\n');
  off += wordBytes;
  off = (off + 3) & ~3;
  // Views when aligned; else copies (a Buffer from readFile may sit at any offset of a shared pool).
  const aligned = (buf.byteOffset + off) % 4 === 0;
  const at = (start: number, bytes: number): ArrayBuffer | SharedArrayBuffer =>
    buf.buffer.slice(buf.byteOffset + start, buf.byteOffset + start + bytes);
  const scales = aligned
    ? new Float32Array(buf.buffer, buf.byteOffset + off, size)
    : new Float32Array(at(off, size * 4));
  off += size * 4;
  const ranks = aligned ? new Uint32Array(buf.buffer, buf.byteOffset + off, size) : new Uint32Array(at(off, size * 4));
  off += size * 4;
  const data = new Int8Array(buf.buffer, buf.byteOffset + off, Math.min(size * dims, buf.byteLength - off));
  if (words.length !== size || data.length !== size * dims) throw new Error('word-vector table is truncated');
  const index = new Map<string, number>();
  for (let i = 0; i < size; i++) index.set(words[i]!, i);
  return { dims, size, index, scales, ranks, data, words };
}

/** Encodes a table (used by the build script and by tests that make tiny tables). */
export function encodeWordVectors(
  rows: { word: string; rank: number; vector: ArrayLike<number> }[],
  dims: number,
): Uint8Array {
  const wordBuf = new TextEncoder().encode(rows.map((r) => r.word).join('\n'));
  const head = 20 + wordBuf.length;
  const aligned = (head + 3) & ~3;
  const total = aligned + rows.length * 8 + rows.length * dims;
  const out = new Uint8Array(total);
  out.set(new TextEncoder().encode(VECTORS_MAGIC), 0);
  const view = new DataView(out.buffer);
  view.setUint32(8, rows.length, true);
  view.setUint32(12, dims, true);
  view.setUint32(16, wordBuf.length, true);
  out.set(wordBuf, 20);
  const scales = new Float32Array(rows.length);
  const ranks = new Uint32Array(rows.length);
  const data = new Int8Array(rows.length * dims);
  rows.forEach((r, i) => {
    let max = 0;
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(r.vector[d] ?? 0));
    const scale = max / 127 || 1;
    scales[i] = scale;
    ranks[i] = r.rank;
    for (let d = 0; d < dims; d++) data[i * dims + d] = Math.round((r.vector[d] ?? 0) / scale);
  });
  out.set(new Uint8Array(scales.buffer), aligned);
  out.set(new Uint8Array(ranks.buffer), aligned + rows.length * 4);
  out.set(new Uint8Array(data.buffer), aligned + rows.length * 8);
  return out;
}

const LATIN = /^[a-z]+$/;

/** Row of a word: exact, else the most frequent word with the same Porter stem. */
export function lookupWord(vectors: WordVectors, word: string): number | undefined {
  const row = vectors.index.get(word);
  if (row !== undefined) return row;
  // Only Latin words have stems; the map holds Latin words only.
  if (!LATIN.test(word)) return undefined;
  const s = stem(word);
  vectors.stems ??= new Map<string, number>();
  stemBucket(vectors, s); // may replace the map with the whole stem table
  return vectors.stems.get(s);
}

/**
 * The stem map is built lazily, one bucket of table words at a time. Porter stemming only rewrites
 * suffixes after a stem of at least two letters, so a word and its stem share their first two letters, and
 * their first three when the stem has four letters or more: every word with stem `s` lies in the bucket of
 * s's first three letters (long stems) or of its first two (short ones). A bucket is stemmed once; it is found by
 * a scan of the words' first letters (no map of all buckets is built: that cost a cold start ~20 ms).
 */
function stemBucket(vectors: WordVectors, s: string): void {
  const b = (vectors.byPrefix ??= { words: vectors.words ?? [...vectors.index.keys()], done: new Set(), scans: 0 });
  if (b.all) return;
  const k2 = s.slice(0, 2);
  if (b.done.has(k2)) return;
  const long = s.length >= 4;
  const k = long ? s.slice(0, 3) : k2;
  if (b.done.has(k)) return;
  const c0 = k.charCodeAt(0);
  const stems = vectors.stems!;
  const words = b.words;
  // After a few buckets (an index build looks up thousands of words), the words' positions are grouped by their
  // first two letters once, and a bucket scans its group instead of the whole table.
  // With the stem table shipped beside the table's file, its map (the same entries every bucket would give) replaces
  // the buckets then.
  if (b.scans !== undefined && ++b.scans === GROUP_AFTER) {
    const table = vectors.file && vectors.words ? readStemTable(vectors.file, vectors.words, vectors.ranks) : undefined;
    if (table) {
      vectors.stems = table;
      b.all = true;
      return;
    }
    b.groups = groupByTwo(words);
  }
  const group = k.length >= 2 ? b.groups?.get(k.slice(0, 2)) : undefined;
  if (b.groups && k.length >= 2 && !group) {
    b.done.add(k);
    return;
  }
  const count = group ? group.length : words.length;
  // Rows in ascending order, as the table's index map holds them (a repeated word keeps its last row).
  for (let j = 0; j < count; j++) {
    const r = group ? group[j]! : j;
    const w = words[r]!;
    if (w.charCodeAt(0) !== c0 || !w.startsWith(k)) continue;
    const row = vectors.words ? r : vectors.index.get(w)!;
    if (vectors.index.get(w) !== row || !LATIN.test(w)) continue;
    const ws = stem(w);
    const prev = stems.get(ws);
    // The first row wins a tie on rank.
    if (
      prev === undefined ||
      vectors.ranks[row]! < vectors.ranks[prev]! ||
      (vectors.ranks[row] === vectors.ranks[prev] && row < prev)
    )
      stems.set(ws, row);
  }
  b.done.add(k);
}

export interface PrefixBuckets {
  /** The table's words by row (or the index map's words in its order, for a table built without them). */
  words: readonly string[];
  /** Two- and three-letter prefixes whose words are all stemmed. */
  done: Set<string>;
  /** Buckets stemmed by scanning every word; at GROUP_AFTER, `groups` is built. */
  scans?: number;
  /** Positions in `words` (ascending) by their first two letters. */
  groups?: Map<string, number[]>;
  /** Every word's stem is in the map (read from the stem table). */
  all?: boolean;
}

/** Buckets scanned in full before the words are grouped (a query alone stems a few; a build, hundreds). */
const GROUP_AFTER = 8;

function groupByTwo(words: readonly string[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (let r = 0; r < words.length; r++) {
    const w = words[r]!;
    if (w.length < 2) continue;
    const k = w.slice(0, 2);
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  return groups;
}
