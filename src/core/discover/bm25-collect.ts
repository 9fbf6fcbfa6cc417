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

export class Bm25Collector {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];
  private occTerm = new Int32Array(1 << 16);
  private occField = new Uint8Array(1 << 16);
  private count = 0;
  private readonly docEnd: number[] = [];
  /** Each document's field lengths, FIELD_COUNT per document. */
  private readonly lengths: number[] = [];

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
