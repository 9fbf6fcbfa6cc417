/**
 * The re-ranker's word-vector features (rerank.ts): the cosine of the intent with a candidate's name words and with
 * its description's lead, and soft coverage both ways (each name word's best intent word, each intent word's best
 * word of the name or lead), from the shipped word table.
 */
import type { DiscoverIndex } from './build.js';
import { leadPassage } from './lead-passage.js';
import { kept, type ViewStore } from './per-tool.js';
import { addWords, weightedRow, wordRow } from './sif.js';
import { intentText, splitWords } from './tokenize.js';
import { dot, hypot } from './vector-math.js';
import type { WordVectors } from './vectors.js';

/** Words of a tool's description lead its vector is built from (the first sentence, about). */
const LEAD_VECTOR_WORDS = 16;
/** Words of that lead whose single words an intent word can match (soft coverage: each costs a cosine per intent word). */
const LEAD_SOFT_WORDS = 8;
/** Intent words the soft coverage reads at most (the longest development intent has fewer). */
const SOFT_INTENT_WORDS = 128;

/** A tool's word-vector view: its name's and lead's SIF vectors (unit length), and the table rows of their words. */
interface ToolWords {
  name: Float32Array;
  lead: Float32Array;
  /** Rows of the name's words, then of the lead's (each known word once per part). */
  rows: Int32Array;
  nameRows: number;
}

const toolWords: ViewStore<ToolWords> = new WeakMap();

/**
 * Per word table: each row's length (its SIF-weighted vector's, 0 until first needed) and a query's word-pair
 * cosines, kept by row (`stamp` says which query filled a row's `slot` in `sims`).
 */
interface Scratch {
  norms: Float32Array;
  stamp: Int32Array;
  slot: Int32Array;
  sims: Float32Array;
  query: number;
}
const scratches = new WeakMap<WordVectors, Scratch>();

/** The distinct table rows of the known words, in order, at most `max`. */
function rowsOf(vectors: WordVectors, words: readonly string[], max = Infinity): number[] {
  const seen = new Set<number>();
  for (const w of words) {
    if (seen.size >= max) break;
    const r = wordRow(vectors, w);
    if (r >= 0) seen.add(r);
  }
  return [...seen];
}

function unitVector(vectors: WordVectors, words: readonly string[]): Float32Array {
  const v = new Float32Array(vectors.dims);
  addWords(vectors, words, v, 0);
  const n = hypot(v);
  if (n > 0) for (let d = 0; d < v.length; d++) v[d] = v[d]! / n;
  return v;
}

function wordsOf(index: DiscoverIndex, vectors: WordVectors, doc: number): ToolWords {
  return kept(toolWords, index, doc, () => {
    const tool = index.tools[doc]!.tool;
    const nameWords = splitWords(tool.name);
    const leadWords = splitWords(leadPassage(tool.description ?? '', LEAD_VECTOR_WORDS)).slice(0, LEAD_VECTOR_WORDS);
    const nameRows = rowsOf(vectors, nameWords);
    return {
      name: unitVector(vectors, nameWords),
      lead: unitVector(vectors, leadWords),
      rows: Int32Array.from([...nameRows, ...rowsOf(vectors, leadWords.slice(0, LEAD_SOFT_WORDS))]),
      nameRows: nameRows.length,
    };
  });
}

function scratchOf(vectors: WordVectors): Scratch {
  let s = scratches.get(vectors);
  if (!s) {
    const n = vectors.size;
    s = {
      norms: new Float32Array(n),
      stamp: new Int32Array(n),
      slot: new Int32Array(n),
      sims: new Float32Array(0),
      query: 0,
    };
    scratches.set(vectors, s);
  }
  return s;
}

function normOf(vectors: WordVectors, s: Scratch, row: number): number {
  if (s.norms[row] === 0) {
    const base = row * vectors.dims;
    const table = weightedRow(vectors, row);
    s.norms[row] = Math.sqrt(dot(table, base, table.subarray(base), vectors.dims)) || 1;
  }
  return s.norms[row]!;
}

/**
 * Word-vector features of the candidates against an intent (its payload left out): the cosine of the intent with
 * the tool's name words and with its description's lead, and soft coverage both ways: how well each name word is
 * matched by some intent word, and each intent word by some word of the name or lead (a paraphrase the averaged
 * vectors blur: "tweets" for a Twitter search, "forecast" for a weather tool).
 */
export function softFeatures(index: DiscoverIndex, vectors: WordVectors, request: string): (doc: number) => number[] {
  const words = splitWords(intentText(request));
  const q = unitVector(vectors, words);
  const dims = vectors.dims;
  const s = scratchOf(vectors);
  // Stamps start at 1 for each table; after 2^31 queries they start again on cleared stamps.
  if (++s.query === 0x7fffffff) {
    s.stamp.fill(0);
    s.query = 1;
  }
  // The first SOFT_INTENT_WORDS distinct known words: a pasted page costs no more than a long request.
  const asked = rowsOf(vectors, words, SOFT_INTENT_WORDS);
  const k = asked.length;
  // The intent's words as unit rows, one after another.
  const matrix = new Float32Array(k * dims);
  asked.forEach((r, j) => {
    const v = weightedRow(vectors, r).subarray(r * dims, (r + 1) * dims);
    const n = normOf(vectors, s, r);
    for (let d = 0; d < dims; d++) matrix[j * dims + d] = v[d]! / n;
  });
  const askedRows = asked.map((_, j) => matrix.subarray(j * dims, (j + 1) * dims));
  let used = 0;
  // A tool word's cosines with each intent word, computed once per query (candidates share many words).
  const simsAt = (row: number): number => {
    if (s.stamp[row] === s.query) return s.slot[row]!;
    if ((used + 1) * k > s.sims.length) {
      const grown = new Float32Array(Math.max(64 * k, 2 * s.sims.length));
      grown.set(s.sims.subarray(0, used * k));
      s.sims = grown;
    }
    const table = weightedRow(vectors, row);
    const n = normOf(vectors, s, row);
    for (let j = 0; j < k; j++) s.sims[used * k + j] = dot(table, row * dims, askedRows[j]!, dims) / n;
    s.stamp[row] = s.query;
    s.slot[row] = used * k;
    return used++ * k;
  };
  const best = new Float32Array(k);
  return (doc) => {
    const t = wordsOf(index, vectors, doc);
    // nameSoft: each name word's best intent word; querySoft: each intent word's best word of the name or lead.
    let nameSoft = 0;
    best.fill(0);
    for (let j = 0; j < t.rows.length; j++) {
      const at = simsAt(t.rows[j]!);
      let m = 0;
      for (let x = 0; x < k; x++) {
        const v = s.sims[at + x]!;
        if (v > m) m = v;
        if (v > best[x]!) best[x] = v;
      }
      if (j < t.nameRows) nameSoft += m;
    }
    let querySoft = 0;
    for (let x = 0; x < k; x++) querySoft += best[x]!;
    return [
      dot(t.name, 0, q, dims),
      dot(t.lead, 0, q, dims),
      t.nameRows > 0 ? nameSoft / t.nameRows : 0,
      k > 0 ? querySoft / k : 0,
    ];
  };
}
