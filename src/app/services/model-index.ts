/**
 * `discover --model`: a sentence model's index of a catalogue, computed once per model and catalogue. In the cache
 * folder's `discover-vectors/`:
 *
 * - `<key>.bin`: the built index (BM25 and the model's tool vectors), sealed under a key of the model and the tools
 *   (index-cache.ts's envelope); a run that finds it reads it instead of embedding or indexing anything;
 * - `<model>.json`: the model's vectors by text (a SHA-256 of it), so a catalogue that changed embeds only its new
 *   texts; written every SAVE_EVERY batches, so an interrupted first run keeps what it computed;
 * - `<model>-intents.json`: the vectors of the last INTENTS_KEPT intents ranked one at a time.
 *
 * The model is loaded only when a vector is missing (a warm run on an intent asked before never loads it), and tool
 * texts are embedded MODEL_BATCH at a time with a progress line on a terminal.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  buildDiscoverIndex,
  decodeIndexCache,
  encodeIndexCache,
  indexCacheKey,
  openIndexCache,
  sealIndexCache,
  semanticText,
  type BuildOptions,
  type DiscoverIndex,
} from '../../core/discover/engine.js';
import { loadUseLite, MODEL_BATCH, USE_LITE, USE_LITE_KEY, type Embed } from '../../core/discover/model.js';
import { writeFileSafe } from '../../process/safe-write.js';
import type { ToolRef } from '../../core/types.js';
import type { WorkProgress } from './progress.js';

/** Batches embedded between two writes of the model's vectors by text. */
const SAVE_EVERY = 8;
/** Single intents whose vectors are kept per model (the oldest go first). */
export const INTENTS_KEPT = 1000;
/** The format of `<key>.bin`; bump it when its bytes change. */
const MODEL_INDEX_VERSION = 'model-index-v1';

export interface ModelIndexOptions {
  /** `use-lite` or a model folder, as given to --model. */
  model: string;
  cwd: string;
  /** The cache folder; undefined with --no-cache (then everything is computed and nothing written). */
  cacheDir: string | undefined;
  build: Pick<BuildOptions, 'weights' | 'keywords'>;
  progress: WorkProgress;
  /** Loads the model (tests hand in their own); by default use-lite's packages or the folder's ONNX export. */
  load?: () => Promise<Embed>;
}

export interface ModelIndex {
  index: DiscoverIndex;
  /** Where the index came from: the index file, or built (its tool vectors embedded or read by text). */
  fromCache: boolean;
  /** Vectors for intents: those asked before from the cache, the others from the model (loaded then). */
  embedIntents: (texts: string[], keep: boolean) => Promise<Float32Array[]>;
  /** Whether the model has been loaded (a warm run on a known intent never loads it). */
  loaded: () => boolean;
}

type VectorFile = Map<string, Float32Array>;

export async function modelIndex(tools: ToolRef[], opts: ModelIndexOptions): Promise<ModelIndex> {
  const modelKey = await keyOfModel(opts.model, opts.cwd);
  let model: Promise<Embed> | undefined;
  const embed: Embed = async (texts) => {
    model ??= opts.load
      ? opts.load()
      : opts.model === USE_LITE
        ? loadUseLite()
        : import('./onnx-model.js').then((m) => m.loadOnnxModel(opts.model, opts.cwd));
    return (await model)(texts);
  };
  const dir = opts.cacheDir === undefined ? undefined : join(opts.cacheDir, 'discover-vectors');
  const stem = sha(modelKey).slice(0, 16);
  const key = sha(`${MODEL_INDEX_VERSION}\0${modelKey}\0${indexCacheKey(tools, undefined, opts.build.weights)}`).slice(
    0,
    16,
  );

  let index = dir ? readModelIndex(join(dir, `${key}.bin`), key, tools, opts.build) : undefined;
  const fromCache = index !== undefined;
  if (!index) {
    const byText = dir ? await readVectors(join(dir, `${stem}.json`)) : new Map<string, Float32Array>();
    const save = async (): Promise<void> => {
      if (dir) await writeVectors(dir, `${stem}.json`, byText);
    };
    const texts = tools.map(semanticText);
    await embedMissing(embed, texts, byText, opts.progress, save);
    index = buildDiscoverIndex(tools, { ...opts.build, embeddings: texts.map((t) => byText.get(sha(t))!) });
    if (dir) await writeModelIndex(dir, key, index);
  }

  const intentsFile = `${stem}-intents.json`;
  let intents: VectorFile | undefined;
  const embedIntents = async (texts: string[], keep: boolean): Promise<Float32Array[]> => {
    intents ??= dir ? await readVectors(join(dir, intentsFile)) : new Map<string, Float32Array>();
    const known = intents;
    const missing = [...new Set(texts.filter((t) => !known.has(sha(t))))];
    const vectors = missing.length > 0 ? await embed(missing) : [];
    const fresh = new Map(missing.map((t, i) => [sha(t), vectors[i]!]));
    const out = texts.map((t) => known.get(sha(t)) ?? fresh.get(sha(t))!);
    if (keep && dir && fresh.size > 0) {
      for (const [k, v] of fresh) known.set(k, v);
      for (const k of [...known.keys()].slice(0, Math.max(0, known.size - INTENTS_KEPT))) known.delete(k);
      await writeVectors(dir, intentsFile, known).catch(() => undefined);
    }
    return out;
  };
  return { index, fromCache, embedIntents, loaded: () => model !== undefined };
}

/** Embeds the texts `byText` lacks, MODEL_BATCH at a time, saving every SAVE_EVERY batches and at the end. */
async function embedMissing(
  embed: Embed,
  texts: string[],
  byText: VectorFile,
  progress: WorkProgress,
  save: () => Promise<void>,
): Promise<void> {
  const todo = [...new Map(texts.map((t) => [sha(t), t])).entries()].filter(([k]) => !byText.has(k));
  if (todo.length === 0) return;
  try {
    progress.step(0, todo.length, 'loading the model');
    for (let i = 0; i < todo.length; i += MODEL_BATCH) {
      const part = todo.slice(i, i + MODEL_BATCH);
      const vectors = await embed(part.map(([, t]) => t));
      part.forEach(([k], j) => byText.set(k, vectors[j]!));
      progress.step(i + part.length, todo.length);
      if ((i / MODEL_BATCH + 1) % SAVE_EVERY === 0) await save();
    }
  } finally {
    progress.done();
  }
  await save();
}

/**
 * What the model's vectors depend on: use-lite's package version, or the folder's path and its (and its onnx/
 * folder's) files' sizes and times (a model replaced in place is embedded again).
 */
async function keyOfModel(model: string, cwd: string): Promise<string> {
  if (model === USE_LITE) return USE_LITE_KEY;
  const path = resolve(cwd, model);
  try {
    // The export's onnx/ subfolder counts too (its model.onnx may be replaced in place).
    const inner = await readdir(join(path, 'onnx')).catch(() => [] as string[]);
    const files = [...(await readdir(path)), ...inner.map((f) => join('onnx', f))].sort();
    const stamps = await Promise.all(
      files.map(async (f) => {
        const s = await stat(join(path, f));
        return `${f}:${s.size}:${s.mtimeMs}`;
      }),
    );
    return `${path}\0${stamps.join('\0')}`;
  } catch {
    return path; // not a folder: loading it says why
  }
}

/** The index in `file` when it is sealed under `key` and holds these tools' parts; undefined otherwise. */
function readModelIndex(
  file: string,
  key: string,
  tools: ToolRef[],
  build: ModelIndexOptions['build'],
): DiscoverIndex | undefined {
  try {
    const payload = openIndexCache(key, readFileSync(file));
    if (!payload || payload.byteLength < 8) return undefined;
    const dims = new DataView(payload.buffer, payload.byteOffset, 8).getUint32(0, true);
    const parts = decodeIndexCache(payload.subarray(8), tools.length, dims);
    return parts?.semantic ? buildDiscoverIndex(tools, { ...build, ...parts }) : undefined;
  } catch {
    return undefined;
  }
}

/** Best effort: a failed write costs the next run the index's build, nothing else. */
async function writeModelIndex(dir: string, key: string, index: DiscoverIndex): Promise<void> {
  const body = encodeIndexCache(index);
  const payload = new Uint8Array(8 + body.byteLength);
  new DataView(payload.buffer).setUint32(0, index.semantic?.dims ?? 0, true);
  payload.set(body, 8);
  await mkdir(dir, { recursive: true })
    .then(() => writeFileSafe(join(dir, `${key}.bin`), sealIndexCache(key, payload)))
    .catch(() => undefined);
}

/** A vector file (`{sha: base64 float32}`); empty when missing or not JSON. */
async function readVectors(file: string): Promise<VectorFile> {
  let doc: Record<string, string>;
  try {
    doc = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || e instanceof SyntaxError) return new Map();
    throw e;
  }
  const out: VectorFile = new Map();
  for (const [k, b64] of Object.entries(doc)) {
    if (typeof b64 !== 'string') continue;
    const buf = Buffer.from(b64, 'base64');
    out.set(k, new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)));
  }
  return out;
}

async function writeVectors(dir: string, name: string, vectors: VectorFile): Promise<void> {
  const doc: Record<string, string> = {};
  for (const [k, v] of vectors) doc[k] = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
  await mkdir(dir, { recursive: true });
  await writeFileSafe(join(dir, name), JSON.stringify(doc));
}

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
