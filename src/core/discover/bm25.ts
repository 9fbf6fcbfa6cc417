/** Fielded BM25 (BM25F) over tool name, description, parameters and server, with an inverted index. */
import type { ToolRef } from '../../types.js';
import { analyze, splitWords } from './tokenize.js';
import type { HybridWeights } from './weights.js';

export type Bm25Params = HybridWeights['bm25'];
const FIELDS = ['name', 'description', 'params', 'server'] as const;
type Field = (typeof FIELDS)[number];

export interface Bm25Index {
  size: number;
  /** term → ascending doc numbers and each doc's precomputed score contribution. */
  postings: Map<string, { docs: Int32Array; contrib: Float32Array }>;
}

/** The text of each field of a tool. Parameter names are split like tool names. */
export function toolFields(ref: ToolRef): Record<Field, string> {
  const params: string[] = [];
  collectParams(ref.tool.inputSchema, params, 0);
  return {
    name: `${splitWords(ref.tool.name).join(' ')} ${ref.tool.title ?? ''}`,
    description: ref.tool.description ?? '',
    params: params.join(' '),
    server: `${splitWords(ref.server).join(' ')} ${ref.serverInstructions ?? ''}`,
  };
}

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
  const n = fieldTerms.length;
  const avg: Record<Field, number> = { name: 0, description: 0, params: 0, server: 0 };
  for (const doc of fieldTerms) for (const f of FIELDS) avg[f] += doc[f].length;
  for (const f of FIELDS) avg[f] = avg[f] / Math.max(1, n) || 1;

  const docsOf = new Map<string, number[]>();
  const tfOf = new Map<string, number[]>();
  for (let d = 0; d < n; d++) {
    const doc = fieldTerms[d]!;
    const tf = new Map<string, number>();
    for (const f of FIELDS) {
      const terms = doc[f];
      if (terms.length === 0) continue;
      const norm = params.fields[f] / (1 - params.b + (params.b * terms.length) / avg[f]);
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + norm);
    }
    for (const [t, v] of tf) {
      let docs = docsOf.get(t);
      if (!docs) {
        docs = [];
        docsOf.set(t, docs);
        tfOf.set(t, []);
      }
      docs.push(d);
      tfOf.get(t)!.push(v);
    }
  }
  const postings = new Map<string, { docs: Int32Array; contrib: Float32Array }>();
  for (const [t, docs] of docsOf) {
    const df = docs.length;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const tfs = tfOf.get(t)!;
    const contrib = new Float32Array(df);
    for (let i = 0; i < df; i++) contrib[i] = (idf * tfs[i]!) / (params.k1 + tfs[i]!);
    postings.set(t, { docs: Int32Array.from(docs), contrib });
  }
  return { size: n, postings };
}

/** Unique query terms of an intent, in first-seen order. */
export function queryTerms(intent: string): string[] {
  return [...new Set(analyze(intent))];
}

/** Adds each doc's BM25F score into `out` (length = index size); returns how many postings matched. */
export function scoreBm25(index: Bm25Index, terms: string[], out: Float32Array): number {
  let hits = 0;
  for (const t of terms) {
    const p = index.postings.get(t);
    if (!p) continue;
    const { docs, contrib } = p;
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!;
      out[d] = out[d]! + contrib[i]!;
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

export function analyzeFields(ref: ToolRef): Record<Field, string[]> {
  const f = toolFields(ref);
  return { name: analyze(f.name), description: analyze(f.description), params: analyze(f.params), server: analyze(f.server) };
}
