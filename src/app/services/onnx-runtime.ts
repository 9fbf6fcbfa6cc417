/**
 * The ONNX runtime `--model <dir>` runs models with: onnxruntime-web, Microsoft's, whose WebAssembly build ships
 * inside its npm package (no install script, nothing fetched). An optional peer: resolved from mcp-smart's own
 * location (installed beside it, globally or in the same project), then from the current folder; missing, it is
 * MODEL_UNAVAILABLE naming the package to install.
 */
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SmartError } from '../../process/errors.js';

export const ONNX_RUNTIME = 'onnxruntime-web';

type TensorData = BigInt64Array | Int32Array | Float32Array;

export interface OrtTensor {
  dims: readonly number[];
  type: string;
  data: unknown;
}

export interface OrtSession {
  inputNames: readonly string[];
  outputNames: readonly string[];
  inputMetadata?: readonly { name: string; isTensor?: boolean; type?: string }[];
  run: (feeds: Record<string, OrtTensor>, options?: Record<string, unknown>) => Promise<Record<string, OrtTensor>>;
  release?: () => Promise<void>;
}

export interface OnnxRuntime {
  InferenceSession: { create: (model: Uint8Array, options?: Record<string, unknown>) => Promise<OrtSession> };
  Tensor: new (type: string, data: TensorData, dims: readonly number[]) => OrtTensor;
  env: {
    logLevel?: string;
    wasm: { numThreads?: number; proxy?: boolean; wasmPaths?: string | Record<string, string> };
  };
}

/** Where the runtime's entry file is: beside mcp-smart (`from`), else in `cwd`'s node_modules. */
export function resolveOnnxRuntime(cwd: string, from: string = import.meta.url): string | undefined {
  for (const base of [from, pathToFileURL(join(cwd, 'package.json')).href]) {
    try {
      return createRequire(base).resolve(ONNX_RUNTIME);
    } catch {
      // not there: the next place
    }
  }
  return undefined;
}

/** Loads and configures the runtime: one thread, no worker, its WebAssembly from its own folder only, quiet. */
export async function loadOnnxRuntime(cwd: string, from?: string): Promise<OnnxRuntime> {
  const entry = resolveOnnxRuntime(cwd, from);
  if (!entry) throw new SmartError('MODEL_UNAVAILABLE', { kind: 'onnx-runtime-missing' });
  let ort: OnnxRuntime;
  try {
    const mod = (await import(pathToFileURL(entry).href)) as Partial<OnnxRuntime> & { default?: OnnxRuntime };
    ort = mod.InferenceSession ? (mod as OnnxRuntime) : mod.default!;
    if (typeof ort?.InferenceSession?.create !== 'function') throw new Error('InferenceSession is not exported');
  } catch (e) {
    throw new SmartError(
      'MODEL_UNAVAILABLE',
      { kind: 'onnx-runtime-load', path: entry, reason: (e as Error).message },
      { cause: e },
    );
  }
  // Its own log lines (coloured, on stderr) would duplicate the error mcp-smart reports with the file named.
  ort.env.logLevel = 'fatal';
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  // The .wasm beside the entry file (the package's dist/): never a URL the runtime could fetch.
  ort.env.wasm.wasmPaths = dirname(entry) + sep;
  return ort;
}
