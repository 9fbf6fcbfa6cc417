/**
 * Dot products of a few query rows with a list of rows of a word table, in WebAssembly SIMD, as the doubles
 * vector-math.ts dot returns (not rounded to float32): the re-ranker's soft word-vector features (rerank.ts) divide
 * each by a row's length before they round it, so they need dot's double itself. The kernel is dot-wasm.ts's with
 * its four stores widened: each lane-sum total ((s0 + s1) + s2) + s3, which dot-wasm.ts rounds to float32 and
 * stores, is stored as a double. The rows are copied into the module's memory per call (a few hundred at most;
 * the word table itself, 12 MB, is not), the queries are read one at a time as doubles.
 */
import { DOT_ROWS, MODULE } from './dot-wasm.js';

/**
 * dot-wasm.ts's module with its results stored as doubles: each result's address `out + 16g` becomes `out + 32g`
 * and its `f32.demote_f64; f32.store offset=4r` becomes `f64.store offset=8r` (one byte shorter, so the code
 * section and the body are four bytes shorter). Null if the module is not the one this expects.
 */
function wideModule(narrow: Uint8Array): Uint8Array<ArrayBuffer> | null {
  const bytes = [...narrow];
  const find = (pattern: readonly number[], from: number): number => {
    for (let i = from; i + pattern.length <= bytes.length; i++)
      if (pattern.every((b, j) => bytes[i + j] === b)) return i;
    return -1;
  };
  // local.get out; local.get g; i32.const 16; i32.mul; i32.add (the result's address), 4 times
  const address = [0x20, 0x02, 0x20, 0x06, 0x41, 0x10, 0x6c, 0x6a];
  let at = 0;
  for (let r = 0; r < DOT_ROWS; r++) {
    at = find(address, at);
    if (at < 0) return null;
    bytes[at + 5] = 0x20; // i32.const 32
    // f32.demote_f64; f32.store align=2 offset=4r → f64.store align=3 offset=8r
    const store = find([0xb6, 0x38, 0x02, 4 * r], at);
    if (store < 0) return null;
    bytes.splice(store, 4, 0x39, 0x03, 8 * r);
    at = store;
  }
  // The code section's size (510 → 506) and its one body's (507 → 503), both two-byte LEB128.
  const code = find([0x0a, 0xfe, 0x03, 0x01, 0xfb, 0x03], 0);
  if (code < 0 || find(address, at) >= 0) return null;
  bytes.splice(code, 6, 0x0a, 0xfa, 0x03, 0x01, 0xf7, 0x03);
  return new Uint8Array(bytes);
}

type Dots = (mat: number, qd: number, out: number, docs: number, groups: number, rowBytes: number) => void;

const PAGE = 65_536;

interface Kernel {
  dots: Dots;
  memory: WebAssembly.Memory;
}

/** The one instance (made on first use), null where WebAssembly SIMD is missing; its memory grows as calls need. */
let kernel: Kernel | null | undefined;

function instance(): Kernel | null {
  if (kernel === undefined) {
    kernel = null;
    const bytes = wideModule(MODULE);
    if (bytes && typeof WebAssembly === 'object') {
      try {
        const memory = new WebAssembly.Memory({ initial: 1 });
        const made = new WebAssembly.Instance(new WebAssembly.Module(bytes), { m: { mem: memory } });
        kernel = { dots: made.exports.dots as Dots, memory };
      } catch {
        kernel = null; // no SIMD in this runtime: the caller's JavaScript loops
      }
    }
  }
  return kernel;
}

/**
 * out[j · count + r] = dot(table, rows[r] · dims, queries.subarray(j · dims), dims) for every query j < k and row
 * r < count, the same doubles as dot's. False (nothing written) where the kernel cannot give dot's numbers: no
 * WebAssembly SIMD, or rows not a multiple of four floats; the caller then uses dot.
 */
export function tableDots(
  table: Float32Array,
  rows: ArrayLike<number>,
  count: number,
  queries: Float32Array,
  k: number,
  dims: number,
  out: Float64Array,
): boolean {
  if (dims < 4 || dims % 4 !== 0) return false;
  const wasm = instance();
  if (!wasm) return false;
  const slots = Math.ceil(count / DOT_ROWS) * DOT_ROWS;
  const rowBytes = dims * 4;
  const qdAt = slots * rowBytes;
  const docsAt = qdAt + dims * 8;
  const outAt = docsAt + slots * 4;
  const need = outAt + slots * 8;
  if (need > wasm.memory.buffer.byteLength) wasm.memory.grow(Math.ceil((need - wasm.memory.buffer.byteLength) / PAGE));
  const buffer = wasm.memory.buffer;
  const mat = new Float32Array(buffer, 0, slots * dims);
  for (let r = 0; r < count; r++) mat.set(table.subarray(rows[r]! * dims, (rows[r]! + 1) * dims), r * dims);
  const docs = new Int32Array(buffer, docsAt, slots);
  for (let r = 0; r < slots; r++) docs[r] = r < count ? r : 0; // the slots past the rows: row 0 again, not read
  const qd = new Float64Array(buffer, qdAt, dims);
  const results = new Float64Array(buffer, outAt, slots);
  for (let j = 0; j < k; j++) {
    const base = j * dims;
    for (let d = 0; d < dims; d++) qd[d] = queries[base + d]!;
    wasm.dots(0, qdAt, outAt, docsAt, slots / DOT_ROWS, rowBytes);
    out.set(results.subarray(0, count), j * count);
  }
  return true;
}
