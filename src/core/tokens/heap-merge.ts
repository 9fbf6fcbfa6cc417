/**
 * Exact byte-pair merge in O(n log n) for long pieces (a run of letters, CJK text, a long punctuation run).
 *
 * The standard merge repeatedly merges the adjacent pair of parts with the lowest rank, the leftmost one on a
 * tie, until no adjacent pair is a token. Done with an array scan and splice per merge it is quadratic: a
 * 40,000-letter piece takes 1.7 s and a 1 MB one many minutes. Here the parts are a doubly linked list over the
 * piece's byte offsets and the candidate pairs sit in a binary min-heap keyed by (rank, start offset), so the
 * heap's minimum is exactly the pair the standard merge would pick. A merge changes only the pair it joins and
 * the pair to its left; both are recomputed and pushed again. Entries made stale by earlier merges stay in the
 * heap and are skipped when popped (lazy invalidation): an entry is current when its part still starts a part
 * and that part's pair still has the entry's rank — and then it is a real current pair with that rank at that
 * offset, which is all the standard merge needs. Every part is a token, so a pair's rank depends only on the
 * two tokens; it is memoised by token pair, and the bytes are looked up only on a miss.
 */

/** Rank of a byte sequence, undefined when it is not a token. */
export type RankOfBytes = (bytes: Uint8Array) => number | undefined;

/** What the merge needs from an encoding's rank table. Build once per encoding with `createMergeTable`. */
export interface MergeTable {
  rankOf: RankOfBytes;
  /** Token of each single byte (every byte is a token in the BPE encodings we use). */
  byteRanks: Int32Array;
  /**
   * Memo of pair ranks kept between pieces: (left token, right token) → rank of the joined bytes or NONE; 192 KB,
   * made on first use. A piece too long for it gets a memo of its own, dropped after it (up to 12 MB while it runs).
   */
  pairs?: PairMemo;
}

/**
 * Open-addressing hash table of (left token, right token) → rank, in typed arrays: a Map keyed by a number
 * above 2^31 hashes a boxed double and was the merge's main cost. Fixed size; emptied when half full.
 */
interface PairMemo {
  left: Int32Array;
  right: Int32Array;
  rank: Int32Array;
  used: number;
  /** log2 of its slots. */
  bits: number;
}

/** The kept memo's size (2^14 slots), and the largest a long piece gets (2^20 slots: 12 MB). */
const KEPT_MEMO_BITS = 14;
const MAX_MEMO_BITS = 20;
const EMPTY = -2;

function createPairMemo(bits: number): PairMemo {
  const size = 1 << bits;
  return {
    left: new Int32Array(size).fill(EMPTY),
    right: new Int32Array(size),
    rank: new Int32Array(size),
    used: 0,
    bits,
  };
}

/** The memo for a piece of `n` bytes: the kept one, or for a long piece one of its own (about 4 slots a byte). */
function memoFor(table: MergeTable, n: number): PairMemo {
  if (n <= 1 << (KEPT_MEMO_BITS - 2)) return (table.pairs ??= createPairMemo(KEPT_MEMO_BITS));
  return createPairMemo(Math.min(MAX_MEMO_BITS, Math.ceil(Math.log2(n)) + 2));
}

const NONE = -1;
/** Start offsets stay below 2^32 (pieces under 4 GB), so rank · 2^32 + start is exact in a double. */
const START_SPACE = 2 ** 32;

export function createMergeTable(rankOf: RankOfBytes): MergeTable {
  const byteRanks = new Int32Array(256);
  for (let b = 0; b < 256; b++) {
    const r = rankOf(Uint8Array.of(b));
    if (r === undefined) throw new Error(`byte ${b} is not a token of this encoding`);
    byteRanks[b] = r;
  }
  return { rankOf, byteRanks };
}

/** Token ids of `piece` (UTF-8 bytes of one pre-tokenized piece), identical to the standard byte-pair merge. */
export function heapBytePairMerge(piece: Uint8Array, table: MergeTable): number[] {
  const n = piece.length;
  if (n === 0) return [];
  const { rankOf, byteRanks } = table;
  const pairs = memoFor(table, n);
  const { left, right, rank: memoRank } = pairs;
  const shift = 32 - pairs.bits;
  const mask = (1 << pairs.bits) - 1;
  const half = 1 << (pairs.bits - 1);
  // Indexed by a part's start offset; a merged-away part gets tok = NONE and is never a start again.
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  const tok = new Int32Array(n);
  const pairRank = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
    tok[i] = byteRanks[piece[i]!]!;
  }

  // Rank of the pair that starts at part i (i and next[i]), NONE when there is none or it is not a token.
  const rankAt = (i: number): number => {
    const j = next[i]!;
    if (j >= n) return NONE;
    const a = tok[i]!;
    const b = tok[j]!;
    let slot = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77)) >>> shift;
    for (;;) {
      const l = left[slot]!;
      if (l === EMPTY) break;
      if (l === a && right[slot] === b) return memoRank[slot]!;
      slot = (slot + 1) & mask;
    }
    const r = rankOf(piece.subarray(i, next[j])) ?? NONE;
    if (pairs.used >= half) {
      left.fill(EMPTY);
      pairs.used = 0;
      return r; // the probe chain just emptied; the next lookup of this pair stores it
    }
    left[slot] = a;
    right[slot] = b;
    memoRank[slot] = r;
    pairs.used++;
    return r;
  };

  // Binary min-heap of rank · 2^32 + start. Each merge pushes at most two entries: at most 3n in all.
  const heap = new Float64Array(3 * n);
  let size = 0;
  const push = (key: number): void => {
    let k = size++;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      const p = heap[parent]!;
      if (p <= key) break;
      heap[k] = p;
      k = parent;
    }
    heap[k] = key;
  };
  const pop = (): number => {
    const top = heap[0]!;
    const last = heap[--size]!;
    let k = 0;
    for (;;) {
      let c = 2 * k + 1;
      if (c >= size) break;
      if (c + 1 < size && heap[c + 1]! < heap[c]!) c++;
      if (heap[c]! >= last) break;
      heap[k] = heap[c]!;
      k = c;
    }
    heap[k] = last;
    return top;
  };

  for (let i = 0; i < n - 1; i++) {
    const r = rankAt(i);
    pairRank[i] = r;
    if (r !== NONE) push(r * START_SPACE + i);
  }
  pairRank[n - 1] = NONE;

  while (size > 0) {
    const key = pop();
    const rank = Math.floor(key / START_SPACE);
    const i = key - rank * START_SPACE;
    if (tok[i] === NONE || pairRank[i] !== rank) continue; // stale: the part or its pair changed since
    const j = next[i]!;
    const k = next[j]!;
    tok[i] = rank;
    tok[j] = NONE;
    next[i] = k;
    if (k < n) prev[k] = i;
    const r = rankAt(i);
    pairRank[i] = r;
    if (r !== NONE) push(r * START_SPACE + i);
    const p = prev[i]!;
    if (p >= 0) {
      const rp = rankAt(p);
      pairRank[p] = rp;
      if (rp !== NONE) push(rp * START_SPACE + p);
    }
  }

  const out: number[] = [];
  for (let i = 0; i < n; i = next[i]!) out.push(tok[i]!);
  return out;
}
