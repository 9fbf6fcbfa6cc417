/**
 * gpt-tokenizer's encoder core for one encoding, its rank table and pre-tokenizing regex unchanged, with long
 * pieces merged by `heapBytePairMerge` instead of its quadratic merge. Short pieces (nearly all of them) keep
 * gpt-tokenizer's own merge, which is faster below the threshold.
 */
import type { Encoding } from '../../types.js';
import { createMergeTable, heapBytePairMerge } from './heap-merge.js';

/**
 * Pieces of at least this many UTF-8 bytes use the heap merge. bench:tokens measured the crossover: below about
 * this length gpt-tokenizer's array merge is as fast or faster; above it the array merge grows quadratically.
 */
export const HEAP_MERGE_MIN_BYTES = 64;

export interface EncodingCore {
  /** Token count of `text`; special-token strings such as "<|endoftext|>" count as plain text. */
  count: (text: string) => number;
  /** Token ids of `text`, special-token strings as plain text (for the reference tests and benchmarks). */
  encode: (text: string) => number[];
}

/** The two methods of gpt-tokenizer's core used here; private in its typings, checked at load. */
interface CoreInternals {
  bytePairMerge(piece: Uint8Array): number[];
  getBpeRankFromBytes(bytes: Uint8Array): number | undefined;
}

async function loadParams(encoding: Encoding) {
  if (encoding === 'cl100k_base') {
    const [{ Cl100KBase }, ranks] = await Promise.all([
      import('gpt-tokenizer/encodingParams/cl100k_base'),
      import('gpt-tokenizer/bpeRanks/cl100k_base'),
    ]);
    return Cl100KBase(ranks.default);
  }
  const [{ O200KBase }, ranks] = await Promise.all([
    import('gpt-tokenizer/encodingParams/o200k_base'),
    import('gpt-tokenizer/bpeRanks/o200k_base'),
  ]);
  return O200KBase(ranks.default);
}

/**
 * Loads the encoding from gpt-tokenizer's shipped rank data (nothing is downloaded). `heapMergeMinBytes`
 * moves the threshold (tests force the heap merge on every piece with 2, or never with Infinity).
 */
export async function loadEncodingCore(
  encoding: Encoding,
  opts: { heapMergeMinBytes?: number } = {},
): Promise<EncodingCore> {
  const minBytes = opts.heapMergeMinBytes ?? HEAP_MERGE_MIN_BYTES;
  const [{ BytePairEncodingCore }, params] = await Promise.all([
    import('gpt-tokenizer/BytePairEncodingCore'),
    loadParams(encoding),
  ]);
  const core = new BytePairEncodingCore(params);
  const internals = core as unknown as Partial<CoreInternals>;
  if (typeof internals.bytePairMerge !== 'function' || typeof internals.getBpeRankFromBytes !== 'function') {
    throw new Error('gpt-tokenizer no longer has bytePairMerge/getBpeRankFromBytes: update src/core/tokens');
  }
  const arrayMerge = internals.bytePairMerge.bind(core);
  const table = createMergeTable(internals.getBpeRankFromBytes.bind(core));
  internals.bytePairMerge = (piece) => (piece.length >= minBytes ? heapBytePairMerge(piece, table) : arrayMerge(piece));
  return {
    count: (text) => (text === '' ? 0 : core.countNative(text)),
    encode: (text) => core.encodeNative(text),
  };
}
