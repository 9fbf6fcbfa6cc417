/**
 * The worker thread of a split index build (index-workers.ts): claims ranges of the tools from the back of its half,
 * builds each into its own collector with the main thread's code (PassBuilder), and answers with them joined in
 * tool order (transferred arrays) and their sentence-vector rows. Any error is its answer: the main thread then
 * builds the ranges itself.
 */
import { readFileSync } from 'node:fs';
import { receiveMessageOnPort, workerData } from 'node:worker_threads';
import { Bm25Collector } from '../../core/discover/bm25-collect.js';
import { PassBuilder, type PassRef } from '../../core/discover/one-pass.js';
import { parseWordVectors, type WordVectors } from '../../core/discover/vectors.js';
import {
  CLAIMED,
  STATE,
  STATE_FAILED,
  STATE_OK,
  STATE_RUNNING,
  TEXTS_SENT,
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
function run(vectors: WordVectors | undefined): void {
  const { size, ranges, rangeSize, spanStart } = input;
  const dims = vectors?.dims ?? 0;
  const products = new Set(input.products);
  const pass = new PassBuilder(size - spanStart, (w) => products.has(w), vectors);
  const texts = new Texts(size, spanStart);
  // One numbering of the terms for all its ranges: each range sends only the terms it numbered first.
  const collector = new Bm25Collector(RANGE_CAPACITY);
  for (let range = ranges - 1; range >= spanStart / rangeSize; range--) {
    if (Atomics.add(control, CLAIMED, 1) >= ranges) break;
    const from = range * rangeSize;
    const to = Math.min(size, from + rangeSize);
    texts.await(from);
    for (let i = from; i < to; i++) {
      const k = i - spanStart;
      const j = k * TEXTS_PER_TOOL;
      const server = texts.servers[texts.serverOf[k]!]!;
      const title = texts.texts[j + 1]!;
      const ref: PassRef = {
        server: server[0],
        ...(server[1] ? { serverInstructions: server[1] } : {}),
        tool: { name: texts.texts[j]!, ...(title ? { title } : {}), description: texts.texts[j + 2]! },
      };
      pass.add(ref, texts.texts[j + 3]!, k, collector);
    }
    const part = collector.cut();
    const rows = pass.matrix?.slice((from - spanStart) * dims, (to - spanStart) * dims);
    const out: RangeOutput = { range, part, rows };
    input.port.postMessage(out, transfers(out));
    Atomics.add(control, WORKER_DONE, to - from);
  }
}

/** The texts of its tools (from `spanStart`), as the main thread's chunks bring them (from the back). */
class Texts {
  readonly texts: string[];
  readonly serverOf: Int32Array;
  readonly servers: [string, string][] = [];
  /** Texts are here for the tools from `have` on. */
  private have: number;

  constructor(
    size: number,
    private readonly spanStart: number,
  ) {
    this.texts = new Array<string>((size - spanStart) * TEXTS_PER_TOOL);
    this.serverOf = new Int32Array(size - spanStart);
    this.have = size;
  }

  /** Waits until the texts of tool `from` on are here (the main thread sends them ahead of a claim). */
  await(from: number): void {
    let waited = 0;
    while (this.have > from) {
      const sent = Atomics.load(control, TEXTS_SENT);
      const m = receiveMessageOnPort(input.port);
      if (m) {
        this.take(m.message as WorkerTexts);
        continue;
      }
      if (Atomics.wait(control, TEXTS_SENT, sent, 100) === 'timed-out' && (waited += 100) >= TEXTS_PATIENCE_MS)
        throw new Error('no texts from the main thread');
    }
  }

  private take(chunk: WorkerTexts): void {
    const at = chunk.from - this.spanStart;
    for (let j = 0; j < chunk.texts.length; j++) this.texts[at * TEXTS_PER_TOOL + j] = chunk.texts[j]!;
    this.serverOf.set(chunk.serverOf, at);
    for (const s of chunk.servers) this.servers.push(s);
    this.have = chunk.from;
  }
}

/** How long it waits for texts before it gives up (its ranges are then built by the main thread). */
const TEXTS_PATIENCE_MS = 15_000;

let vectors: WordVectors | undefined;
try {
  vectors = input.vectorsFile
    ? { ...parseWordVectors(readFileSync(input.vectorsFile)), file: input.vectorsFile }
    : undefined;
} catch (e) {
  failed(e);
}
try {
  if (Atomics.load(control, STATE) === STATE_RUNNING) run(vectors);
  finish(STATE_OK);
} catch (e) {
  failed(e);
}
input.port.close();

function failed(e: unknown): void {
  input.port.postMessage({ error: e instanceof Error ? e.message : String(e) } satisfies WorkerError);
  finish(STATE_FAILED);
}
