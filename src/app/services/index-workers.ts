/**
 * A fresh index build's one pass (core/discover/one-pass.ts) on two threads for big catalogues: the main thread
 * claims ranges of the sorted tools from the front, one worker thread (index-worker.ts) claims ranges from the back
 * of its half, through one shared counter, until they meet. A worker that starts late or gets no CPU claims fewer
 * ranges: the main thread never waits for it to start, only (at the end) for the ranges it claimed. The worker's
 * documents join the main thread's in tool order (Bm25Collector.append numbers their terms as one collector fed
 * every tool would), its rows are copied into the matrix: the index is the one-thread build's, byte for byte.
 * A worker that fails (an error, an exit, no answer for WORKER_PATIENCE_MS) leaves its ranges to the main thread.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { Bm25Collector, type CollectorPart } from '../../core/discover/bm25-collect.js';
import { paramText } from '../../core/discover/bm25.js';
import type { OnePass } from '../../core/discover/build.js';
import { finishPass, indexInOnePass, PassBuilder } from '../../core/discover/one-pass.js';
import type { ToolRef } from '../../core/types.js';

/**
 * Below this many tools one thread builds the index. Measured on 2 shared CPUs (load 2–4, bench/RESULTS.md, branch
 * `par`): at 22k and 50k tools the split was slower than one thread (the worker's start, its texts and the join
 * cost more than its 35–45 % of the pass saves) and cost 10–70 MB more RSS; at 100k it saved 11–17 % of the wall.
 */
export const SPLIT_MIN_TOOLS = 60_000;
/** Tools per claimed range: small enough that neither thread waits long for the other's last one. */
const RANGE = 256;
/** Ranges of texts sent to the worker at once, the first time, and ahead of its next claim. */
const CHUNK_RANGES = 4;
const FIRST_CHUNK_RANGES = 4;
const AHEAD_RANGES = 8;
/** With no range finished by the worker for this long, its ranges are built on the main thread. */
const WORKER_PATIENCE_MS = 15_000;

/** The shared counters (an Int32Array over a SharedArrayBuffer): ranges claimed, the worker's state, its tools. */
export const CLAIMED = 0;
export const STATE = 1;
export const WORKER_DONE = 2;
/** Text chunks posted to the worker (it waits on this when it claims a range whose texts are still to come). */
export const TEXTS_SENT = 3;
export const STATE_RUNNING = 0;
export const STATE_OK = 1;
export const STATE_FAILED = 2;

/** The worker's start: how to claim ranges of its half of the tools, and where to answer. */
export interface WorkerInput {
  control: SharedArrayBuffer;
  /** Brings it its WorkerTexts; takes its RangeOutputs (or a WorkerError). */
  port: MessagePort;
  size: number;
  ranges: number;
  rangeSize: number;
  /** Its half: tools from `spanStart` (a range's start) to the end. */
  spanStart: number;
  vectorsFile: string | undefined;
  products: string[];
}

/** Texts a tool is sent: name, title, description, parameter text. */
export const TEXTS_PER_TOOL = 4;

/**
 * A chunk of the worker's texts: the tools from `from` to the previous chunk's `from` (the first: to the end), sent
 * from the back, ahead of its claims.
 */
export interface WorkerTexts {
  from: number;
  /** TEXTS_PER_TOOL a tool. */
  texts: string[];
  /** Each tool's server, a number of the servers sent so far ([name, instructions], numbered in the order sent). */
  serverOf: Int32Array;
  /** The servers first seen in this chunk. */
  servers: [string, string][];
}

/** One range the worker built (a message each, in the order built: from the back), and its rows. */
export interface RangeOutput {
  range: number;
  part: CollectorPart;
  rows: Float32Array | undefined;
}
/** The worker's last message when it fails. */
export interface WorkerError {
  error: string;
}

export interface SplitOptions {
  /** The fewest tools that take the worker path (tests lower it). */
  minTools?: number;
  /** The worker's module (tests give dist/'s, as source files cannot run in a worker). */
  workerFile?: string;
  /** Tests: the main thread claims its first range after the worker's first (so a small build takes the worker path). */
  workerFirst?: boolean;
  /** Tests: how long the worker may go without finishing a range (WORKER_PATIENCE_MS) before its ranges are built here. */
  patienceMs?: number;
  /** Told how a split build went: the ranges the worker built, and whether it failed (its ranges built here). */
  report?: (r: { workerRanges: number; failed: boolean }) => void;
}

/** The worker module beside this one (dist/app/services/index-worker.js, or dist/bundle/index-worker.js). */
function defaultWorkerFile(): string {
  return fileURLToPath(new URL('./index-worker.js', import.meta.url));
}

/** A OnePass that splits big builds between the main thread and one worker thread (BuildOptions.onePass). */
export function splitOnePass(opts: SplitOptions = {}): OnePass {
  return (tools, params, products, vectors, progress) => {
    const size = tools.length;
    const file = opts.workerFile ?? defaultWorkerFile();
    const ranges = Math.ceil(size / RANGE);
    // The worker reads the word vectors from their file; a table built in memory stays on one thread.
    if (
      size < (opts.minTools ?? SPLIT_MIN_TOOLS) ||
      ranges < 2 ||
      availableParallelism() < 2 ||
      (vectors && !vectors.file) ||
      !existsSync(file)
    )
      return indexInOnePass(tools, params, (w) => products.has(w), vectors, progress);
    return splitBuild(tools, params, products, vectors, progress, file, ranges, opts);
  };
}

function splitBuild(
  tools: readonly ToolRef[],
  params: Parameters<OnePass>[1],
  products: ReadonlySet<string>,
  vectors: Parameters<OnePass>[3],
  progress: Parameters<OnePass>[4],
  file: string,
  ranges: number,
  opts: SplitOptions,
): ReturnType<OnePass> {
  const size = tools.length;
  const spanStart = Math.ceil(ranges / 2) * RANGE;
  const control = new Int32Array(new SharedArrayBuffer(4 * 4));
  const worker = startWorker(tools.length, products, vectors?.file, file, control, ranges, spanStart);
  const send = worker ? textSender(tools, worker.channel.port1, control, spanStart) : () => undefined;
  // The worker's first ranges' texts: a small chunk, so that it starts building soon.
  send((ranges - FIRST_CHUNK_RANGES) * RANGE);
  const unstemmed = (w: string): boolean => products.has(w);
  const collector = new Bm25Collector();
  const pass = new PassBuilder(size, unstemmed, vectors);
  const build = (range: number): void => {
    for (let i = range * RANGE, end = Math.min(size, i + RANGE); i < end; i++)
      pass.add(tools[i]!, paramText(tools[i]!), i, collector);
  };
  if (opts.workerFirst && worker)
    for (let t = 0; t < WORKER_PATIENCE_MS && Atomics.load(control, CLAIMED) === 0; t += 5)
      Atomics.wait(control, STATE, STATE_RUNNING, 5);
  let mine = 0;
  while (Atomics.add(control, CLAIMED, 1) < ranges) {
    build(mine++);
    // The worker's next range is the last less the ranges it claimed: its texts and the next few are sent ahead.
    send((ranges - 1 - (Atomics.load(control, CLAIMED) - mine) - AHEAD_RANGES) * RANGE);
    if (progress && mine % 4 === 0) progress(Math.min(size, mine * RANGE) + Atomics.load(control, WORKER_DONE), size);
  }
  send(mine * RANGE); // every range it claimed
  const theirs = ranges - mine;
  const built =
    theirs > 0 ? awaitWorker(worker, control, mine, ranges, opts.patienceMs ?? WORKER_PATIENCE_MS) : undefined;
  if (worker) {
    worker.channel.port1.close();
    void worker.thread.terminate();
  }
  if (built) {
    // The worker's term numbers, in the order it sent them (from the back), and one map of them to this numbering.
    const terms = [...built].reverse().flatMap((out) => out.part.terms);
    const remap = new Int32Array(terms.length).fill(-1);
    for (const out of built) {
      collector.append(out.part, terms, remap);
      if (out.rows) pass.matrix!.set(out.rows, out.range * RANGE * vectors!.dims);
    }
  } else for (let r = mine; r < ranges; r++) build(r); // the worker's ranges, on this thread
  opts.report?.({ workerRanges: built ? theirs : 0, failed: theirs > 0 && !built });
  progress?.(size, size);
  return finishPass(collector, pass, size, params, vectors);
}

interface Started {
  thread: Worker;
  channel: MessageChannel;
}

/** The worker, told how to claim ranges (its texts come in chunks); undefined when it cannot be started. */
function startWorker(
  size: number,
  products: ReadonlySet<string>,
  vectorsFile: string | undefined,
  file: string,
  control: Int32Array,
  ranges: number,
  spanStart: number,
): Started | undefined {
  const channel = new MessageChannel();
  const input: WorkerInput = {
    control: control.buffer as SharedArrayBuffer,
    port: channel.port2,
    size,
    ranges,
    rangeSize: RANGE,
    spanStart,
    vectorsFile,
    products: [...products],
  };
  let thread: Worker;
  try {
    thread = new Worker(file, { workerData: input, transferList: [channel.port2] });
  } catch {
    return undefined; // no worker: this thread claims every range (no one else touches the counter)
  }
  thread.unref();
  // The worker marks its own failure (index-worker.ts); these only keep a late error from being uncaught here
  // (this thread is blocked in Atomics.wait meanwhile, so they cannot wake it).
  thread.on('error', () => fail(control));
  thread.on('exit', () => fail(control));
  return { thread, channel };
}

/**
 * Sends the worker the texts the pass reads of its tools, from the back, in chunks of CHUNK_RANGES ranges: `send(at)`
 * sends every chunk not yet sent down to tool `at` (never below its half). Only what it may build is copied to it.
 */
function textSender(
  tools: readonly ToolRef[],
  port: MessageChannel['port1'],
  control: Int32Array,
  spanStart: number,
): (at: number) => void {
  let sentFrom = tools.length;
  const serverIds = new Map<string, number>();
  return (at) => {
    while (sentFrom > Math.max(at, spanStart)) {
      const from = Math.max(spanStart, sentFrom - CHUNK_RANGES * RANGE);
      const count = sentFrom - from;
      const texts = new Array<string>(count * TEXTS_PER_TOOL);
      const serverOf = new Int32Array(count);
      const servers: [string, string][] = [];
      for (let i = 0, j = 0; i < count; i++) {
        const t = tools[from + i]!;
        texts[j++] = t.tool.name;
        texts[j++] = t.tool.title ?? '';
        texts[j++] = t.tool.description ?? '';
        texts[j++] = paramText(t);
        const key = `${t.server}\n${t.serverInstructions ?? ''}`;
        let id = serverIds.get(key);
        if (id === undefined) {
          id = serverIds.size;
          serverIds.set(key, id);
          servers.push([t.server, t.serverInstructions ?? '']);
        }
        serverOf[i] = id;
      }
      const chunk: WorkerTexts = { from, texts, serverOf, servers };
      port.postMessage(chunk, [serverOf.buffer]);
      Atomics.add(control, TEXTS_SENT, 1);
      Atomics.notify(control, TEXTS_SENT);
      sentFrom = from;
    }
  };
}

/** Marks the worker failed unless it answered (its answer's state stays). */
function fail(control: Int32Array): void {
  Atomics.compareExchange(control, STATE, STATE_RUNNING, STATE_FAILED);
  Atomics.notify(control, STATE);
}

/**
 * The ranges from `first` to the last as the worker built them, in tool order, once it has finished; undefined when it failed,
 * stopped making progress or sent another set of ranges.
 */
function awaitWorker(
  worker: Started | undefined,
  control: Int32Array,
  first: number,
  ranges: number,
  patience: number,
): RangeOutput[] | undefined {
  if (!worker) return undefined;
  let done = Atomics.load(control, WORKER_DONE);
  let waited = 0;
  while (Atomics.load(control, STATE) === STATE_RUNNING) {
    Atomics.wait(control, STATE, STATE_RUNNING, 100);
    const now = Atomics.load(control, WORKER_DONE);
    waited = now === done ? waited + 100 : 0;
    done = now;
    if (waited >= patience) return undefined;
  }
  if (Atomics.load(control, STATE) !== STATE_OK) return undefined;
  const built: RangeOutput[] = [];
  let terms = 0;
  for (let m = receiveMessageOnPort(worker.channel.port1); m; m = receiveMessageOnPort(worker.channel.port1)) {
    const out = m.message as RangeOutput;
    if (out.part.firstTerm !== terms) return undefined;
    terms += out.part.terms.length;
    built.push(out);
  }
  built.reverse(); // built from the back
  return built.length === ranges - first && built.every((out, k) => out.range === first + k) ? built : undefined;
}
