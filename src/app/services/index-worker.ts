/**
 * The worker thread of a split index build (index-workers.ts): claims ranges of the tools from the back of its half,
 * builds each into its own collector with the main thread's code (PassBuilder), and answers with them joined in
 * tool order (transferred arrays) and their sentence-vector rows. Any error is its answer: the main thread then
 * builds the ranges itself.
 */
import { readFileSync } from 'node:fs';
import { workerData } from 'node:worker_threads';
import { Bm25Collector } from '../../core/discover/bm25-collect.js';
import { PassBuilder, type PassRef } from '../../core/discover/one-pass.js';
import { parseWordVectors, type WordVectors } from '../../core/discover/vectors.js';
import {
  CLAIMED,
  STATE,
  STATE_FAILED,
  STATE_OK,
  STATE_RUNNING,
  WORKER_DONE,
  type RangeOutput,
  type WorkerError,
  type WorkerInput,
  type WorkerTexts,
  TEXTS_PER_TOOL,
} from './index-workers.js';

const input = workerData as WorkerInput;
const control = new Int32Array(input.control);

/** Occurrences a range's collector holds before it grows (~20 a tool). */
const RANGE_CAPACITY = 1 << 13;

function finish(state: number): void {
  Atomics.compareExchange(control, STATE, STATE_RUNNING, state);
  Atomics.notify(control, STATE);
}

function transfers(out: RangeOutput): ArrayBuffer[] {
  const p = out.part;
  const list = [p.occTerm.buffer, p.occField.buffer, p.docEnd.buffer, p.lengths.buffer] as ArrayBuffer[];
  if (out.rows) list.push(out.rows.buffer as ArrayBuffer);
  return list;
}

/** Builds ranges from the back while it can claim them; each is sent as soon as it is built. */
function run(texts: WorkerTexts, vectors: WordVectors | undefined): void {
  const { size, ranges, rangeSize, spanStart } = input;
  const dims = vectors?.dims ?? 0;
  const products = new Set(texts.products);
  const pass = new PassBuilder(size - spanStart, (w) => products.has(w), vectors);
  const servers = texts.servers.map(([name, instructions]) => ({ name, instructions }));
  const textOf = (j: number): string => texts.texts[j]!;
  // One numbering of the terms for all its ranges: each range sends only the terms it numbered first.
  const collector = new Bm25Collector(RANGE_CAPACITY);
  for (let range = ranges - 1; range >= spanStart / rangeSize; range--) {
    if (Atomics.add(control, CLAIMED, 1) >= ranges) break;
    const from = range * rangeSize;
    const to = Math.min(size, from + rangeSize);
    for (let i = from; i < to; i++) {
      const k = i - spanStart;
      const j = k * TEXTS_PER_TOOL;
      const server = servers[texts.serverOf[k]!]!;
      const title = textOf(j + 1);
      const ref: PassRef = {
        server: server.name,
        ...(server.instructions ? { serverInstructions: server.instructions } : {}),
        tool: { name: textOf(j), ...(title ? { title } : {}), description: textOf(j + 2) },
      };
      pass.add(ref, textOf(j + 3), k, collector);
    }
    const part = collector.cut();
    const rows = pass.matrix?.slice((from - spanStart) * dims, (to - spanStart) * dims);
    const out: RangeOutput = { range, part, rows };
    input.port.postMessage(out, transfers(out));
    Atomics.add(control, WORKER_DONE, to - from);
  }
}

let vectors: WordVectors | undefined;
try {
  vectors = input.vectorsFile
    ? { ...parseWordVectors(readFileSync(input.vectorsFile)), file: input.vectorsFile }
    : undefined;
} catch (e) {
  failed(e);
}
input.port.once('message', (texts: WorkerTexts) => {
  try {
    if (Atomics.load(control, STATE) === STATE_RUNNING) run(texts, vectors);
    finish(STATE_OK);
  } catch (e) {
    failed(e);
  }
  input.port.close();
});

function failed(e: unknown): void {
  input.port.postMessage({ error: e instanceof Error ? e.message : String(e) } satisfies WorkerError);
  finish(STATE_FAILED);
}
