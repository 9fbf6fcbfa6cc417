// bench:model-ceiling — issue 37 item 3 (branch model37): how far the sentence model the shipped word table is
// distilled from (Universal Sentence Encoder lite, `--model use-lite`) moves MetaTool's development proxy, so that a
// better static table distilled from it is known to be bounded before one is built. Runs against dist/.
//
//   node bench/model-ceiling.mjs [--cache FILE] [--tables FILE,FILE]
//
// Reads only development data: MetaTool's tuning queries the re-ranker's recipe does not train on (`metaSeen`, the
// two thirds of the tuning split not taken every 3rd: 4,140 queries; the proxy bench/rerank-lso.mjs uses for MetaTool
// test). Each query is ranked over MetaTool's 199 tools by the hybrid, first stage alone and through the shipped
// re-ranker (checks included), with (a) the shipped word table, (b) each table of --tables (scripts/build-vectors.mjs
// --out FILE), (c) use-lite's own tool and query vectors (the full encoder: what a static table distilled from it can
// at best approach). Every figure is a mean with its 95 % bootstrap interval (seed 1), each Δ paired over the queries.
// --cache FILE: use-lite's vectors are read from FILE when it exists, else computed (~10 min on 2 busy cores) and
// written there.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const { buildDiscoverIndex, loadWordVectors, pairedBootstrap, rankTools } =
  await import('../dist/core/discover/index.js');
const { semanticText } = await import('../dist/core/discover/build.js');
const { seededRandom } = await import('../dist/core/session/tune.js');
const { loadMetaTool } = await import('./helpers/datasets.mjs');

const arg = (flag) => {
  const at = process.argv.indexOf(flag);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const meta = loadMetaTool();
const seen = meta.tune.filter((_, i) => i % 3 !== 0);
const vectors = await loadWordVectors();
const f3 = (x) => x.toFixed(3);
const iv = (a, b) => {
  const d = pairedBootstrap(a, b ?? a.map(() => 0), seededRandom(1));
  return `${b ? (d.mean >= 0 ? '+' : '') : ''}${f3(d.mean)} [${f3(d.low)}, ${f3(d.high)}]`;
};
const KEYS = ['first1', 'first5', 'first30', 'hit1', 'hit5'];

/** Per-query hits: first stage alone (rerank: false) at 1, 5, 30, and the whole ranking at 1 and 5. */
function score(index, extra = () => ({})) {
  const r = Object.fromEntries(KEYS.map((k) => [k, []]));
  for (const c of seen) {
    const opts = { engine: 'hybrid', ...extra(c) };
    const at = (k, rerank) =>
      rankTools(index, c.intent, { ...opts, k, ...(rerank ? {} : { rerank: false }) })
        .results.map((x) => x.tool)
        .findIndex((n) => c.expected.includes(n));
    const first = at(30, false);
    const full = at(5, true);
    r.first1.push(first === 0 ? 1 : 0);
    r.first5.push(first >= 0 && first < 5 ? 1 : 0);
    r.first30.push(first >= 0 ? 1 : 0);
    r.hit1.push(full === 0 ? 1 : 0);
    r.hit5.push(full >= 0 ? 1 : 0);
  }
  return r;
}

console.log(
  `node ${process.version}; ${new Date().toISOString()}; metaSeen ${seen.length} queries, ${meta.tools.length} tools`,
);
const base = score(buildDiscoverIndex(meta.tools, { vectors }));
const show = (name, r) =>
  console.log(
    `${name.padEnd(26)} ${KEYS.map((k) => `${k} ${r === base ? iv(r[k]) : 'Δ' + iv(r[k], base[k])}`).join('  ')}`,
  );
show('shipped table', base);
for (const file of arg('--tables')?.split(',') ?? [])
  show(file.split('/').pop(), score(buildDiscoverIndex(meta.tools, { vectors: await loadWordVectors(file) })));

const cache = arg('--cache');
let model;
if (cache && existsSync(cache)) model = JSON.parse(readFileSync(cache, 'utf8'));
else {
  const { loadUseLite } = await import('../dist/core/discover/model.js');
  const embed = await loadUseLite();
  const queries = [];
  const tools = await embed(meta.tools.map(semanticText));
  for (let i = 0; i < seen.length; i += 256)
    queries.push(...(await embed(seen.slice(i, i + 256).map((c) => c.intent))));
  model = { tools: tools.map((v) => [...v]), queries: queries.map((v) => [...v]) };
  if (cache) writeFileSync(cache, JSON.stringify(model));
}
const qv = new Map(seen.map((c, i) => [c.intent, Float32Array.from(model.queries[i])]));
const index = buildDiscoverIndex(meta.tools, { embeddings: model.tools.map((v) => Float32Array.from(v)), vectors });
show(
  'use-lite (full encoder)',
  score(index, (c) => ({ queryVector: qv.get(c.intent) })),
);
