/** The discover index: tools sorted by id with their BM25 fields and sentence vectors, and its on-disk cache. */
import { createHash } from 'node:crypto';
import type { ServerSnapshot, ToolRef } from '../types.js';
import {
  analyzeFields,
  bm25IndexSource,
  buildBm25Index,
  decodeBm25Index,
  encodeBm25Index,
  paramText,
  type Bm25Index,
} from './bm25.js';
import type { KeywordDoc } from './keyword.js';
import { buildSemanticIndex, semanticIndexFromRows, type SemanticIndex } from './semantic.js';
import { decodeSemanticIndex, encodeSemanticIndexParts } from './semantic-codec.js';
import { indexParamsText } from './index-cache.js';
import { leadPassage } from './lead-passage.js';
import { indexInOnePass, semanticWords } from './one-pass.js';
import { overStemmed, productNames } from './lexicon.js';
import { analyzeWords, splitWords } from './tokenize.js';
import type { WordVectors } from './vectors.js';
import { resolveWeights, type HybridWeights, type WeightsInput } from './weights.js';
import type { VisibilityRules } from '../config/tool-filter.js';
import { visibleTools } from '../visible-tools.js';

export interface DiscoverIndex {
  /** Tools sorted by id; doc numbers below index this array. */
  tools: ToolRef[];
  weights: HybridWeights;
  keywords: Record<string, string[]>;
  fields: ReturnType<typeof analyzeFields>[];
  /** One tool's fields: from `fields` once analysed, else that tool alone (the re-ranker reads only its top 20). */
  fieldsOf: (doc: number) => ReturnType<typeof analyzeFields>;
  /** One tool's analysed name words alone (the action checks read 40 names; a description can be pages long). */
  nameOf: (doc: number) => readonly string[];
  /** Vectors used for queries (absent when none were given, or when `embeddings` came from a model). */
  vectors?: WordVectors;
  semantic?: SemanticIndex;
  /** bm25 indexes by their parameters (the tuner asks for several). */
  bm25ByParams: Map<string, Bm25Index>;
  /** Tool → server number and the number of servers (servers.ts), computed on the first query that weighs servers. */
  servers?: { of: Int32Array; count: number };
  keywordDocs?: KeywordDoc[];
  /** Tool id → doc number, built on first use (remembered intents). */
  docOf?: Map<string, number>;
  /** The product names that are their own term, not stemmed (lexicon.ts, productNames), for tools and intents alike. */
  unstemmed: (word: string) => boolean;
}

export interface BuildOptions {
  weights?: WeightsInput;
  vectors?: WordVectors;
  keywords?: Record<string, string[]>;
  /** Precomputed tool vectors (a sentence model's), in the order of `tools` as given; replaces word vectors. */
  embeddings?: (Float32Array | null)[];
  /**
   * The semantic index these tools and `vectors` give, read back from a cache (see indexCacheKey); without `vectors`
   * or `embeddings`, a sentence model's, read back from its cache (its queries are given as vectors).
   */
  semantic?: SemanticIndex;
  /** The BM25 index of these tools with the resolved weights' bm25 parameters, read back from a cache. */
  bm25?: Bm25Index;
  /** Told how far a fresh build is (tools indexed of all), for a progress line. */
  progress?: (done: number, total: number) => void;
  /**
   * Builds a fresh index's one pass instead of indexInOnePass (the same index, built another way: on worker threads,
   * app/services/index-workers.ts); given the product names the tools' texts hold.
   */
  onePass?: OnePass;
}

/** A fresh build's one pass over the sorted tools: indexInOnePass's result, with `products` its unstemmed words. */
export type OnePass = (
  tools: readonly ToolRef[],
  params: HybridWeights['bm25'],
  products: ReadonlySet<string>,
  vectors: WordVectors | undefined,
  progress?: (done: number, total: number) => void,
) => { bm25: Bm25Index; semantic?: SemanticIndex };

/**
 * A 64-bit hex digest (the head of a SHA-256) of everything a cached index depends on: the tools (ids, names,
 * titles, descriptions, parameter texts, servers and instructions), the BM25 parameters and the word-vector table.
 * Tools read from snapshot files are keyed by the files' bytes instead (snapshotIndexKey), which is cheaper.
 */
export function indexCacheKey(tools: ToolRef[], vectors: WordVectors | undefined, weights?: WeightsInput): string {
  const h = createHash('sha256');
  const add = (text: string): void => {
    h.update(text);
    h.update('\0');
  };
  add(indexParamsText(vectors, weights));
  // In the given order (no sort, for the cold start): the same tools in another order only miss the cache.
  for (const t of tools) {
    add(t.id);
    add(t.server);
    add(t.serverInstructions ?? '');
    add(t.tool.name);
    add(t.tool.title ?? '');
    add(t.tool.description ?? '');
    // The schema counts only through its parameter text (a tool from the catalogue start cache keeps just that).
    add(paramText(t));
  }
  return h.digest('hex').slice(0, 16);
}

/** Bytes of an index's cacheable parts (BM25 with its weights, semantic); see decodeIndexCache. */
export function encodeIndexCache(index: DiscoverIndex): Uint8Array {
  const parts = encodeIndexCacheParts(index);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** The index cache's first 8 bytes: the BM25 part's length, then the semantic parts' together. */
function indexCacheLengths(bm25Bytes: number, semantic: readonly Uint8Array[]): Uint8Array {
  const lengths = new Uint8Array(8);
  const view = new DataView(lengths.buffer);
  view.setUint32(0, bm25Bytes, true);
  view.setUint32(
    4,
    semantic.reduce((n, p) => n + p.byteLength, 0),
    true,
  );
  return lengths;
}

/** encodeIndexCache's bytes as the arrays they are made of, in order (a cache file writes them without joining). */
export function encodeIndexCacheParts(index: DiscoverIndex): Uint8Array[] {
  const bm = encodeBm25Index(bm25For(index, index.weights));
  const sem = index.semantic ? encodeSemanticIndexParts(index.semantic) : [];
  const lengths = indexCacheLengths(bm.byteLength, sem);
  return [lengths, bm, ...sem];
}

/**
 * encodeIndexCache's bytes as a source of parts that gives them anew at each call (sealed-file.ts sealOnePass takes one pass): the
 * BM25 postings in chunks of one reused buffer, the semantic matrix as a view of its own array.
 */
export function encodeIndexCacheSource(index: DiscoverIndex): () => Iterable<Uint8Array> {
  const bm = bm25IndexSource(bm25For(index, index.weights));
  const sem = index.semantic ? encodeSemanticIndexParts(index.semantic) : [];
  const lengths = indexCacheLengths(bm.byteLength, sem);
  return function* () {
    yield lengths;
    yield* bm.parts();
    yield* sem;
  };
}

/** The cached parts for `size` tools (vectors of `dims`), as BuildOptions; null when the bytes do not fit. */
export function decodeIndexCache(
  buf: Uint8Array,
  size: number,
  dims: number | undefined,
): { bm25: Bm25Index; semantic?: SemanticIndex } | null {
  if (buf.byteLength < 8) return null;
  const copy = buf.byteOffset % 4 === 0 ? buf : new Uint8Array(buf); // an aligned copy (Buffer#slice would be a view)
  const view = new DataView(copy.buffer, copy.byteOffset, copy.byteLength);
  const bmBytes = view.getUint32(0, true);
  const semBytes = view.getUint32(4, true);
  if (8 + bmBytes + semBytes !== copy.byteLength || bmBytes % 4 !== 0) return null;
  const bm25 = decodeBm25Index(copy.subarray(8, 8 + bmBytes), size);
  if (!bm25) return null;
  if (dims === undefined) return { bm25 };
  const semantic = semBytes > 0 ? decodeSemanticIndex(copy.subarray(8 + bmBytes), size, dims) : null;
  return semantic ? { bm25, semantic } : null;
}

/** The text a tool's semantic vector is built from: its name, the lead of its description, its parameters. */
export function semanticText(ref: ToolRef): string {
  return `${splitWords(ref.tool.name).join(' ')} ${leadPassage(ref.tool.description ?? '')} ${paramText(ref)}`.trimEnd();
}

/** Indexes tools for every engine. Deterministic: tools are ordered by id. */
export function buildDiscoverIndex(tools: ToolRef[], opts: BuildOptions = {}): DiscoverIndex {
  const order = tools.map((t, i) => i).sort((a, b) => cmp(tools[a]!.id, tools[b]!.id));
  const sorted = order.map((i) => tools[i]!);
  const weights = resolveWeights(opts.weights);
  const cachedBm25 = opts.bm25 && opts.bm25.size === sorted.length ? opts.bm25 : undefined;
  const cachedSemantic =
    opts.vectors && opts.semantic && opts.semantic.size === sorted.length ? opts.semantic : undefined;
  // Each text is split once; the words feed both the BM25 fields and the sentence vectors. With both
  // indexes from a cache nothing is analysed until some caller reads `fields` (other BM25 parameters, the tuner).
  type Words = { name: string[][]; description: string[][]; params: string[][] };
  let words: Words | undefined;
  const split = (): Words =>
    (words ??= {
      name: sorted.map((t) => splitWords(t.tool.name)),
      description: sorted.map((t) => splitWords(t.tool.description ?? '')),
      params: sorted.map((t) => splitWords(paramText(t))),
    });
  let fields: DiscoverIndex['fields'] | undefined;
  let built = false;
  const analyse = (): DiscoverIndex['fields'] => {
    if (fields) return fields;
    const servers = new Map<string, string[]>();
    const w = split();
    const u = index.unstemmed;
    fields = sorted.map((t, i) => analyzeFields(t, w.name[i], w.description[i], servers, w.params[i], u));
    if (built) words = undefined; // read after the build: the sentence vectors, their other reader, are made
    return fields;
  };
  const index = {
    tools: sorted,
    weights,
    keywords: opts.keywords ?? {},
    bm25ByParams: new Map(),
  } as unknown as DiscoverIndex;
  // Product names: found in the tools' texts when the index is built; read back from a cached BM25 index, they are
  // the over-stemmed words it holds as terms (only product names are indexed unstemmed).
  let products: Set<string> | undefined;
  if (cachedBm25) index.unstemmed = (word) => cachedBm25.postings.has(word) && overStemmed(word);
  else {
    const names = productNames(sorted);
    products = names;
    index.unstemmed = (word) => names.has(word);
  }
  Object.defineProperty(index, 'fields', { get: analyse, enumerable: true, configurable: true });
  const single = new Map<number, ReturnType<typeof analyzeFields>>();
  const singleServers = new Map<string, string[]>();
  index.fieldsOf = (doc) => {
    if (fields) return fields[doc]!;
    let f = single.get(doc);
    if (!f) {
      f = analyzeFields(sorted[doc]!, undefined, undefined, singleServers, undefined, index.unstemmed);
      single.set(doc, f);
    }
    return f;
  };
  const names = new Map<number, readonly string[]>();
  index.nameOf = (doc) => {
    if (fields) return fields[doc]!.name;
    const known = single.get(doc)?.name ?? names.get(doc);
    if (known) return known;
    const t = sorted[doc]!.tool;
    const name = analyzeWords(splitWords(t.name), [], index.unstemmed);
    if (t.title) analyzeWords(splitWords(t.title), name, index.unstemmed);
    names.set(doc, name);
    return name;
  };
  // A fresh build analyses each tool once for both indexes and keeps no word lists (one-pass.ts); `fields`, when a
  // caller reads it, analyses them again with the same result, and fieldsOf analyses one tool alone meanwhile.
  const sif = opts.vectors && !opts.embeddings && !cachedSemantic ? opts.vectors : undefined;
  let fresh: SemanticIndex | undefined;
  if (cachedBm25) index.bm25ByParams.set(JSON.stringify(weights.bm25), cachedBm25);
  else {
    const pass = opts.onePass
      ? opts.onePass(sorted, weights.bm25, products!, sif, opts.progress)
      : indexInOnePass(sorted, weights.bm25, index.unstemmed, sif, opts.progress);
    index.bm25ByParams.set(JSON.stringify(weights.bm25), pass.bm25);
    fresh = pass.semantic;
  }
  if (opts.embeddings) {
    const rows = order.map((i) => opts.embeddings![i] ?? null);
    const dims = rows.find((r) => r)?.length ?? 1;
    index.semantic = semanticIndexFromRows(rows, dims, false);
  } else if (opts.vectors) {
    index.vectors = opts.vectors;
    const w = cachedSemantic || fresh ? undefined : split();
    index.semantic =
      cachedSemantic ??
      fresh ??
      buildSemanticIndex(
        opts.vectors,
        w!.name.map((name, i) => semanticWords(sorted[i]!, name, w!.description[i]!, w!.params[i]!)),
      );
  } else if (opts.semantic && opts.semantic.size === sorted.length) {
    // A sentence model's index read back from its cache (app/services/model-index.ts): its queries come as vectors.
    index.semantic = opts.semantic;
  }
  // The split words are not kept (8 MB on 2,781 tools): a later `fields` read splits again, with the same result.
  words = undefined;
  built = true;
  return index;
}

/**
 * Tool refs of every reachable server, ids `<server>.<tool>`; two tools that make one id (a name listed twice, or
 * server `a.b` tool `c` beside server `a` tool `b.c`) get the ids serve serves them under (`#2` …). With `rules`,
 * the tools they hide are left out, as serve leaves them out (visibleTools: the ids are made over what is left).
 */
export function toolRefsFromSnapshots(servers: ServerSnapshot[], rules?: VisibilityRules): ToolRef[] {
  return visibleTools(servers, rules).map(({ id, snapshot, tool }) => ({
    id,
    server: snapshot.name,
    tool,
    ...(snapshot.instructions ? { serverInstructions: snapshot.instructions } : {}),
  }));
}

/** The BM25 index of the index's tools for these weights' parameters (built once per parameter set). */
export function bm25For(index: DiscoverIndex, weights: HybridWeights): Bm25Index {
  const key = paramsKey(weights.bm25);
  let bm = index.bm25ByParams.get(key);
  if (!bm) {
    bm = buildBm25Index(index.fields, weights.bm25);
    index.bm25ByParams.set(key, bm);
  }
  return bm;
}

/**
 * JSON.stringify(params), kept per parameter object while its numbers stay the same (a ranking asks it every
 * query of the same object: the index's weights).
 */
function paramsKey(p: HybridWeights['bm25']): string {
  const known = paramKeys.get(p);
  const f = p.fields;
  if (
    known?.k1 === p.k1 &&
    known.b === p.b &&
    known.name === f.name &&
    known.description === f.description &&
    known.params === f.params &&
    known.server === f.server
  )
    return known.key;
  const key = JSON.stringify(p);
  paramKeys.set(p, { key, k1: p.k1, b: p.b, ...f });
  return key;
}
const paramKeys = new WeakMap<object, { key: string; k1: number; b: number } & HybridWeights['bm25']['fields']>();

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
