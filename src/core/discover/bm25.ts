/** Fielded BM25 (BM25F) over tool name, description, parameters and server, with an inverted index. */
import type { ToolRef } from '../types.js';
import {
  KEPT_WEIGHT,
  PAYLOAD_WEIGHT,
  intentActions,
  keptClause,
  toolVerbs,
  withoutPayload,
  type ActionClass,
  type ReadText,
} from './lexicon.js';
import { relatedWords } from './related.js';
import { lexicalExpansions, type Expansion } from './lexical.js';
import { analyzeWords, fileKindWords, splitWords, intentText, withoutBlobs, STOP_WORDS } from './tokenize.js';
import { Bm25Collector, type Bm25Field, type Bm25Index, type Bm25Params } from './bm25-collect.js';
import { PackedPostings, type Posting } from './packed-postings.js';

export type { Bm25Index, Bm25Params } from './bm25-collect.js';
type Field = Bm25Field;

/** The text of each field of a tool. Parameter names are split like tool names. */
export function toolFields(ref: ToolRef): Record<Field, string> {
  return {
    name: `${splitWords(ref.tool.name).join(' ')} ${ref.tool.title ?? ''}`,
    description: ref.tool.description ?? '',
    params: paramText(ref),
    server: `${splitWords(ref.server).join(' ')} ${ref.serverInstructions ?? ''}`,
  };
}

/**
 * On a tool read back from the catalogue start cache (app/services/catalogue/payload.ts), which keeps no schemas: the
 * paramText its schema gave when the cache was written.
 */
export const PARAM_TEXT = Symbol('mcp-smart.paramText');

/** Parameter names (split like tool names) and descriptions of a tool's input schema, three levels deep. */
export function paramText(ref: ToolRef): string {
  const kept = (ref.tool as { [PARAM_TEXT]?: string })[PARAM_TEXT];
  if (kept !== undefined) return kept;
  // Memoised per tool object: a first run reads it for the catalogue cache, the BM25 fields and the sentence vector.
  let text = paramTexts.get(ref.tool);
  if (text === undefined) {
    const params: string[] = [];
    collectParams(ref.tool.inputSchema, params, 0);
    text = params.join(' ');
    paramTexts.set(ref.tool, text);
  }
  return text;
}

const paramTexts = new WeakMap<object, string>();

function collectParams(schema: unknown, out: string[], depth: number): void {
  if (depth > 3 || schema === null || typeof schema !== 'object') return;
  const props = (schema as { properties?: unknown }).properties;
  if (props === null || typeof props !== 'object') return;
  for (const [name, def] of Object.entries(props as Record<string, unknown>)) {
    out.push(splitWords(name).join(' '));
    if (def !== null && typeof def === 'object') {
      const d = (def as { description?: unknown }).description;
      if (typeof d === 'string') out.push(d);
      collectParams(def, out, depth + 1);
      collectParams((def as { items?: unknown }).items, out, depth + 1);
    }
  }
}

/** Builds the inverted index; every posting holds idf · tf~/(k1 + tf~), so a query only adds numbers. */
export function buildBm25Index(fieldTerms: Record<Field, string[]>[], params: Bm25Params): Bm25Index {
  const collector = new Bm25Collector();
  for (const doc of fieldTerms) collector.add(doc);
  return collector.finish(params);
}

/** Unique query terms of an intent (and of the kinds of the files it names), in first-seen order. */
export function queryTerms(intent: string, unstemmed?: (word: string) => boolean): string[] {
  return [...new Set(analyzeWords(splitWords(intentText(intent)), [], unstemmed))];
}

/** An intent as BM25 scores it: its terms, each with a weight (1 for the words the intent says literally). */
export interface Bm25Query {
  terms: string[];
  weights: number[];
  /** The intent's own terms (queryTerms): what it matched and the re-ranker's features are told in. */
  literal: string[];
  /** The action classes the intent asks for (lexicon.ts, intentActions): expanded here, checked by actions.ts. */
  actions: ReadonlySet<ActionClass>;
  /** How many of `terms` (at their end) are words related to the intent's by WordNet (related.ts). */
  related: number;
  /** The WordNet expansions added to `terms` (lexical.ts), for --explain. */
  expansions: readonly Expansion[];
}

/**
 * Weight of a word a question asks for outright through another (lexical.ts: "how big" → size, "who owns" →
 * owner): below a literal word's, above a related one's. (0.3 and 1 ranked the development sets alike.)
 */
export const EXPANSION_WEIGHT = 0.6;

/** Weight of a word WordNet relates to one of the intent's ("remember" → memory): below the action verbs'. */
export const RELATED_WEIGHT = 0.3;

/**
 * Weight of a verb added for the action an intent asks (lexicon.ts): below a literal word, so that "remember that
 * …" reaches tools named create/add/store/save without outweighing what the intent names.
 */
export const ACTION_EXPANSION_WEIGHT = 0.3;
const isStop = (w: string): boolean => w.length < 2 || STOP_WORDS.has(w);

/**
 * The BM25 query of an intent: its terms (queryTerms) at weight 1 (PAYLOAD_WEIGHT for those found only in its
 * payload), then the verbs tool names use for each action the intent asks for in everyday words ("jot down" →
 * create, add, store, save, …), at ACTION_EXPANSION_WEIGHT.
 */
export function bm25Query(
  intent: string,
  unstemmed?: (word: string) => boolean,
  /** What the ranking has read of `intent` already (intent.ts), so that it is not read again. */
  read?: ReadText,
): Bm25Query {
  const literal = queryTerms(intent, unstemmed);
  const terms = [...literal];
  let weights = terms.map(() => 1);
  const request = read ? read.plain : withoutPayload(intent);
  if (request !== intent) {
    // Terms outside the payload, and the kinds of the files named anywhere, keep their full weight.
    const strong = new Set(
      analyzeWords(splitWords(`${request} ${fileKindWords(withoutBlobs(intent))}`), [], unstemmed),
    );
    // Terms found only in the kept clause (keptClause) weigh KEPT_WEIGHT, those of other payload PAYLOAD_WEIGHT.
    const that = read ? read.kept : keptClause(intent);
    const other = that >= 0 ? new Set(queryTerms(intent.slice(0, that), unstemmed)) : null;
    weights = terms.map((t) => (strong.has(t) ? 1 : other && !other.has(t) ? KEPT_WEIGHT : PAYLOAD_WEIGHT));
  }
  const seen = new Set(terms);
  const actions = intentActions(intent, isStop);
  for (const cls of actions) {
    for (const verb of toolVerbs(cls)) {
      if (seen.has(verb)) continue;
      seen.add(verb);
      terms.push(verb);
      weights.push(ACTION_EXPANSION_WEIGHT);
    }
  }
  // What the request asks for through other words ("how big" → size, "who owns" → owner): WordNet (lexical.ts).
  const expansions: Expansion[] = [];
  for (const e of lexicalExpansions(request)) {
    let added = false;
    for (const t of analyzeWords([e.word], [], unstemmed)) {
      if (seen.has(t)) continue;
      seen.add(t);
      terms.push(t);
      weights.push(EXPANSION_WEIGHT);
      added = true;
    }
    if (added) expansions.push(e);
  }
  // Words WordNet derives from the request's own (not its payload's): "remember" → memory, "deploy" → deployment.
  const start = terms.length;
  for (const word of splitWords(request)) {
    if (isStop(word)) continue;
    for (const rel of relatedWords(word)) {
      for (const t of analyzeWords([rel], [], unstemmed)) {
        if (seen.has(t)) continue;
        seen.add(t);
        terms.push(t);
        weights.push(RELATED_WEIGHT);
      }
    }
  }
  return { terms, weights, literal, actions, related: terms.length - start, expansions };
}

/**
 * Adds each doc's BM25F score into `out` (length = index size), each term's part times its weight (1 without
 * `weights`); returns how many postings matched.
 */
export function scoreBm25(index: Bm25Index, terms: string[], out: Float32Array, weights?: readonly number[]): number {
  let hits = 0;
  for (let j = 0; j < terms.length; j++) {
    const p = index.postings.get(terms[j]!);
    if (!p) continue;
    const { docs, contrib } = p;
    const w = weights ? weights[j]! : 1;
    if (w === 1) {
      for (let i = 0; i < docs.length; i++) {
        const d = docs[i]!;
        out[d] = out[d]! + contrib[i]!;
      }
    } else {
      for (let i = 0; i < docs.length; i++) {
        const d = docs[i]!;
        out[d] = out[d]! + w * contrib[i]!;
      }
    }
    hits += docs.length;
  }
  return hits;
}

/** The query terms that occur in one doc. */
export function matchedTerms(index: Bm25Index, terms: string[], doc: number): string[] {
  return terms.filter((t) => {
    const docs = index.postings.get(t)?.docs;
    if (!docs) return false;
    let lo = 0;
    let hi = docs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = docs[mid]!;
      if (v === doc) return true;
      if (v < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  });
}

export function analyzeFields(
  ref: ToolRef,
  nameWords: readonly string[] = splitWords(ref.tool.name),
  descriptionWords?: readonly string[],
  /** Server terms by server name and instructions, shared by the tools of one server (read-only arrays). */
  serverCache?: Map<string, string[]>,
  paramWords: readonly string[] = splitWords(paramText(ref)),
  /** The index's product names, not stemmed (lexicon.ts, productNames). */
  unstemmed?: (word: string) => boolean,
): Record<Field, string[]> {
  // Same terms as analyze(toolFields(ref)[field]) without splitting each text twice.
  const u = unstemmed;
  const name = analyzeWords(nameWords, [], u);
  if (ref.tool.title) analyzeWords(splitWords(ref.tool.title), name, u);
  const paramTerms = analyzeWords(paramWords, [], u);
  const key = `${ref.server}\n${ref.serverInstructions ?? ''}`;
  let server = serverCache?.get(key);
  if (!server) {
    server = analyzeWords(splitWords(ref.server), [], u);
    if (ref.serverInstructions) analyzeWords(splitWords(ref.serverInstructions), server, u);
    serverCache?.set(key, server);
  }
  return {
    name,
    description: analyzeWords(descriptionWords ?? splitWords(ref.tool.description ?? ''), [], u),
    params: paramTerms,
    server,
  };
}

const BM25_MAGIC = 0x424d3231; // "BM21"

/** Bytes of a BM25 index (for the command's on-disk cache): terms as text, then each term's postings. */
export function encodeBm25Index(index: Bm25Index): Uint8Array {
  const { byteLength, parts } = bm25IndexSource(index);
  const out = new Uint8Array(byteLength);
  let at = 0;
  for (const p of parts()) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** Bytes of the postings a chunk of bm25IndexSource holds. */
const CHUNK_BYTES = 1 << 20;

/**
 * encodeBm25Index's bytes (`byteLength` of them) as a source of parts that gives them anew at each call: the head,
 * the terms and their df, then every term's docs, then every term's contributions, in chunks of one reused buffer
 * (each valid until the next part is asked for; a term's array longer than a chunk is given as its own view).
 */
export function bm25IndexSource(
  index: Bm25Index,
  chunkBytes = CHUNK_BYTES,
): { byteLength: number; parts: () => Iterable<Uint8Array> } {
  // A built or read index's postings are packed: they go out as their two arrays. Others go term by term, in chunks.
  const packed = index.postings instanceof PackedPostings ? index.postings : undefined;
  const terms = packed ? packed.terms : [...index.postings.keys()];
  const postings = packed ? [] : [...index.postings.values()];
  const df = packed
    ? Uint32Array.from(terms, (_, i) => packed.start[i + 1]! - packed.start[i]!)
    : Uint32Array.from(postings, (p) => p.docs.length);
  let total = 0;
  for (const n of df) total += n;
  const text = new TextEncoder().encode(terms.join('\n'));
  const pad = (4 - (text.byteLength % 4)) % 4;
  const head = new Uint8Array(16 + text.byteLength + pad);
  head.set(new Uint8Array(new Uint32Array([BM25_MAGIC, index.size, terms.length, text.byteLength]).buffer), 0);
  head.set(text, 16);
  const chunk = new Uint8Array(Math.max(4, chunkBytes & ~3));
  function* arrays(of: (p: Posting) => Int32Array | Float32Array): Generator<Uint8Array> {
    let at = 0;
    for (const p of postings) {
      const a = of(p);
      const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      if (at + bytes.byteLength > chunk.byteLength && at > 0) {
        yield chunk.subarray(0, at);
        at = 0;
      }
      if (bytes.byteLength > chunk.byteLength) yield bytes;
      else {
        chunk.set(bytes, at);
        at += bytes.byteLength;
      }
    }
    if (at > 0) yield chunk.subarray(0, at);
  }
  const bytesOf = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  return {
    byteLength: head.byteLength + df.byteLength + total * 8,
    parts: function* () {
      yield head;
      yield bytesOf(df);
      if (packed) {
        yield bytesOf(packed.docs.subarray(0, total));
        yield bytesOf(packed.contrib.subarray(0, total));
        return;
      }
      yield* arrays((p) => p.docs);
      yield* arrays((p) => p.contrib);
    },
  };
}

/** Reads encodeBm25Index's bytes (4-byte aligned); null when they are not an index of `size` docs. */
export function decodeBm25Index(buf: Uint8Array, size: number): Bm25Index | null {
  if (buf.byteLength < 16 || buf.byteOffset % 4 !== 0) return null;
  const head = new Uint32Array(buf.buffer, buf.byteOffset, 4);
  if (head[0] !== BM25_MAGIC || head[1] !== size) return null;
  const count = head[2]!;
  const textBytes = head[3]!;
  const terms = count === 0 ? [] : new TextDecoder().decode(buf.subarray(16, 16 + textBytes)).split('\n');
  if (terms.length !== count) return null;
  let off = buf.byteOffset + 16 + textBytes + ((4 - (textBytes % 4)) % 4);
  const df = new Uint32Array(buf.buffer, off, count);
  off += count * 4;
  let total = 0;
  for (let i = 0; i < count; i++) total += df[i]!;
  if (off - buf.byteOffset + total * 8 !== buf.byteLength) return null;
  const docs = new Int32Array(buf.buffer, off, total);
  const contrib = new Float32Array(buf.buffer, off + total * 4, total);
  const start = new Int32Array(count + 1);
  const ids = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    start[i + 1] = start[i]! + df[i]!;
    ids.set(terms[i]!, i);
  }
  if (ids.size !== count) return null; // a term twice: not a file encodeBm25Index wrote
  const postings = new PackedPostings(terms, ids, start, docs, contrib);
  return { size, postings };
}
