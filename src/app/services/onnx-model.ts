/**
 * `--model <dir>`: a local sentence-transformers / Hugging Face ONNX export run with onnxruntime-web. The folder
 * holds `model.onnx` (or `onnx/model.onnx`) and `tokenizer.json` (WordPiece; core/discover/wordpiece.ts), with an
 * optional `tokenizer_config.json` (`model_max_length`). Texts are tokenised, padded per batch of MODEL_BATCH, fed
 * as the inputs the graph declares (`input_ids`, `attention_mask`, `token_type_ids`), and pooled: the graph's
 * `sentence_embedding` when it has one, else `last_hidden_state` (or its first output) averaged over the mask;
 * L2-normalised. Nothing is downloaded. A folder that cannot be used is MODEL_UNAVAILABLE naming the file.
 */
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { MODEL_BATCH, type Embed } from '../../core/discover/model.js';
import { meanPool, sentenceRows } from '../../core/discover/sentence-pool.js';
import { parseWordPiece, TokenizerFormatError, type WordPieceTokenizer } from '../../core/discover/wordpiece.js';
import { SmartError } from '../../process/errors.js';
import { loadOnnxRuntime, type OnnxRuntime, type OrtSession, type OrtTensor } from './onnx-runtime.js';

/** Where a sentence-transformers export keeps its graph, in the order looked for. */
export const MODEL_FILES = ['model.onnx', join('onnx', 'model.onnx')];
const TEXT_INPUTS = ['input_ids', 'attention_mask', 'token_type_ids'];

export interface OnnxModelOptions {
  /** Where the runtime is looked for besides mcp-smart's own location (tests point it elsewhere). */
  runtimeFrom?: string;
}

/** Loads the folder's tokenizer and graph; throws FILE_NOT_FOUND or MODEL_UNAVAILABLE (naming the file). */
export async function loadOnnxModel(dir: string, cwd: string, opts: OnnxModelOptions = {}): Promise<Embed> {
  const path = resolve(cwd, dir);
  try {
    await stat(path);
  } catch (e) {
    throw new SmartError(
      'FILE_NOT_FOUND',
      { file: path, hint: 'Pass a local sentence-transformers ONNX model folder to --model.' },
      { cause: e },
    );
  }
  const modelFile = await firstFile(path, MODEL_FILES);
  if (!modelFile) throw new SmartError('MODEL_UNAVAILABLE', { kind: 'onnx-missing', path });
  const tokenizer = await readTokenizer(path);
  const ort = await loadOnnxRuntime(cwd, opts.runtimeFrom);
  let session: OrtSession;
  try {
    session = await ort.InferenceSession.create(await readFile(modelFile), {
      executionProviders: ['wasm'],
      logSeverityLevel: 4,
    });
  } catch (e) {
    throw new SmartError(
      'MODEL_UNAVAILABLE',
      { kind: 'model-load', path: modelFile, reason: reasonOf(e) },
      { cause: e },
    );
  }
  const unknown = session.inputNames.filter((n) => !TEXT_INPUTS.includes(n));
  if (unknown.length > 0 || !session.inputNames.includes('input_ids'))
    throw new SmartError('MODEL_UNAVAILABLE', {
      kind: 'model-inputs',
      path: modelFile,
      reason: `its inputs are ${session.inputNames.join(', ')}; a sentence model takes ${TEXT_INPUTS.join(', ')}`,
    });
  const output =
    ['sentence_embedding', 'last_hidden_state'].find((n) => session.outputNames.includes(n)) ?? session.outputNames[0]!;
  const run = batchRunner(ort, session, tokenizer, output);
  return async (texts) => {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += MODEL_BATCH) {
      try {
        out.push(...(await run(texts.slice(i, i + MODEL_BATCH))));
      } catch (e) {
        if (e instanceof SmartError) throw e;
        throw new SmartError(
          'MODEL_UNAVAILABLE',
          { kind: 'model-run', path: modelFile, reason: reasonOf(e) },
          { cause: e },
        );
      }
    }
    return out;
  };
}

/** One batch: tokenised, padded to its longest text, run, pooled. */
function batchRunner(
  ort: OnnxRuntime,
  session: OrtSession,
  tokenizer: WordPieceTokenizer,
  output: string,
): (texts: string[]) => Promise<Float32Array[]> {
  const int32 = new Set((session.inputMetadata ?? []).filter((m) => m.type === 'int32').map((m) => m.name));
  return async (texts) => {
    const encoded = texts.map((t) => tokenizer.encode(t));
    const sequence = Math.max(1, ...encoded.map((e) => e.ids.length));
    const ids: number[] = [];
    const types: number[] = [];
    const masks = encoded.map((e) => {
      const pad = sequence - e.ids.length;
      ids.push(...e.ids, ...new Array<number>(pad).fill(tokenizer.padId));
      types.push(...e.typeIds, ...new Array<number>(pad).fill(0));
      return [...new Array<number>(e.ids.length).fill(1), ...new Array<number>(pad).fill(0)];
    });
    const values: Record<string, number[]> = { input_ids: ids, attention_mask: masks.flat(), token_type_ids: types };
    const feeds: Record<string, OrtTensor> = {};
    for (const name of session.inputNames) {
      const v = values[name]!;
      feeds[name] = int32.has(name)
        ? new ort.Tensor('int32', Int32Array.from(v), [texts.length, sequence])
        : new ort.Tensor(
            'int64',
            BigInt64Array.from(v, (x) => BigInt(x)),
            [texts.length, sequence],
          );
    }
    // Severity 4 (fatal only): a failure is reported once, by the error below, not also by the runtime's log.
    const result = (await session.run(feeds, { logSeverityLevel: 4 }))[output];
    if (!result || !(result.data instanceof Float32Array))
      throw new Error(`output ${output} is not a float32 tensor (${result?.type ?? 'missing'})`);
    const dims = result.dims;
    if (dims.length === 2 && dims[0] === texts.length) return sentenceRows(result.data, texts.length, dims[1]!);
    if (dims.length === 3 && dims[0] === texts.length && dims[1] === sequence)
      return meanPool(result.data, masks, sequence, dims[2]!);
    throw new Error(
      `output ${output} has shape [${dims.join(', ')}]; expected [batch, dims] or [batch, sequence, dims]`,
    );
  };
}

async function readTokenizer(dir: string): Promise<WordPieceTokenizer> {
  const file = join(dir, 'tokenizer.json');
  const doc = await readJson(file, true);
  const configFile = join(dir, 'tokenizer_config.json');
  const config = await readJson(configFile, false);
  try {
    return parseWordPiece(doc, config);
  } catch (e) {
    if (!(e instanceof TokenizerFormatError)) throw e;
    throw new SmartError('MODEL_UNAVAILABLE', { kind: 'tokenizer-unsupported', file, key: e.key, reason: e.reason });
  }
}

/** A JSON file of the folder; undefined when an optional one is missing. */
async function readJson(file: string, required: boolean): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' && !required) return undefined;
    throw new SmartError('MODEL_UNAVAILABLE', { kind: 'tokenizer-missing', file, reason: reasonOf(e) }, { cause: e });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new SmartError('MODEL_UNAVAILABLE', { kind: 'tokenizer-json', file, reason: reasonOf(e) }, { cause: e });
  }
}

async function firstFile(dir: string, names: string[]): Promise<string | undefined> {
  for (const name of names) {
    const file = join(dir, name);
    if (
      await stat(file).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      return file;
  }
  return undefined;
}

/** The runtime's message without its stack; it names no secret (a local path at most). */
function reasonOf(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!.trim();
}
