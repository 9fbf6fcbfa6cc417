// bench:rerank-lso — issue 37 (branch gen37): the re-ranker's training recipe (L2 strength, epochs, depth, set
// weighting) chosen by leave-servers-out and by MetaTool's tuning queries the recipe does not train on. Runs against
// dist/. Reads no MetaTool test or LiveMCPBench query: only the development sets.
//
//   node bench/rerank-lso.mjs [--variants name,name] [--save FILE] [--write DIR] [--vectors name=FILE,…]
//
// --vectors name=FILE: a variant `name` whose indexes are built on another word-vector table (scripts/build-vectors.mjs
// --out FILE), the re-ranker retrained on it (issue 37 item 3, branch model37).
//
// Each variant: the re-ranker trained per leave-servers-out fold (MetaTool tuning every 3rd, BFCL turns, the
// servers-111 intents of the other folds), the 350 servers-111 queries of each fold ranked over the 2,781-tool
// catalogue through rankTools with it (checks after the re-ranker included); and the model trained on every
// development query scored on MetaTool's tuning queries it never saw (the other two thirds, 4,140) and, in-sample,
// on the development sets.
import { writeFileSync } from 'node:fs';

const { buildDiscoverIndex, loadWordVectors, pairedBootstrap, rankTools } =
  await import('../dist/core/discover/index.js');
const { seededRandom } = await import('../dist/core/session/tune.js');
const { loadBfcl, loadMetaTool, loadServers111 } = await import('./helpers/datasets.mjs');
const { train } = await import('./helpers/listwise.mjs');
const { serverFolds } = await import('./helpers/folds.mjs');
const { rankMetrics } = await import('./helpers/rank-metrics.mjs');

const arg = (flag) => {
  const at = process.argv.indexOf(flag);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const K = 5;
const vectors = await loadWordVectors();
const tables = new Map([[undefined, vectors]]);
for (const spec of arg('--vectors')?.split(',') ?? []) {
  const [name, file] = spec.split('=');
  if (!name || !file) throw new Error(`--vectors: "${spec}" is not name=FILE`);
  tables.set(file, await loadWordVectors(file));
}
const meta = loadMetaTool();
const bfcl = loadBfcl();
const s111 = loadServers111();
const intents = s111.cases;
const lso = [
  ...intents,
  ...loadServers111('servers-111-questions.jsonl').cases,
  ...loadServers111('servers-111-commands.jsonl').cases,
];
const { caseFold } = serverFolds([...new Set(s111.tools.map((t) => t.server))], lso, K);
const metaTrain = meta.tune.filter((_, i) => i % 3 === 0);
const metaSeen = meta.tune.filter((_, i) => i % 3 !== 0);
// The indexes under the default weights, and under a variant's BM25 weights (`index`: built into the index).
const indexes = new Map();
const indexesFor = (w, file = undefined) => {
  const at = JSON.stringify([w ?? {}, file ?? null]);
  const table = tables.get(file);
  if (!indexes.has(at))
    indexes.set(at, {
      s111: buildDiscoverIndex(s111.tools, { vectors: table, weights: w }),
      meta: buildDiscoverIndex(meta.tools, { vectors: table, weights: w }),
      bfcl: buildDiscoverIndex(bfcl.tools, { vectors: table, weights: w }),
    });
  return indexes.get(at);
};
let idx = indexesFor(undefined);
const byName = (t) => t.tool.name;
const byId = (t) => t.id;
// Result rows: MetaTool and BFCL labels are tool names, servers-111's are ids.
const rName = (r) => r.tool;
const rId = (r) => r.id;

/** Candidates with features and labels at a depth (listwise.mjs candidates() at RERANK_DEPTH). */
function candidates(index, cases, key, extra, depth, weights) {
  const label = new Map(index.tools.map((t) => [t.id, key(t)]));
  return cases.map((c) => {
    let ids = [];
    let feats = [];
    rankTools(index, c.intent, {
      engine: 'hybrid',
      k: 1,
      rerank: { features: [], weights: [], depth },
      weights,
      onCandidates: (i, f) => ((ids = i), (feats = f)),
    });
    const expected = new Set(c.expected);
    return { ...extra, feats, labels: ids.map((id) => (expected.has(label.get(id)) ? 1 : 0)) };
  });
}
const devCache = new Map();
function dev(depth, weights) {
  const at = JSON.stringify([
    depth,
    weights,
    idx === indexesFor(undefined) ? null : [...indexes.keys()].find((k) => indexes.get(k) === idx),
  ]);
  if (!devCache.has(at))
    devCache.set(at, [
      ...candidates(idx.meta, metaTrain, byName, { set: 'meta', fold: -1 }, depth, weights),
      ...candidates(idx.bfcl, bfcl.turns, byName, { set: 'bfcl', fold: -1 }, depth, weights),
      ...intents.map((c) => ({
        ...candidates(idx.s111, [c], byId, { set: 's111' }, depth, weights)[0],
        fold: caseFold(c),
      })),
    ]);
  return devCache.get(at);
}
let weights;
const ranked = (index, cases, key, model) =>
  cases.map((c) =>
    rankMetrics(
      rankTools(index, c.intent, { engine: 'hybrid', k: 10, rerank: model, weights }).results.map((r) => key(r)),
      new Set(c.expected),
    ),
  );

const VARIANTS = {
  base: { depth: 10 },
  'l2-1e-2': { depth: 10, l2: 1e-2 },
  'l2-3e-2': { depth: 10, l2: 3e-2 },
  'l2-1e-1': { depth: 10, l2: 1e-1 },
  'ep-600': { depth: 10, epochs: 600 },
  'ep-600-l2-0': { depth: 10, epochs: 600, l2: 0 },
  'ep-2000': { depth: 10, epochs: 2000 },
  'lr-3-ep-600': { depth: 10, epochs: 600, lr: 3 },
  d20: { depth: 20 },
  'd20-l2-1e-2': { depth: 20, l2: 1e-2 },
  'd20-ep-600': { depth: 20, epochs: 600 },
  d5: { depth: 5 },
  // Fusion weights (weights.ts DEFAULT_WEIGHTS.fusion: bm25 1, semantic 1, server 0.5), the re-ranker retrained.
  'sem-0.7': { depth: 10, weights: { fusion: { semantic: 0.7 } } },
  'sem-1.4': { depth: 10, weights: { fusion: { semantic: 1.4 } } },
  'server-0.25': { depth: 10, weights: { fusion: { server: 0.25 } } },
  'server-1': { depth: 10, weights: { fusion: { server: 1 } } },
  // BM25 (weights.ts DEFAULT_WEIGHTS.bm25: k1 1.6, b 0.5, fields name 3, description 1, params 0.75, server 0.3).
  'name-2': { depth: 10, index: { bm25: { fields: { name: 2 } } } },
  'name-5': { depth: 10, index: { bm25: { fields: { name: 5 } } } },
  'params-0.4': { depth: 10, index: { bm25: { fields: { params: 0.4 } } } },
  'params-1.5': { depth: 10, index: { bm25: { fields: { params: 1.5 } } } },
  'b-0.3': { depth: 10, index: { bm25: { b: 0.3 } } },
  'b-0.75': { depth: 10, index: { bm25: { b: 0.75 } } },
};
for (const spec of arg('--vectors')?.split(',') ?? []) {
  const [name, file] = spec.split('=');
  VARIANTS[name] = { depth: 10, vectors: file };
}
const chosen = arg('--variants')?.split(',') ?? Object.keys(VARIANTS);
const f3 = (x) => x.toFixed(3);
const mean = (xs) => xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length);
const iv = (a, b) => {
  const d = pairedBootstrap(a, b ?? a.map(() => 0), seededRandom(1));
  return `${b ? (d.mean >= 0 ? '+' : '') : ''}${f3(d.mean)} [${f3(d.low)}, ${f3(d.high)}]`;
};
const out = {};
console.log(`node ${process.version}; ${new Date().toISOString()}`);
for (const name of chosen) {
  const v = VARIANTS[name];
  const t0 = performance.now();
  weights = v.weights;
  idx = indexesFor(v.index, v.vectors);
  const items = dev(v.depth, v.weights);
  const opts = { epochs: v.epochs ?? 150, l2: v.l2 ?? 1e-3, lr: v.lr ?? 1 };
  const withDepth = (m) => ({ ...m, depth: v.depth });
  const models = Array.from({ length: K }, (_, f) =>
    withDepth(
      train(
        items.filter((d) => d.fold !== f),
        opts,
      ),
    ),
  );
  const all = withDepth(train(items, opts));
  const r = { lso: [] };
  for (let f = 0; f < K; f++) {
    const cases = lso.filter((c) => caseFold(c) === f);
    ranked(idx.s111, cases, rId, models[f]).forEach((m, j) => (r.lso[lso.indexOf(cases[j])] = { ...m, fold: f }));
  }
  r.metaSeen = ranked(idx.meta, metaSeen, rName, all);
  r.devMeta = ranked(idx.meta, metaTrain, rName, all);
  r.devBfcl = ranked(idx.bfcl, bfcl.turns, rName, all);
  r.devS111 = ranked(idx.s111, lso, rId, all);
  r.weights = all.weights.map((w) => Math.round(w * 1e4) / 1e4);
  out[name] = r;
  // --write DIR: each variant's re-rankers as `node bench/generalise.mjs --model FILE` reads them.
  if (arg('--write'))
    writeFileSync(
      `${arg('--write')}/${name}.json`,
      JSON.stringify({ about: `${name} ${JSON.stringify(opts)} depth ${v.depth}`, folds: models, all }),
    );
  const b = out.base;
  console.log(
    `\n${name} ${JSON.stringify(opts)} depth ${v.depth} weights ${JSON.stringify(v.weights ?? {})} index ${JSON.stringify(v.index ?? {})}${v.vectors ? ` vectors ${v.vectors}` : ''} (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
  );
  for (const key of ['lso', 'metaSeen', 'devMeta', 'devBfcl', 'devS111']) {
    const rows = r[key];
    const d =
      b && name !== 'base'
        ? `  Δhit@1 ${iv(
            rows.map((x) => x.h1),
            b[key].map((x) => x.h1),
          )}  Δhit@5 ${iv(
            rows.map((x) => x.h5),
            b[key].map((x) => x.h5),
          )}`
        : '';
    const folds =
      key === 'lso'
        ? `  folds ${Array.from({ length: K }, (_, f) => f3(mean(rows.filter((x) => x.fold === f).map((x) => x.h1)))).join(' ')}`
        : '';
    console.log(
      `  ${key.padEnd(9)} n ${String(rows.length).padStart(5)} hit@1 ${iv(rows.map((x) => x.h1))} hit@5 ${iv(rows.map((x) => x.h5))}${d}${folds}`,
    );
  }
}
if (arg('--save')) writeFileSync(arg('--save'), JSON.stringify(out));
