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
import { sifSummer, type SifSummer } from './sif-wasm.js';
import { splitWords } from './tokenize.js';
import type { WordVectors } from './vectors.js';

const PROGRESS_STEP = 1000;

/** What the pass reads of a tool (a worker thread is sent these texts, not the tool). */
export interface PassRef {
  server: string;
  serverInstructions?: string;
  tool: { name: string; title?: string; description?: string };
}

/** The words a tool's sentence vector sums: its name, the lead of its description (the description's words when the lead is all of it), its parameters. */
export function semanticWords(
  ref: PassRef,
  name: readonly string[],
  description: readonly string[],
  params: readonly string[],
): (readonly string[])[] {
  const text = ref.tool.description ?? '';
  const lead = leadPassage(text);
  return [name, lead === text ? description : splitWords(lead), params];
}

/**
 * The pass over a run of tools: their sentence-vector rows (`size` of them) and the analysis they share (server
 * terms); each tool's fields go to the collector `add` is given. The main thread and a worker thread
 * (app/services/index-workers.ts) build their tools with the same code, so their parts join into the same index.
 */
export class PassBuilder {
  /** The rows, `size` × dims (absent without vectors). */
  readonly matrix: Float32Array | undefined;
  private readonly summer: SifSummer | undefined;
  private readonly servers = new Map<string, string[]>();

  constructor(
    size: number,
    private readonly unstemmed: (word: string) => boolean,
    private readonly vectors: WordVectors | undefined,
  ) {
    // The sums in WebAssembly where it gives the same bits (sif-wasm.ts), else addWords.
    this.summer = vectors ? sifSummer(vectors, size) : undefined;
    this.matrix = vectors ? (this.summer?.matrix ?? new Float32Array(size * vectors.dims)) : undefined;
  }

  /** Adds tool `t` (its parameter text `params`) to `collector` as its next document, its vector to row `row`. */
  add(t: PassRef, params: string, row: number, collector: Bm25Collector): void {
    const name = splitWords(t.tool.name);
    const description = splitWords(t.tool.description ?? '');
    const words = splitWords(params);
    // analyzeFields reads only these texts when it is given the words (never the schema).
    collector.add(analyzeFields(t as ToolRef, name, description, this.servers, words, this.unstemmed));
    const { summer, vectors } = this;
    if (summer) for (const part of semanticWords(t, name, description, words)) summer.add(part, row);
    else if (vectors)
      for (const part of semanticWords(t, name, description, words))
        addWords(vectors, part, this.matrix!, row * vectors.dims);
  }
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
  const pass = new PassBuilder(tools.length, unstemmed, vectors);
  for (let i = 0; i < tools.length; i++) {
    const t = tools[i]!;
    pass.add(t, paramText(t), i, collector);
    if (progress && (i + 1) % PROGRESS_STEP === 0) progress(i + 1, tools.length);
  }
  progress?.(tools.length, tools.length);
  return finishPass(collector, pass, tools.length, params, vectors);
}

/** The indexes of a pass whose documents (every tool's) are all in `collector` and rows in `pass.matrix`. */
export function finishPass(
  collector: Bm25Collector,
  pass: PassBuilder,
  size: number,
  params: Bm25Params,
  vectors: WordVectors | undefined,
): { bm25: Bm25Index; semantic?: SemanticIndex } {
  const bm25 = collector.finish(params);
  return vectors ? { bm25, semantic: semanticIndexFromMatrix(pass.matrix!, size, vectors.dims, true) } : { bm25 };
}
