// bench:generalise — issue 37's measure of generalisation, not fit. Runs against dist/ (npm run build first).
//
//   node bench/generalise.mjs [--folds 5] [--checks [a,b,…]] [--model FILE] [--save FILE]
//
// Leave-servers-out: the 111-server catalogue (2,781 tools) split into k folds by server (helpers/folds.mjs); the
// servers-111 intents, questions and commands (350 queries) of a fold are ranked over the whole catalogue by a
// re-ranker trained as the shipped one is (scripts/train-reranker.mjs: MetaTool's tuning split, BFCL turns and the
// servers-111 intents) less the intents of that fold; every query is held out once. Held out: MetaTool's test
// split and LiveMCPBench, ranked with the re-ranker trained on every development query (the shipped recipe), never
// trained or tuned on. Each figure is the mean with its 95 % bootstrap interval over the queries (seeded), each
// difference a paired one over the same queries.
//
// --checks [a,b,…]: each check of the pipeline's CHECKS list (src/core/discover/checks/) turned off in turn through
// rankTools' `disabledChecks`, the re-ranker retrained without it when it runs before the re-ranker; the delta of
// turning it off on every measure, and the verdict (remove when no measure is lowered).
// --model FILE[,FILE]: a re-ranker written by scripts/train-pseudo.mjs (a JSON RerankModel, or one per fold under
// `folds`) ranked beside the shipped recipe, with the development sets' figures too. --save FILE: every per-query figure as JSON.
// --vectors FILE[,FILE]: another word-vector table (scripts/build-vectors.mjs --out FILE): every index built on it and the
// re-rankers trained on it by the shipped recipe (per fold for leave-servers-out), against today's table. It prints the
// held-out sets' figures for that table: a held-out look, for a candidate bench/rerank-lso.mjs --vectors passed.
import { readFileSync, writeFileSync } from 'node:fs';

const { buildDiscoverIndex, loadWordVectors, pairedBootstrap, rankTools } =
  await import('../dist/core/discover/index.js');
const { CHECKS } = await import('../dist/core/discover/checks/index.js');
const { seededRandom } = await import('../dist/core/session/tune.js');
const { loadBfcl, loadLiveMcpBench, loadMetaTool, loadServers111 } = await import('./helpers/datasets.mjs');
const { candidates, train } = await import('./helpers/listwise.mjs');
const { serverFolds } = await import('./helpers/folds.mjs');
const { rankMetrics } = await import('./helpers/rank-metrics.mjs');

const arg = (flag) => {
  const at = process.argv.indexOf(flag);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const K = Number(arg('--folds') ?? 5);
const checksArg = process.argv.includes('--checks') ? (arg('--checks') ?? '') : null;
const CHECK_STAGE = new Map(CHECKS.map((c) => [c.name, c.stage]));
const ablations =
  checksArg === null ? [] : checksArg && !checksArg.startsWith('--') ? checksArg.split(',') : [...CHECK_STAGE.keys()];
for (const a of ablations)
  if (!CHECK_STAGE.has(a)) throw new Error(`--checks: no check "${a}" (CHECKS: ${[...CHECK_STAGE.keys()].join(', ')})`);
const modelFiles = arg('--model')?.split(',') ?? [];
const tableFiles = arg('--vectors')?.split(',') ?? [];

const vectors = await loadWordVectors();
const meta = loadMetaTool();
const bfcl = loadBfcl();
const live = loadLiveMcpBench();
const s111 = loadServers111();
const intents = s111.cases;
const asked = loadServers111('servers-111-questions.jsonl').cases;
const told = loadServers111('servers-111-commands.jsonl').cases;
const lso = [...intents, ...asked, ...told];
const { fold, caseFold } = serverFolds([...new Set(s111.tools.map((t) => t.server))], lso, K);
const metaTrain = meta.tune.filter((_, i) => i % 3 === 0);
const byName = (t) => t.tool.name;
const byId = (t) => t.id;

const f3 = (x) => x.toFixed(3);
const sign = (x) => (x >= 0 ? '+' : '') + f3(x);
const mean = (xs) => xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length);
const interval = (a, b = a.map(() => 0)) => {
  const d = pairedBootstrap(a, b, seededRandom(1));
  return { mean: d.mean, low: d.low, high: d.high };
};
const shown = (d, signed = false) => `${signed ? sign(d.mean) : f3(d.mean)} [${f3(d.low)}, ${f3(d.high)}]`;

/** Ranked labels of each case under one re-ranker. */
function ranked(index, cases, key, model, disabledChecks = undefined) {
  return cases.map((c) =>
    rankMetrics(
      rankTools(index, c.intent, { engine: 'hybrid', k: 10, rerank: model, disabledChecks }).results.map((r) => key(r)),
      new Set(c.expected),
    ),
  );
}
const rId = (r) => r.id;
const rName = (r) => r.tool;

/** Per-fold models of a run: `fold f` → a model that never saw fold f's servers-111 intents. */
function foldModels(dev) {
  return Array.from({ length: K }, (_, f) => train(dev.filter((d) => d.fold !== f)));
}

/** Checks that act before the re-ranker: with one off, its features change, so it is trained again. */
const BEFORE_RERANK = new Set(CHECKS.filter((c) => c.stage === 'fused').map((c) => c.name));
/** The first run's indexes and re-rankers, for the runs whose switches act after the re-ranker only. */
let first = null;
const withDev = modelFiles.length > 0 || tableFiles.length > 0;

/**
 * One configuration (the checks in `off` turned off) with every measure's per-query figures: indexes built afresh
 * and the re-rankers trained again when a switch acts before the re-ranker (checks keep per-index caches), the
 * first run's otherwise; `extra` hands the re-rankers in; `table`, another word-vector table (fresh indexes). With
 * --model or --vectors, the development sets too (in-sample).
 */
function run(off, extra = null, table = undefined) {
  const disabled = off.length > 0 ? new Set(off) : undefined;
  const fresh = !first || table !== undefined || off.some((k) => BEFORE_RERANK.has(k));
  const v = table ?? vectors;
  const idx = fresh
    ? {
        s111: buildDiscoverIndex(s111.tools, { vectors: v }),
        meta: buildDiscoverIndex(meta.tools, { vectors: v }),
        bfcl: buildDiscoverIndex(bfcl.tools, { vectors: v }),
        live: buildDiscoverIndex(live.tools, { vectors: v }),
      }
    : first.idx;
  let { models, all } = extra ?? (fresh ? {} : first);
  if (!models) {
    const dev = [
      ...candidates(idx.meta, metaTrain, byName, { set: 'meta', fold: -1 }, disabled),
      ...candidates(idx.bfcl, bfcl.turns, byName, { set: 'bfcl', fold: -1 }, disabled),
      ...intents.map((c) => ({
        ...candidates(idx.s111, [c], byId, { set: 's111' }, disabled)[0],
        fold: caseFold(c),
      })),
    ];
    models = foldModels(dev);
    all = train(dev);
  }
  if (table === undefined) first ??= { idx, models, all };
  const out = { lso: [], metaTest: [], live: [], models, all };
  for (let f = 0; f < K; f++) {
    const cases = lso.filter((c) => caseFold(c) === f);
    ranked(idx.s111, cases, rId, models[f], disabled).forEach(
      (m, j) => (out.lso[lso.indexOf(cases[j])] = { ...m, fold: f }),
    );
  }
  out.metaTest = ranked(idx.meta, meta.test, rName, all, disabled);
  out.live = ranked(idx.live, live.cases, rName, all, disabled);
  if (withDev) {
    out.devMeta = ranked(idx.meta, metaTrain, rName, all, disabled);
    out.devBfcl = ranked(idx.bfcl, bfcl.turns, rName, all, disabled);
    out.devS111 = ranked(idx.s111, lso, rId, all, disabled);
  }
  return out;
}

const MEASURES = [
  ['leave-servers-out', 'lso'],
  ['MetaTool test', 'metaTest'],
  ['LiveMCPBench', 'live'],
];
// With --model: the development sets the shipped recipe trains on, scored by the model trained on all of them.
const DEV = [
  ['dev MetaTool tune/3', 'devMeta'],
  ['dev BFCL turns', 'devBfcl'],
  ['dev servers-111 ×3', 'devS111'],
];
function report(title, r) {
  console.log(`\n${title}`);
  for (const [name, key] of [...MEASURES, ...(r.devMeta ? DEV : [])]) {
    const rows = r[key];
    const folds =
      key === 'lso'
        ? `  (per fold hit@1: ${Array.from({ length: K }, (_, f) => f3(mean(rows.filter((x) => x.fold === f).map((x) => x.h1)))).join(' ')})`
        : '';
    console.log(
      `  ${name.padEnd(18)} n ${String(rows.length).padStart(5)}  hit@1 ${shown(interval(rows.map((x) => x.h1)))}  hit@5 ${shown(interval(rows.map((x) => x.h5)))}  MRR ${f3(mean(rows.map((x) => x.rr)))}${folds}`,
    );
  }
}
function deltas(r, base) {
  const out = {};
  for (const [, key] of [...MEASURES, ...(r.devMeta && base.devMeta ? DEV : [])])
    for (const m of ['h1', 'h5'])
      out[`${key}.${m}`] = interval(
        r[key].map((x) => x[m]),
        base[key].map((x) => x[m]),
      );
  return out;
}

console.log(`node ${process.version}; ${new Date().toISOString()}; ${K} folds by server`);
const foldSizes = Array.from({ length: K }, (_, f) => lso.filter((c) => caseFold(c) === f).length);
const foldServers = Array.from({ length: K }, (_, f) => [...fold.values()].filter((x) => x === f).length);
console.log(`  queries per fold ${foldSizes.join(' ')}; servers per fold ${foldServers.join(' ')}`);

const t0 = performance.now();
const base = run([]);
console.log(`  one configuration: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const shipped = JSON.parse(JSON.stringify(base.all.weights.map((w) => Math.round(w * 1e4) / 1e4)));
const { RERANK_MODEL } = await import('../dist/core/discover/rerank-model.js');
const same = RERANK_MODEL && shipped.every((w, j) => Math.abs(w - RERANK_MODEL.weights[j]) < 2e-4);
console.log(
  `  re-ranker trained on every development query ${same ? 'equals' : 'DIFFERS FROM'} the shipped one (4 places)`,
);
report('today: the re-ranker retrained by the shipped recipe (per fold for leave-servers-out)', base);
{
  // The held-out sets under the shipped weights (src/core/discover/rerank-model.ts, trained on an earlier tree).
  const asShipped = {
    metaTest: ranked(buildDiscoverIndex(meta.tools, { vectors }), meta.test, rName, undefined),
    live: ranked(buildDiscoverIndex(live.tools, { vectors }), live.cases, rName, undefined),
  };
  for (const [name, key] of MEASURES.slice(1)) {
    const rows = asShipped[key];
    console.log(
      `  ${name.padEnd(18)} shipped weights: hit@1 ${shown(interval(rows.map((x) => x.h1)))}  hit@5 ${shown(interval(rows.map((x) => x.h5)))}`,
    );
  }
}
const saved = { base };

for (const file of modelFiles) {
  const m = JSON.parse(readFileSync(file, 'utf8'));
  const r = run([], { models: m.folds ?? Array(K).fill(m.all), all: m.all });
  report(`--model ${file} (${m.about ?? ''})`, r);
  const d = deltas(r, base);
  for (const [k, v] of Object.entries(d)) console.log(`  Δ${k.padEnd(16)} ${shown(v, true)}`);
  saved[file] = r;
}

for (const file of tableFiles) {
  const r = run([], null, await loadWordVectors(file));
  report(`--vectors ${file}: indexes on this table, the re-rankers retrained on it by the shipped recipe`, r);
  const d = deltas(r, base);
  for (const [k, v] of Object.entries(d)) console.log(`  Δ${k.padEnd(16)} ${shown(v, true)}`);
  saved[file] = r;
}

if (ablations.length > 0) {
  // The rule: removable when turning it off lowers no measure (every Δ ≥ 0, its lower bound > −0.01).
  console.log('\nablation: each check off, Δ = off − on, paired 95 % intervals; REMOVE = every Δ ≥ 0 with low > −0.01');
  const head = MEASURES.flatMap(([n]) => [`${n} hit@1`, `hit@5`]);
  console.log(
    `  ${'check'.padEnd(17)} ${head.map((h) => h.padEnd(24)).join(' ')} verdict  (queries moved at hit@1/hit@5 up/down)`,
  );
  for (const key of ablations) {
    const r = run([key]);
    const d = deltas(r, base);
    const cells = Object.values(d).map((v) => shown(v, true).padEnd(24));
    const removable = Object.values(d).every((v) => v.mean >= 0 && v.low > -0.01);
    const moved = MEASURES.map(([, m]) =>
      ['h1', 'h5']
        .map((h) => {
          const up = r[m].filter((x, i) => x[h] > base[m][i][h]).length;
          const down = r[m].filter((x, i) => x[h] < base[m][i][h]).length;
          return `${up}/${down}`;
        })
        .join(' '),
    ).join(', ');
    console.log(`  ${key.padEnd(17)} ${cells.join(' ')} ${removable ? 'REMOVE' : 'keep'}  (${moved})`);
    saved[key] = r;
  }
}
if (arg('--save')) writeFileSync(arg('--save'), JSON.stringify(saved));
