/**
 * A fresh index build in one pass over the tools: each tool's texts are split once, its analysed fields go to the
 * BM25 collector and its words to its sentence-vector row, and then both are dropped. The same postings and vectors
 * as analysing every tool first (buildBm25Index over all fields, buildSemanticIndex over all words), without holding
 * every tool's word lists at once: on 100k tools those lists were most of the memory and of the garbage collection.
 */
import type { ToolRef } from '../types.js';
import { analyzeFields, paramText, type Bm25Index, type Bm25Params } from './bm25.js';
import { Bm25Collector } from './bm25-collect.js';
import { leadPassage } from './lead-passage.js';
import { semanticIndexFromMatrix, type SemanticIndex } from './semantic.js';
import { addWords } from './sif.js';
import { sifSummer } from './sif-wasm.js';
import { splitWords } from './tokenize.js';
import type { WordVectors } from './vectors.js';

const PROGRESS_STEP = 1000;

/** The words a tool's sentence vector sums: its name, the lead of its description (the description's words when the lead is all of it), its parameters. */
export function semanticWords(
  ref: ToolRef,
  name: readonly string[],
  description: readonly string[],
  params: readonly string[],
): (readonly string[])[] {
  const text = ref.tool.description ?? '';
  const lead = leadPassage(text);
  return [name, lead === text ? description : splitWords(lead), params];
}

/** The BM25 index of `tools` (sorted as the index holds them) and, with `vectors`, their SIF sentence index. */
export function indexInOnePass(
  tools: readonly ToolRef[],
  params: Bm25Params,
  unstemmed: (word: string) => boolean,
  vectors: WordVectors | undefined,
  /** Told how many tools are indexed, every PROGRESS_STEP tools and at the end. */
  progress?: (done: number, total: number) => void,
): { bm25: Bm25Index; semantic?: SemanticIndex } {
  const collector = new Bm25Collector();
  const servers = new Map<string, string[]>();
  const dims = vectors?.dims ?? 0;
  // The sums in WebAssembly where it gives the same bits (sif-wasm.ts), else addWords.
  const summer = vectors ? sifSummer(vectors, tools.length) : undefined;
  const matrix = vectors ? (summer?.matrix ?? new Float32Array(tools.length * dims)) : undefined;
  for (let i = 0; i < tools.length; i++) {
    const t = tools[i]!;
    const name = splitWords(t.tool.name);
    const description = splitWords(t.tool.description ?? '');
    const words = splitWords(paramText(t));
    collector.add(analyzeFields(t, name, description, servers, words, unstemmed));
    if (summer) for (const part of semanticWords(t, name, description, words)) summer.add(part, i);
    else if (vectors)
      for (const part of semanticWords(t, name, description, words)) addWords(vectors, part, matrix!, i * dims);
    if (progress && (i + 1) % PROGRESS_STEP === 0) progress(i + 1, tools.length);
  }
  progress?.(tools.length, tools.length);
  const bm25 = collector.finish(params);
  return vectors ? { bm25, semantic: semanticIndexFromMatrix(matrix!, tools.length, dims, true) } : { bm25 };
}
