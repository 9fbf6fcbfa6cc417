// `--model <dir>` through the real runtime (onnxruntime-web, a devDependency) on the tiny model
// scripts/make-tiny-onnx.mjs writes: tokenised, padded per batch, mean-pooled over the mask, L2-normalised.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOnnxModel } from '../../src/app/services/onnx-model.js';
import { loadOnnxRuntime, resolveOnnxRuntime } from '../../src/app/services/onnx-runtime.js';
import type { Embed } from '../../src/core/discover/model.js';
import { parseWordPiece } from '../../src/core/discover/wordpiece.js';
import { defaultVectorsFile, parseWordVectors } from '../../src/core/discover/vectors.js';
import { SmartError } from '../../src/process/errors.js';
import { fixture, REPO } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const TINY = fixture('models', 'tiny-onnx');
let embed: Embed;

beforeAll(async () => {
  embed = await loadOnnxModel(TINY, REPO);
});

const close = (a: Float32Array, b: ArrayLike<number>, eps = 1e-5): void => {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThan(eps);
};

describe('--model <dir> (ONNX, onnxruntime-web)', () => {
  it('is the unit mean of the tokens’ rows: for the tiny model, the shipped word vectors of the known words', async () => {
    const tok = parseWordPiece(JSON.parse(readFileSync(join(TINY, 'tokenizer.json'), 'utf8')));
    // [CLS], [SEP] and [UNK] are zero rows in the tiny model; "a" is not in its vocabulary.
    expect(tok.tokens(tok.encode('read a file').ids)).toEqual(['[CLS]', 'read', '[UNK]', 'file', '[SEP]']);
    const wv = parseWordVectors(readFileSync(defaultVectorsFile()));
    const row = (w: string): number[] => {
      const r = wv.index.get(w)!;
      return Array.from(wv.data.subarray(r * wv.dims, (r + 1) * wv.dims), (x) => Math.fround(x * wv.scales[r]!));
    };
    const sum = row('read').map((x, d) => x + row('file')[d]!);
    const norm = Math.hypot(...sum);
    const [v] = await embed(['read a file']);
    close(
      v!,
      sum.map((x) => x / norm),
    );
  });

  it('pads per batch without changing a text’s vector, and runs more than one batch', async () => {
    const [alone] = await embed(['read a file']);
    const long = 'the weather forecast for paris tomorrow with rain and wind for the next days in the city';
    const [padded, other] = await embed(['read a file', long]);
    close(padded!, alone!, 1e-6);
    expect(Math.abs(other![0]! - alone![0]!)).toBeGreaterThan(0);
    const texts = Array.from({ length: 70 }, (_, i) => (i === 66 ? 'read a file' : `${long} ${i}`));
    const out = await embed(texts);
    expect(out).toHaveLength(70);
    close(out[66]!, alone!, 1e-6);
    for (const v of out) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
  });

  it('finds the graph in onnx/model.onnx, as sentence-transformers exports lay it out', async () => {
    const dir = tempDir('mcp-smart-onnx-');
    mkdirSync(join(dir, 'onnx'));
    copyFileSync(join(TINY, 'model.onnx'), join(dir, 'onnx', 'model.onnx'));
    copyFileSync(join(TINY, 'tokenizer.json'), join(dir, 'tokenizer.json'));
    const [v] = await (await loadOnnxModel(dir, REPO))(['read a file']);
    close(v!, (await embed(['read a file']))[0]!, 1e-6);
  });

  it('takes the graph’s sentence_embedding when it has one, instead of pooling last_hidden_state', async () => {
    // The --pooled variant sums the same rows over the mask in its graph, and biases its last_hidden_state.
    const dir = tempDir('mcp-smart-onnx-');
    execFileSync(process.execPath, [join(REPO, 'scripts', 'make-tiny-onnx.mjs'), dir, '--pooled']);
    const texts = ['read a file', 'the weather forecast for paris tomorrow'];
    const pooled = await (await loadOnnxModel(dir, REPO))(texts);
    const mine = await embed(texts);
    close(pooled[0]!, mine[0]!);
    close(pooled[1]!, mine[1]!);
  });

  it('names the package to install when the runtime is neither beside mcp-smart nor in the current folder', async () => {
    const elsewhere = tempDir('mcp-smart-onnx-');
    const from = pathToFileURL(join(elsewhere, 'dist', 'cli.js')).href;
    expect(resolveOnnxRuntime(elsewhere, from)).toBeUndefined();
    const err = await loadOnnxRuntime(elsewhere, from).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SmartError);
    expect((err as SmartError).code).toBe('MODEL_UNAVAILABLE');
    expect((err as SmartError).message).toMatch(/npm install -g onnxruntime-web@1\.30 beside a global mcp-smart/);
    // Found from the current folder when it is not beside mcp-smart (a project that installed it).
    expect(resolveOnnxRuntime(REPO, from)).toBe(
      join(REPO, 'node_modules', 'onnxruntime-web', 'dist', 'ort.node.min.js'),
    );
  });

  it('says which file it loaded when an installed onnxruntime-web is not the runtime it expects', async () => {
    const project = tempDir('mcp-smart-onnx-');
    const pkg = join(project, 'node_modules', 'onnxruntime-web');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'onnxruntime-web', main: 'index.js' }));
    writeFileSync(join(pkg, 'index.js'), 'module.exports = { env: { wasm: {} } };');
    const err = await loadOnnxRuntime(project, pathToFileURL(join(project, 'cli.js')).href).catch((e: unknown) => e);
    expect((err as SmartError).code).toBe('MODEL_UNAVAILABLE');
    expect((err as SmartError).message).toBe(
      `Cannot load onnxruntime-web from ${join(pkg, 'index.js')}: InferenceSession is not exported. ` +
        'Reinstall it where it is (npm install onnxruntime-web@1.30).',
    );
  });
});
