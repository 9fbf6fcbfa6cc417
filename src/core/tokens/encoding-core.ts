/**
 * gpt-tokenizer's encoder core for one encoding, its rank table and pre-tokenizing regex unchanged, with long
 * pieces merged by `heapBytePairMerge` instead of its quadratic merge. Short pieces (nearly all of them) keep
 * gpt-tokenizer's own merge, which is faster below the threshold.
 *
 * Its merge cache is replaced too: an LRU over a Map that evicts with `keys().next()` after a delete per
 * insert, which V8 answers by skipping every deleted slot, so once full each new piece costs more than the
 * last (four 1 MB minified scripts in a row: 7, 18, 67, 98 s). Ours keeps short pieces only and is emptied
 * when full: the same hits on repeated text, constant time per piece.
 *
 * The rank table comes from the binary copy the build writes of gpt-tokenizer's (rank-table.ts: read without
 * parsing, ≈4× faster to load than requiring its module, ≈40 MB less RSS), or from its module when there is
 * none (running from src/) or it was written from another gpt-tokenizer version. The counts are the same.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Encoding } from '../types.js';
import { createMergeTable, heapBytePairMerge } from './heap-merge.js';
import { decodeRankTable, type RankTable } from './rank-table.js';

/**
 * Pieces of at least this many UTF-8 bytes use the heap merge. Measured on 400 KB of random lowercase pieces of
 * one length each (2026-11-24): the two merges cost the same at 32–64 bytes, the heap merge is 4–7× faster at
 * 96–512 bytes. 64 leaves gpt-tokenizer's own merge for almost every piece of ordinary text.
 */
export const HEAP_MERGE_MIN_BYTES = 64;

export interface EncodingCore {
  /** Token count of `text`; special-token strings such as "<|endoftext|>" count as plain text. */
  count: (text: string) => number;
  /** Token ids of `text`, special-token strings as plain text (tests and benchmarks; at most ~100k per piece). */
  encode: (text: string) => number[];
  /** Where the ranks came from: the built table (dist/ranks/) or gpt-tokenizer's module (no table, or a stale one). */
  source: 'table' | 'module';
}

/** Pieces cached by their text: at most this many (by default), of at most PIECE_CACHE_MAX_LENGTH UTF-16 units. */
const PIECE_CACHE_ENTRIES = 100_000;
const PIECE_CACHE_MAX_LENGTH = 256;

/** The methods of gpt-tokenizer's core used here; private in its typings, checked at load. */
interface CoreInternals {
  getBpeRankFromString(piece: string): number | undefined;
  bytePairEncode(piece: string): number[];
  bytePairMerge(piece: Uint8Array): number[];
  getBpeRankFromBytes(bytes: Uint8Array): number | undefined;
}

const require = createRequire(import.meta.url);

/**
 * The rank table of one encoding, read with require and taken out of require's cache at once: an imported module
 * stays loaded for good (its 200k strings and 4 MB of source), this one is freed with the last core using it.
 */
function loadRanks(encoding: Encoding): (string | number[])[] {
  const id = require.resolve(`gpt-tokenizer/bpeRanks/${encoding}`);
  try {
    return (require(id) as { default: (string | number[])[] }).default;
  } finally {
    delete require.cache[id];
  }
}

/** The encoding's table as the build writes it, next to the built code (dist/ranks/; absent under src/). */
const builtRankTable = (encoding: Encoding): URL => new URL(`../../ranks/${encoding}.bin`, import.meta.url);

/**
 * The table at `url` when it is there, whole, and was written for this encoding from the gpt-tokenizer installed
 * now; else undefined, and the caller requires gpt-tokenizer's module as before (same counts, slower load).
 */
async function loadRankTable(encoding: Encoding, url: URL): Promise<RankTable | undefined> {
  let table: RankTable;
  try {
    table = decodeRankTable(await readFile(url));
  } catch {
    return undefined;
  }
  const { version } = require('gpt-tokenizer/package.json') as { version: string };
  return table.meta.encoding === encoding && table.meta.gptTokenizer === version ? table : undefined;
}

async function loadParams(encoding: Encoding, ranks: (string | number[])[]) {
  if (encoding === 'cl100k_base') {
    const { Cl100KBase } = await import('gpt-tokenizer/encodingParams/cl100k_base');
    return Cl100KBase(ranks);
  }
  const { O200KBase } = await import('gpt-tokenizer/encodingParams/o200k_base');
  return O200KBase(ranks);
}

/**
 * Loads the encoding from gpt-tokenizer's shipped rank data (nothing is downloaded): from the table the build
 * wrote from it when there is one (`rankTable` reads another file, or with false none), else from its module.
 * `heapMergeMinBytes`
 * moves the threshold (tests force the heap merge on every piece with 2, or never with Infinity);
 * `pieceCacheEntries` sizes the piece cache (tests make it tiny so that it is emptied again and again).
 */
export async function loadEncodingCore(
  encoding: Encoding,
  opts: { heapMergeMinBytes?: number; pieceCacheEntries?: number; rankTable?: URL | false } = {},
): Promise<EncodingCore> {
  const minBytes = opts.heapMergeMinBytes ?? HEAP_MERGE_MIN_BYTES;
  const cacheEntries = opts.pieceCacheEntries ?? PIECE_CACHE_ENTRIES;
  const rankTable =
    opts.rankTable === false ? undefined : await loadRankTable(encoding, opts.rankTable ?? builtRankTable(encoding));
  // With a table the core gets only the byte-sequence tokens (a sparse array: its constructor's Object.keys and
  // Map see ≈1.6k entries, not 200k) and answers string lookups from the table.
  const ranks = rankTable ? (rankTable.byteTokens as unknown as number[][]) : loadRanks(encoding);
  const [{ BytePairEncodingCore }, params] = await Promise.all([
    import('gpt-tokenizer/BytePairEncodingCore'),
    loadParams(encoding, ranks),
  ]);
  const core = new BytePairEncodingCore({ ...params, mergeCacheSize: 0 });
  const internals = core as unknown as Partial<CoreInternals>;
  if (
    typeof internals.getBpeRankFromString !== 'function' ||
    typeof internals.bytePairEncode !== 'function' ||
    typeof internals.bytePairMerge !== 'function' ||
    typeof internals.getBpeRankFromBytes !== 'function'
  ) {
    throw new Error(
      'gpt-tokenizer no longer has getBpeRankFromString/bytePairEncode/bytePairMerge/getBpeRankFromBytes: update src/core/tokens',
    );
  }
  if (rankTable) internals.getBpeRankFromString = rankTable.lookupRank;
  const arrayMerge = internals.bytePairMerge.bind(core);
  const table = createMergeTable(internals.getBpeRankFromBytes.bind(core));
  internals.bytePairMerge = (piece) => (piece.length >= minBytes ? heapBytePairMerge(piece, table) : arrayMerge(piece));
  const encodePiece = internals.bytePairEncode.bind(core);
  const cache = new Map<string, number[]>();
  internals.bytePairEncode = (piece) => {
    let tokens = cache.get(piece);
    if (tokens === undefined) {
      tokens = encodePiece(piece);
      if (piece.length <= PIECE_CACHE_MAX_LENGTH) {
        if (cache.size >= cacheEntries) cache.clear();
        cache.set(piece, tokens);
      }
    }
    return tokens;
  };
  return {
    count: (text) => (text === '' ? 0 : core.countNative(text)),
    encode: (text) => core.encodeNative(text),
    source: rankTable ? 'table' : 'module',
  };
}
