/**
 * The sentence-vector sums of a fresh index build (one-pass.ts) in WebAssembly SIMD: each known word's weighted row
 * added into its tool's row four floats at a time. The same sums as sif.ts addWords, bit for bit: every element is
 * the same float32 additions in the same order (f32x4.add rounds each lane to float32 as a Float32Array store of a
 * double sum does; double has enough bits that rounding twice gives the correctly rounded float32), and the rows are
 * the same SIF-weighted rows (sif.ts fillWeighted). On a cold process the JavaScript loop ran mostly before V8 had
 * optimised it; this one is compiled at once.
 *
 * The weighted rows a build uses are kept side by side in the module's memory in the order the build first meets
 * them, not at their places in the table: each new page of memory costs a page fault on its first write
 * (~13–15 µs on the virtualised machine this was measured on), and the ~4,400 rows servers-111 uses were spread over
 * 1,850 pages of the table's 2,600 (7 MB) where side by side they fill 550 (bench/RESULTS.md, "Issue 40, session
 * 24").
 */
import { fillWeighted, wordRow } from './sif.js';
import type { WordVectors } from './vectors.js';

/**
 * sum(out, rows, count, rowBytes): for k < count, the row at byte address i32[rows + 4k] (rowBytes long, a multiple
 * of 16) is added lane by lane into the row at byte address `out`.
 */
// prettier-ignore
const MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x08, 0x01, 0x60, 0x04, 0x7f, 0x7f, 0x7f, 0x7f, 0x00, // type: (i32 i32 i32 i32) -> ()
  0x02, 0x0a, 0x01, 0x01, 0x6d, 0x03, 0x6d, 0x65, 0x6d, 0x02, 0x00, 0x01, // import "m" "mem": memory, ≥ 1 page
  0x03, 0x02, 0x01, 0x00, // one function, of type 0
  0x07, 0x07, 0x01, 0x03, 0x73, 0x75, 0x6d, 0x00, 0x00, // export "sum"
  0x0a, 0x5a, 0x01, 0x58, // code: one body of 88 bytes
  0x01, 0x03, 0x7f, // locals 4 (k), 5 (row address), 6 (byte in row): i32
  0x02, 0x40, // block
  0x03, 0x40, // loop (words)
  0x20, 0x04, 0x20, 0x02, 0x4f, 0x0d, 0x01, // if k >= count: out of the block
  0x20, 0x01, 0x20, 0x04, 0x41, 0x02, 0x74, 0x6a, 0x28, 0x02, 0x00, 0x21, 0x05, // row = i32[rows + 4k]
  0x41, 0x00, 0x21, 0x06, // d = 0
  0x03, 0x40, // loop (lanes)
  0x20, 0x00, 0x20, 0x06, 0x6a, // out + d (where to store)
  0x20, 0x00, 0x20, 0x06, 0x6a, 0xfd, 0x00, 0x00, 0x00, // v128.load out + d
  0x20, 0x05, 0x20, 0x06, 0x6a, 0xfd, 0x00, 0x00, 0x00, // v128.load row + d
  0xfd, 0xe4, 0x01, // f32x4.add
  0xfd, 0x0b, 0x00, 0x00, // v128.store
  0x20, 0x06, 0x41, 0x10, 0x6a, 0x22, 0x06, 0x20, 0x03, 0x49, 0x0d, 0x00, // d += 16; again while d < rowBytes
  0x0b, // end (lanes)
  0x20, 0x04, 0x41, 0x01, 0x6a, 0x21, 0x04, 0x0c, 0x00, // k++; again
  0x0b, 0x0b, 0x0b, // end (words), end (block), end (function)
]);

const PAGE = 65_536;
/** Row addresses passed per call (a longer word list is summed in several calls, in order). */
const BATCH = 4096;

type Sum = (out: number, rows: number, count: number, rowBytes: number) => void;

/** Sums word rows into a matrix held, with the weighted rows, in one WebAssembly memory. */
export interface SifSummer {
  /** The tools' rows, zeroed: `size` × dims floats (a view of the module's memory). */
  matrix: Float32Array;
  /** Adds the SIF-weighted vectors of `words` into the matrix's row `row`; returns how many words were known. */
  add: (words: readonly string[], row: number) => number;
}

/**
 * A summer for `size` rows, or undefined: no WebAssembly SIMD or a row not a multiple of four floats (where it would
 * not give addWords' sums), or weighted rows already filled in ordinary memory (a long-lived process that ranked
 * before sums with addWords over the rows it has).
 */
export function sifSummer(vectors: WordVectors, size: number): SifSummer | undefined {
  const { dims } = vectors;
  if (typeof WebAssembly !== 'object' || dims % 4 !== 0 || vectors.weighted || vectors.weightedReady) return undefined;
  const rowBytes = dims * 4;
  // Room for every row of the table, as slots taken in the order rows are first used.
  const tableBytes = vectors.size * rowBytes;
  const matrixAt = tableBytes;
  const batchAt = matrixAt + size * rowBytes;
  let sum: Sum;
  let memory: WebAssembly.Memory;
  try {
    memory = new WebAssembly.Memory({ initial: Math.ceil((batchAt + BATCH * 4) / PAGE) });
    const instance = new WebAssembly.Instance(new WebAssembly.Module(MODULE), { m: { mem: memory } });
    sum = instance.exports.sum as Sum;
  } catch {
    return undefined; // no SIMD in this runtime, or no memory for it: the JavaScript sums
  }
  const slots = new Float32Array(memory.buffer, 0, vectors.size * dims);
  /** The slot of each table row (-1: not used yet), and the next free slot. */
  const slotOf = new Int32Array(vectors.size).fill(-1);
  let used = 0;
  const matrix = new Float32Array(memory.buffer, matrixAt, size * dims);
  const batch = new Int32Array(memory.buffer, batchAt, BATCH);
  return {
    matrix,
    add(words, row) {
      const out = matrixAt + row * rowBytes;
      let count = 0;
      let n = 0;
      for (const word of words) {
        const r = wordRow(vectors, word);
        if (r < 0) continue;
        let slot = slotOf[r]!;
        if (slot < 0) {
          slot = slotOf[r] = used++;
          fillWeighted(vectors, r, slots, slot * dims);
        }
        batch[n++] = slot * rowBytes;
        count++;
        if (n === BATCH) {
          sum(out, batchAt, n, rowBytes);
          n = 0;
        }
      }
      if (n > 0) sum(out, batchAt, n, rowBytes);
      return count;
    },
  };
}
