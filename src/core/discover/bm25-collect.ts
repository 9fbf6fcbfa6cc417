/**
 * The BM25F index (bm25.ts) built from documents fed one at a time: each document's analysed fields are interned to
 * term numbers as it is added and can be dropped at once, so a build over 100k tools never holds every tool's word
 * lists. Only numbers are kept (a term number and a field per occurrence, each document's field lengths); the
 * length-normalised weights need the average lengths, so they are computed in `finish`.
 */
import type { HybridWeights } from './weights.js';

/** BM25F's parameters (k1, each field's weight and length normalisation). */
export type Bm25Params = HybridWeights['bm25'];

export interface Bm25Index {
  size: number;
  /** term → ascending doc numbers and each doc's precomputed score contribution. */
  postings: Map<string, { docs: Int32Array; contrib: Float32Array }>;
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

export class Bm25Collector {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];
  private occTerm: Int32Array;
  private occField: Uint8Array;
  private count = 0;
  /** Terms numbered before the last cut. */
  private cutTerms = 0;
  private readonly docEnd: number[] = [];
  /** Each document's field lengths, FIELD_COUNT per document. */
  private readonly lengths: number[] = [];

  /** `capacity`: the occurrences held before the arrays grow (they double). */
  constructor(capacity = 1 << 16) {
    this.occTerm = new Int32Array(capacity);
    this.occField = new Uint8Array(capacity);
  }

  /** Adds the next document (doc numbers follow the order of the calls). */
  add(doc: Readonly<Record<Bm25Field, readonly string[]>>): void {
    for (let f = 0; f < FIELD_COUNT; f++) {
      const list = doc[BM25_FIELDS[f]!];
      this.lengths.push(list.length);
      if (this.count + list.length > this.occTerm.length) this.grow(this.count + list.length);
      for (let j = 0; j < list.length; j++) {
        const t = list[j]!;
        let id = this.ids.get(t);
        if (id === undefined) {
          id = this.terms.length;
          this.ids.set(t, id);
          this.terms.push(t);
        }
        this.occTerm[this.count] = id;
        this.occField[this.count++] = f;
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
      occTerm: this.occTerm.slice(0, this.count),
      occField: this.occField.slice(0, this.count),
      docEnd: Int32Array.from(this.docEnd),
      lengths: Int32Array.from(this.lengths),
    };
    this.cutTerms = this.terms.length;
    this.count = 0;
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
    if (base + n > this.occTerm.length) this.grow(base + n);
    const { occTerm, ids } = this;
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
      occTerm[base + j] = id;
    }
    this.occField.set(part.occField, base);
    this.count = base + n;
    for (const end of part.docEnd) this.docEnd.push(base + end);
    for (const len of part.lengths) this.lengths.push(len);
  }

  private grow(least: number): void {
    let size = this.occTerm.length * 2;
    while (size < least) size *= 2;
    const term = new Int32Array(size);
    term.set(this.occTerm.subarray(0, this.count));
    const field = new Uint8Array(size);
    field.set(this.occField.subarray(0, this.count));
    this.occTerm = term;
    this.occField = field;
  }

  /** The inverted index; every posting holds idf · tf~/(k1 + tf~), so a query only adds numbers. */
  finish(params: Bm25Params): Bm25Index {
    const n = this.docEnd.length;
    const { occTerm, occField, docEnd, lengths } = this;
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
    for (let d = 0, j = 0; d < n; d++) {
      for (const end = docEnd[d]!; j < end; j++) {
        const id = occTerm[j]!;
        if (lastDoc[id] !== d) {
          lastDoc[id] = d;
          df[id] = df[id]! + 1;
        }
      }
    }
    const docsOf = new Array<Int32Array>(m);
    const tfOf = new Array<Float32Array>(m);
    for (let id = 0; id < m; id++) {
      docsOf[id] = new Int32Array(df[id]!);
      tfOf[id] = new Float32Array(df[id]!);
    }
    const fill = new Int32Array(m);
    lastDoc.fill(-1);
    for (let d = 0, j = 0; d < n; d++) {
      for (const end = docEnd[d]!; j < end; j++) {
        const id = occTerm[j]!;
        const tf = tfOf[id]!;
        const norm = norms[d * FIELD_COUNT + occField[j]!]!;
        if (lastDoc[id] !== d) {
          lastDoc[id] = d;
          docsOf[id]![fill[id]!] = d;
          tf[fill[id]!] = norm;
          fill[id] = fill[id]! + 1;
        } else {
          const at = fill[id]! - 1;
          tf[at] = tf[at]! + norm;
        }
      }
    }
    const postings = new Map<string, { docs: Int32Array; contrib: Float32Array }>();
    for (let id = 0; id < m; id++) {
      const count = df[id]!;
      const idf = Math.log(1 + (n - count + 0.5) / (count + 0.5));
      const contrib = tfOf[id]!;
      // The tf array becomes the contribution array in place.
      for (let i = 0; i < count; i++) contrib[i] = (idf * contrib[i]!) / (params.k1 + contrib[i]!);
      postings.set(this.terms[id]!, { docs: docsOf[id]!, contrib });
    }
    return { size: n, postings };
  }
}
