/**
 * An encoding's rank table in a binary form that loads without parsing, written at build time from the installed
 * gpt-tokenizer's own table (scripts/build-ranks.mjs → dist/ranks/<encoding>.bin; nothing is downloaded).
 *
 * gpt-tokenizer ships each table as a JavaScript module: requiring o200k_base compiles and runs 2.4 MB of source
 * (≈300 ms on an idle machine), and its core's constructor then puts the 200k strings in a Map (≈150 ms, a third of
 * it `Object.keys` over the array). Here the file is read and viewed as typed arrays: the tokens' text as UTF-16
 * code units end to end, and an open-addressing hash table of their ranks made at build time. No string, Map or
 * array of 200k entries is made at load. The core is given only the ≈1.6k byte-sequence tokens (those that are
 * not valid UTF-8) and answers text lookups through `lookupRank`, so every count is the one gpt-tokenizer's core
 * gives (test/unit/tokens-rank-table.test.ts).
 *
 * Layout (little-endian, every section 4-byte aligned): a 32-byte header — "MSRT", format, rank count, byte-token
 * count, log2 of the slots, meta bytes, text code units, byte-token bytes — then Int32 slots (a rank, or -1),
 * Int32 byte-token ranks and Uint32 ends, the code units, Uint8 lengths[rank] (of each token's text in code units;
 * 0 for a byte token; the loader sums them into ends), the meta JSON, the byte tokens' bytes.
 */

const MAGIC = 0x5452534d; // "MSRT" read as a little-endian u32
const FORMAT = 1;
const EMPTY = -1;
const HEADER_BYTES = 32;

/** Where a table came from; the loader uses a table only when both match what it would otherwise load. */
export interface RankTableMeta {
  encoding: string;
  /** The gpt-tokenizer version the table was written from. */
  gptTokenizer: string;
}

export interface RankTable {
  meta: RankTableMeta;
  /** Rank of a token given as its text; undefined when the text is not one token. */
  lookupRank: (piece: string) => number | undefined;
  /** The tokens that are byte sequences (not valid UTF-8), at their ranks; a sparse array. */
  byteTokens: Uint8Array[];
  /** Number of string tokens. */
  strings: number;
}

const utf8 = new TextEncoder();
const align4 = (n: number): number => (n + 3) & ~3;

/** FNV-1a over UTF-16 code units, then spread: the slot is taken from the top bits. */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return Math.imul(h ^ (h >>> 15), 0x9e3779b1);
}

/** True when the code units units[start, start + text.length) are `text`. */
function sameText(units: Uint16Array, start: number, text: string): boolean {
  for (let i = 0; i < text.length; i++) if (units[start + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** The binary form of gpt-tokenizer's rank array (`ranks[rank]` = the token's text, or its bytes). */
export function encodeRankTable(ranks: readonly (string | readonly number[])[], meta: RankTableMeta): Uint8Array {
  const n = ranks.length;
  let textUnits = 0;
  const byteRanks: number[] = [];
  const byteTokens: number[] = [];
  const byteEnds: number[] = [];
  for (let rank = 0; rank < n; rank++) {
    const value = ranks[rank];
    if (typeof value === 'string') textUnits += value.length;
    else if (value) {
      byteRanks.push(rank);
      byteTokens.push(...value);
      byteEnds.push(byteTokens.length);
    } else throw new Error(`rank ${rank} has no token`);
  }
  let bits = 1;
  while (1 << bits < 2 * (n - byteRanks.length)) bits++; // at most half full: a miss probes ≈1.5 slots
  const metaBytes = utf8.encode(JSON.stringify(meta));
  const slotsAt = HEADER_BYTES;
  const byteRanksAt = slotsAt + 4 * (1 << bits);
  const byteEndsAt = byteRanksAt + 4 * byteRanks.length;
  const unitsAt = byteEndsAt + 4 * byteRanks.length;
  const lengthsAt = unitsAt + 2 * textUnits;
  const metaAt = align4(lengthsAt + n);
  const byteTokensAt = align4(metaAt + metaBytes.length);
  const out = new Uint8Array(byteTokensAt + byteTokens.length);
  const head = [MAGIC, FORMAT, n, byteRanks.length, bits, metaBytes.length, textUnits, byteTokens.length];
  const view = new DataView(out.buffer);
  head.forEach((v, i) => view.setUint32(4 * i, v, true));
  const slots = new Int32Array(1 << bits).fill(EMPTY);
  const units = new Uint16Array(textUnits);
  const ends = new Uint32Array(n);
  let end = 0;
  for (let rank = 0; rank < n; rank++) {
    const text = ranks[rank];
    if (typeof text === 'string') {
      for (let i = 0; i < text.length; i++) units[end++] = text.charCodeAt(i);
      // A text listed twice keeps its last rank, as the core's Map does.
      let slot = hashOf(text) >>> (32 - bits);
      for (;;) {
        const r = slots[slot]!;
        if (
          r === EMPTY ||
          (ends[r]! - (r === 0 ? 0 : ends[r - 1]!) === text.length && sameText(units, ends[r]! - text.length, text))
        )
          break;
        slot = (slot + 1) & ((1 << bits) - 1);
      }
      slots[slot] = rank;
    }
    ends[rank] = end;
  }
  const put = (at: number, values: ArrayLike<number>): void => {
    for (let i = 0; i < values.length; i++) view.setUint32(at + 4 * i, values[i]! >>> 0, true);
  };
  ends.forEach((e, rank) => {
    const length = e - (rank === 0 ? 0 : ends[rank - 1]!);
    if (length > 255) throw new Error(`token ${rank} is longer than 255 code units`);
    out[lengthsAt + rank] = length;
  });
  put(slotsAt, slots);
  put(byteRanksAt, byteRanks);
  put(byteEndsAt, byteEnds);
  for (let i = 0; i < textUnits; i++) view.setUint16(unitsAt + 2 * i, units[i]!, true);
  out.set(metaBytes, metaAt);
  out.set(byteTokens, byteTokensAt);
  return out;
}

/** Reads a table written by `encodeRankTable`; throws on anything else (the loader then uses the module). */
export function decodeRankTable(file: Uint8Array): RankTable {
  if (new Uint8Array(Uint16Array.of(1).buffer)[0] !== 1) throw new Error('rank tables are little-endian');
  // Typed-array views need 4-byte alignment: a Buffer from the pool may start anywhere.
  const data = file.byteOffset % 4 === 0 ? file : file.slice();
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (data.byteLength < HEADER_BYTES || view.getUint32(0, true) !== MAGIC) throw new Error('not a rank table');
  const head = Array.from({ length: 8 }, (_, i) => view.getUint32(4 * i, true));
  const [, format, n, nBytes, bits, metaLength, textUnits, byteTokensLength] = head as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (format !== FORMAT) throw new Error(`rank table format ${format}, expected ${FORMAT}`);
  if (bits < 1 || bits > 30) throw new Error('rank table damaged');
  const slotsAt = HEADER_BYTES;
  const byteRanksAt = slotsAt + 4 * 2 ** bits;
  const byteEndsAt = byteRanksAt + 4 * nBytes;
  const unitsAt = byteEndsAt + 4 * nBytes;
  const lengthsAt = unitsAt + 2 * textUnits;
  const metaAt = align4(lengthsAt + n);
  const byteTokensAt = align4(metaAt + metaLength);
  if (data.byteLength !== byteTokensAt + byteTokensLength) throw new Error('rank table truncated');
  const base = data.byteOffset;
  const ends = new Uint32Array(n);
  const lengths = data.subarray(lengthsAt, lengthsAt + n);
  for (let rank = 0, end = 0; rank < n; rank++) ends[rank] = end += lengths[rank]!;
  const slots = new Int32Array(data.buffer, base + slotsAt, 2 ** bits);
  const byteRanks = new Int32Array(data.buffer, base + byteRanksAt, nBytes);
  const byteEnds = new Uint32Array(data.buffer, base + byteEndsAt, nBytes);
  const units = new Uint16Array(data.buffer, base + unitsAt, textUnits);
  if (n > 0 && ends[n - 1] !== textUnits) throw new Error('rank table damaged');
  const meta = JSON.parse(new TextDecoder().decode(data.subarray(metaAt, metaAt + metaLength))) as RankTableMeta;
  const byteTokens: Uint8Array[] = [];
  let from = 0;
  for (let j = 0; j < nBytes; j++) {
    const to = byteEnds[j]!;
    byteTokens[byteRanks[j]!] = data.slice(byteTokensAt + from, byteTokensAt + to);
    from = to;
  }
  const shift = 32 - bits;
  const mask = 2 ** bits - 1;
  return {
    meta,
    strings: n - nBytes,
    byteTokens,
    lookupRank: (piece) => {
      let slot = hashOf(piece) >>> shift;
      for (;;) {
        const rank = slots[slot]!;
        if (rank === EMPTY) return undefined;
        const end = ends[rank]!;
        const start = rank === 0 ? 0 : ends[rank - 1]!;
        if (end - start === piece.length && sameText(units, start, piece)) return rank;
        slot = (slot + 1) & mask;
      }
    },
  };
}
