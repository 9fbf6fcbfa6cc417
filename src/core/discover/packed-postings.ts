/**
 * A BM25 index's postings as the cache holds them: every term's docs and contributions in one pair of arrays, term
 * after term, with where each term's start. A ReadonlyMap of term → its postings whose pair of views is made when the
 * term is first asked for: a ranking asks for a query's few terms, and making a pair of views and an object for each
 * of servers-111's ~11,500 terms took ~7 ms of every first and every cached start (bench/RESULTS.md, "Issue 40,
 * session 25"). The encoder (bm25.ts bm25IndexSource) writes the arrays as they are.
 */

/** One term's postings: ascending doc numbers and each doc's precomputed score contribution. */
export interface Posting {
  docs: Int32Array;
  contrib: Float32Array;
}

export class PackedPostings implements ReadonlyMap<string, Posting> {
  private readonly made: (Posting | undefined)[];

  /**
   * `ids`: each of `terms` → its place in them (terms numbered in order); `start`: terms.length + 1 offsets, term i's
   * postings are docs[start[i], start[i + 1]) and the same of contrib.
   */
  constructor(
    readonly terms: readonly string[],
    private readonly ids: ReadonlyMap<string, number>,
    readonly start: Int32Array,
    readonly docs: Int32Array,
    readonly contrib: Float32Array,
  ) {
    this.made = new Array<Posting | undefined>(terms.length);
  }

  get size(): number {
    return this.terms.length;
  }

  /** Term number `id`'s postings (views of the two arrays, made once). */
  at(id: number): Posting {
    let p = this.made[id];
    if (p === undefined) {
      const from = this.start[id]!;
      const to = this.start[id + 1]!;
      p = this.made[id] = { docs: this.docs.subarray(from, to), contrib: this.contrib.subarray(from, to) };
    }
    return p;
  }

  get(term: string): Posting | undefined {
    const id = this.ids.get(term);
    return id === undefined ? undefined : this.at(id);
  }

  has(term: string): boolean {
    return this.ids.has(term);
  }

  keys(): MapIterator<string> {
    return this.terms.values();
  }

  *values(): MapIterator<Posting> {
    for (let id = 0; id < this.terms.length; id++) yield this.at(id);
  }

  *entries(): MapIterator<[string, Posting]> {
    for (let id = 0; id < this.terms.length; id++) yield [this.terms[id]!, this.at(id)];
  }

  [Symbol.iterator](): MapIterator<[string, Posting]> {
    return this.entries();
  }

  forEach(each: (value: Posting, key: string, map: ReadonlyMap<string, Posting>) => void, thisArg?: unknown): void {
    for (let id = 0; id < this.terms.length; id++) each.call(thisArg, this.at(id), this.terms[id]!, this);
  }
}
