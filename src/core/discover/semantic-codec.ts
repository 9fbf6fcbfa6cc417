/** The semantic index as bytes, for the discover index cache (build.ts, index-cache.ts). */
import type { SemanticIndex } from './semantic.js';
import { buildSketch, SKETCH_MIN_TOOLS } from './sketch.js';

const CACHE_MAGIC = 0x53494631; // "SIF1"

/** Bytes of a finished semantic index (for the command's on-disk cache). */
export function encodeSemanticIndex(index: SemanticIndex): Uint8Array {
  const parts = encodeSemanticIndexParts(index);
  const out = new Uint8Array(parts.reduce((a, p) => a + p.byteLength, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.byteLength;
  }
  return out;
}

/** encodeSemanticIndex's bytes as views of the index's own arrays (the matrix is not copied), in order. */
export function encodeSemanticIndexParts(index: SemanticIndex): Uint8Array[] {
  const head = new Uint32Array([CACHE_MAGIC, index.size, index.dims, index.common ? 1 : 0]);
  const parts = [head, index.matrix, index.common ?? new Float32Array(0)];
  return parts.map((p) => new Uint8Array(p.buffer, p.byteOffset, p.byteLength));
}

/** Reads encodeSemanticIndex's bytes; null when they do not hold an index of `size` × `dims`. */
export function decodeSemanticIndex(buf: Uint8Array, size: number, dims: number): SemanticIndex | null {
  if (buf.byteLength < 16) return null;
  const copy = new Uint8Array(buf); // a copy (Buffer#slice would be a view), 4-byte aligned
  const head = new Uint32Array(copy.buffer, 0, 4);
  const hasCommon = head[3] === 1;
  if (head[0] !== CACHE_MAGIC || head[1] !== size || head[2] !== dims) return null;
  if (copy.byteLength !== 16 + size * dims * 4 + (hasCommon ? dims * 4 : 0)) return null;
  const matrix = new Float32Array(copy.buffer, 16, size * dims);
  const common = hasCommon ? new Float32Array(copy.buffer, 16 + size * dims * 4, dims) : null;
  const index: SemanticIndex = { dims, size, matrix, common };
  if (size >= SKETCH_MIN_TOOLS) index.sketch = buildSketch(index);
  return index;
}
