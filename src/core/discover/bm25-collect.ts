/**
 * The BM25F index (bm25.ts) built from documents fed one at a time: each document's analysed fields are interned to
 * term numbers as it is added and can be dropped at once, so a build over 100k tools never holds every tool's word
 * lists. Only numbers are kept (a term number and a field per occurrence, each document's field lengths); the
 * length-normalised weights need the average lengths, so they are computed in `finish`. The occurrences fill blocks
 * of a fixed size, never copied to grow: a doubling array left its old half (~40 MB on 100k tools) as garbage beside
 * the new one during the pass, and a block is touched only as it fills.
 */
import { PackedPostings, type Posting } from './packed-postings.js';
import type { HybridWeights } from './weights.js';

/** BM25F's parameters (k1, each field's weight and length normalisation). */
export type Bm25Params = HybridWeights['bm25'];

export interface Bm25Index {
  size: number;
  /** term → ascending doc numbers and each doc's precomputed score contribution (a built or read index's are packed). */
  postings: ReadonlyMap<string, Posting>;
}

export const BM25_FIELDS = ['name', 'description', 'params', 'server'] as const;
export type Bm25Field = (typeof BM25_FIELDS)[number];
const FIELD_COUNT = BM25_FIELDS.length;

/**
 * A collector's documents as numbers (a worker thread sends them as transferable arrays): the terms in their
 * numbers' order, each occurrence's term number and field, each document's end in the occurrences and its field
 * lengths.
 */
export interface CollectorPart {
  /** The number of the first of `terms` (the terms numbered before it came with earlier parts). */
  firstTerm: number;
  terms: string[];
  occTerm: Int32Array;
  occField: Uint8Array;
  docEnd: Int32Array;
  lengths: Int32Array;
}

/** Occurrences a block holds (1.25 MB of numbers). */
const BLOCK = 1 << 18;

export class Bm25Collector {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];
  /** The occurrences' term numbers and fields, `block` of each per array; the last arrays are being filled. */
  private readonly termBlocks: Int32Array[] = [];
  private readonly fieldBlocks: Uint8Array[] = [];
  /** Occurrences held (the next one's place: block count / block, at count % block). */
  private count = 0;
  private occTerm!: Int32Array;
  private occField!: Uint8Array;
  /** Where the next occurrence goes in occTerm and occField. */
  private at = 0;
  /** Terms numbered before the last cut. */
  private cutTerms = 0;
  private readonly docEnd: number[] = [];
  /** Each document's field lengths, FIELD_COUNT per document. */
  private readonly lengths: number[] = [];

  /** `block`: the occurrences one block holds (blocks are added as they fill). */
  constructor(private readonly block = BLOCK) {
    this.nextBlock();
  }

  /** Makes the next block the one being filled (a new one unless a cut left it). */
  private nextBlock(): void {
    const b = Math.floor(this.count / this.block);
    if (b === this.termBlocks.length) {
      this.termBlocks.push(new Int32Array(this.block));
      this.fieldBlocks.push(new Uint8Array(this.block));
    }
    this.occTerm = this.termBlocks[b]!;
    this.occField = this.fieldBlocks[b]!;
    this.at = 0;
  }

  /** Adds the next document (doc numbers follow the order of the calls). */
  add(doc: Readonly<Record<Bm25Field, readonly string[]>>): void {
    for (let f = 0; f < FIELD_COUNT; f++) {
      const list = doc[BM25_FIELDS[f]!];
      this.lengths.push(list.length);
      for (let j = 0; j < list.length; j++) {
        const t = list[j]!;
        let id = this.ids.get(t);
        if (id === undefined) {
          id = this.terms.length;
          this.ids.set(t, id);
          this.terms.push(t);
        }
        if (this.at === this.block) this.nextBlock();
        this.occTerm[this.at] = id;
        this.occField[this.at++] = f;
        this.count++;
      }
    }
    this.docEnd.push(this.count);
  }

  /**
   * The documents added since the last cut, as numbers (fresh arrays), with the terms first numbered since then;
   * the collector keeps its term numbers and goes on with no documents (a worker thread sends a range at a time).
   */
  cut(): CollectorPart {
    const part = {
      firstTerm: this.cutTerms,
      terms: this.terms.slice(this.cutTerms),
      occTerm: joinBlocks(this.termBlocks, this.count, new Int32Array(this.count)),
      occField: joinBlocks(this.fieldBlocks, this.count, new Uint8Array(this.count)),
      docEnd: Int32Array.from(this.docEnd),
      lengths: Int32Array.from(this.lengths),
    };
    this.cutTerms = this.terms.length;
    this.count = 0;
    this.nextBlock(); // the blocks are filled again from the first
    this.docEnd.length = 0;
    this.lengths.length = 0;
    return part;
  }

  /**
   * Adds another collector's documents after these. Their terms are numbered here as they first occur in them,
   * which is the order adding those documents here one by one would number them: the index is the same. Parts cut
   * one after another from one collector share its numbering: `terms` all its terms (their parts' joined), `remap`
   * one array for all of them (its numbers to these, -1 where not yet known).
   */
  append(
    part: CollectorPart,
    terms: readonly string[] = part.terms,
    remap: Int32Array = new Int32Array(terms.length).fill(-1),
  ): void {
    const base = this.count;
    const n = part.occTerm.length;
    const { ids, block } = this;
    for (let j = 0; j < n; j++) {
      const local = part.occTerm[j]!;
      let id = remap[local]!;
      if (id < 0) {
        const t = terms[local]!;
        id = ids.get(t) ?? -1;
        if (id < 0) {
          id = this.terms.length;
          ids.set(t, id);
          this.terms.push(t);
        }
        remap[local] = id;
      }
      if (this.at === block) this.nextBlock();
      this.occTerm[this.at] = id;
      this.occField[this.at++] = part.occField[j]!;
      this.count++;
    }
    for (const end of part.docEnd) this.docEnd.push(base + end);
    for (const len of part.lengths) this.lengths.push(len);
  }

  /**
   * The inverted index; every posting holds idf · tf~/(k1 + tf~), so a query only adds numbers. It ends the
   * collector: the index keeps its term numbers (add, cut or append after it would renumber the index's terms).
   */
  finish(params: Bm25Params): Bm25Index {
    const n = this.docEnd.length;
    const { termBlocks, fieldBlocks, docEnd, lengths, block } = this;
    const avg = new Array<number>(FIELD_COUNT).fill(0);
    for (let d = 0; d < n; d++) for (let f = 0; f < FIELD_COUNT; f++) avg[f] = avg[f]! + lengths[d * FIELD_COUNT + f]!;
    for (let f = 0; f < FIELD_COUNT; f++) avg[f] = avg[f]! / Math.max(1, n) || 1;
    // Each document's length-normalised field weights, as 32-bit floats (the precision the postings keep).
    const norms = new Float32Array(n * FIELD_COUNT);
    for (let d = 0; d < n; d++)
      for (let f = 0; f < FIELD_COUNT; f++) {
        const len = lengths[d * FIELD_COUNT + f]!;
        if (len > 0)
          norms[d * FIELD_COUNT + f] = params.fields[BM25_FIELDS[f]!] / (1 - params.b + (params.b * len) / avg[f]!);
      }
    const m = this.terms.length;
    const df = new Int32Array(m);
    const lastDoc = new Int32Array(m).fill(-1);
    // j counts the occurrences, k their place in the block b (occTerm, occField).
    let b = 0;
    let k = 0;
    let occTerm = termBlocks[0]!;
    for (let d = 0, j = 0; d < n; d++) {
      for (const end = docEnd[d]!; j < end; j++, k++) {
        if (k === block) {
          occTerm = termBlocks[++b]!;
          k = 0;
        }
        const id = occTerm[k]!;
        if (lastDoc[id] !== d) {
          lastDoc[id] = d;
          df[id] = df[id]! + 1;
        }
      }
    }
    // Every term's postings in one pair of arrays, term after term (each term's are views of them): two allocations
    // instead of two per term, and the layout encodeBm25Index writes and decodeBm25Index reads.
    const start = new Int32Array(m + 1);
    for (let id = 0; id < m; id++) start[id + 1] = start[id]! + df[id]!;
    const allDocs = new Int32Array(start[m]!);
    const allTf = new Float32Array(start[m]!);
    const fill = start.slice(0, m);
    lastDoc.fill(-1);
    b = 0;
    k = 0;
    occTerm = termBlocks[0]!;
    let occField = fieldBlocks[0]!;
    for (let d = 0, j = 0; d < n; d++) {
      for (const end = docEnd[d]!; j < end; j++, k++) {
        if (k === block) {
          occTerm = termBlocks[++b]!;
          occField = fieldBlocks[b]!;
          k = 0;
        }
        const id = occTerm[k]!;
        const norm = norms[d * FIELD_COUNT + occField[k]!]!;
        if (lastDoc[id] !== d) {
          lastDoc[id] = d;
          allDocs[fill[id]!] = d;
          allTf[fill[id]!] = norm;
          fill[id] = fill[id]! + 1;
        } else {
          const at = fill[id]! - 1;
          allTf[at] = allTf[at]! + norm;
        }
      }
    }
    for (let id = 0; id < m; id++) {
      const count = df[id]!;
      const idf = Math.log(1 + (n - count + 0.5) / (count + 0.5));
      // The tf array becomes the contribution array in place.
      for (let i = start[id]!, to = start[id + 1]!; i < to; i++) allTf[i] = (idf * allTf[i]!) / (params.k1 + allTf[i]!);
    }
    const postings = new PackedPostings(this.terms, this.ids, start, allDocs, allTf);
    return { size: n, postings };
  }
}

/** The first `count` numbers of the blocks, one after the other, in `out`. */
function joinBlocks<T extends Int32Array | Uint8Array>(blocks: readonly T[], count: number, out: T): T {
  for (let b = 0, at = 0; at < count; b++) {
    const block = blocks[b]!;
    const n = Math.min(block.length, count - at);
    out.set(block.subarray(0, n), at);
    at += n;
  }
  return out;
}
