/** The shipped word-vector table (data/word-vectors.bin): int8 rows with a per-row scale, ordered by frequency. */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
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
}

/** Where the table lives: `<package>/data`, three levels above both src/core/discover and dist/core/discover. */
export function defaultVectorsFile(): string {
  return fileURLToPath(new URL('../../../data/word-vectors.bin', import.meta.url));
}

/** Reads the shipped table (or another file in the same format). */
export async function loadWordVectors(file: string = defaultVectorsFile()): Promise<WordVectors> {
  return parseWordVectors(await readFile(file));
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
  // Copy into aligned arrays: the Buffer from readFile may sit at any offset of a shared pool.
  const scales = new Float32Array(buf.buffer.slice(buf.byteOffset + off, buf.byteOffset + off + size * 4));
  off += size * 4;
  const ranks = new Uint32Array(buf.buffer.slice(buf.byteOffset + off, buf.byteOffset + off + size * 4));
  off += size * 4;
  const data = new Int8Array(buf.buffer.slice(buf.byteOffset + off, buf.byteOffset + off + size * dims));
  if (words.length !== size || data.length !== size * dims) throw new Error('word-vector table is truncated');
  const index = new Map<string, number>();
  for (let i = 0; i < size; i++) index.set(words[i]!, i);
  return { dims, size, index, scales, ranks, data };
}

/** Encodes a table (used by the build script and by tests that make tiny tables). */
export function encodeWordVectors(rows: { word: string; rank: number; vector: ArrayLike<number> }[], dims: number): Uint8Array {
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

/** Row of a word: exact, else the most frequent word with the same Porter stem. */
export function lookupWord(vectors: WordVectors, word: string): number | undefined {
  const row = vectors.index.get(word);
  if (row !== undefined) return row;
  if (!vectors.stems) {
    const stems = new Map<string, number>();
    for (const [w, r] of vectors.index) {
      if (!/^[a-z]+$/.test(w)) continue;
      const s = stem(w);
      const prev = stems.get(s);
      if (prev === undefined || vectors.ranks[r]! < vectors.ranks[prev]!) stems.set(s, r);
    }
    vectors.stems = stems;
  }
  return vectors.stems.get(stem(word));
}
