// Trains discover's second stage (src/core/discover/rerank.ts) on the development sets and writes its weights to
// src/core/discover/rerank-model.ts. Run after `npm run build`:
//   node scripts/train-reranker.mjs [--depth n] [--first] [--features all|a,b,…] [--with-live] [--write]
//
// Development sets (../shared/data and bench/data): MetaTool's tuning split (every 3rd query), BFCL multi-turn
// turns and the servers-111 intents written for development (labels are ids there: tool names repeat across its
// servers). Nothing of MetaTool's held-out split is read, and LiveMCPBench is never trained on: the model trained
// on every development query is only scored on it (--with-live adds it to the cross-validated sets). The model is
// a linear scorer over the first stage's top candidates, trained listwise (softmax over one intent's candidates,
// every set weighing the same, L2). The figures printed are held out twice over: by 5-fold cross-validation (each
// query scored by a model trained on the other folds), and set by set, each set scored by a model trained on the
// other sets only (what a catalogue the model never saw gets). Without --features, each feature is dropped in turn
// and one whose removal does not lower the pooled held-out MRR is left out (a choice made on the held-out figures
// themselves: `--features all` chooses nothing). --first: the model only chooses the first tool (the others keep the first stage's order); without it the
// model orders every candidate (what ships).
// With --write the features are trained on every query and written; without it, nothing is written.
//
// The shipped model came from (see README, "Discover engines"):
//   node scripts/train-reranker.mjs --features all --write
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDiscoverIndex, loadWordVectors, rankTools } from '../dist/core/discover/index.js';
import { RERANK_DEPTH, RERANK_FEATURES, rerankOrder } from '../dist/core/discover/rerank.js';
import { REPO, loadBfcl, loadLiveMcpBench, loadMetaTool, loadServers111 } from '../bench/helpers/datasets.mjs';
import { buildFieldedBm25 } from '../bench/helpers/fielded-bm25.mjs';
import { pairedDelta, rankMetrics } from '../bench/helpers/rank-metrics.mjs';

const FOLDS = 5;
const write = process.argv.includes('--write');
const withLive = process.argv.includes('--with-live');
const arg = (flag) => {
  const at = process.argv.indexOf(flag);
  return at > 0 ? process.argv[at + 1] : undefined;
};
// --depth n: candidates reordered (default RERANK_DEPTH); --features a,b: no ablation, these features only.
const depth = Number(arg('--depth') ?? RERANK_DEPTH);
const given = arg('--features') === 'all' ? [...RERANK_FEATURES] : arg('--features')?.split(',');
const first = process.argv.includes('--first');
const vectors = await loadWordVectors();

/** Every case of a set with the first stage's candidates, features and labels, and the baselines' rankings. */
function prepare(name, tools, cases, byId = false) {
  const index = buildDiscoverIndex(tools, { vectors });
  const fielded = buildFieldedBm25(tools);
  const nameOf = new Map(tools.map((t) => [t.id, byId ? t.id : t.tool.name]));
  return cases.map((c, n) => {
    let ids = [];
    let feats = [];
    const hybrid = rankTools(index, c.intent, {
      engine: 'hybrid',
      k: 30,
      // A model without features keeps the first stage's order; it sets how many candidates are collected.
      rerank: { features: [], weights: [], depth },
      onCandidates: (i, f) => ((ids = i), (feats = f)),
    }).results.map((r) => (byId ? r.id : r.tool));
    const expected = new Set(c.expected);
    return {
      set: name,
      fold: n % FOLDS,
      expected,
      names: ids.map((id) => nameOf.get(id)),
      feats,
      labels: ids.map((id) => (expected.has(nameOf.get(id)) ? 1 : 0)),
      hybrid,
      fielded: fielded(c.intent, 30).map((t) => (byId ? t.id : t.tool.name)),
    };
  });
}

const meta = loadMetaTool();
const bfcl = loadBfcl();
const live = loadLiveMcpBench();
const s111 = loadServers111();
const data = [
  ...prepare(
    'MetaTool tuning split (every 3rd)',
    meta.tools,
    meta.tune.filter((_, i) => i % 3 === 0),
  ),
  ...prepare('BFCL multi-turn turns', bfcl.tools, bfcl.turns),
  ...prepare('servers-111 intents (written for development)', s111.tools, s111.cases, true),
  // --with-live: LiveMCPBench joins the cross-validated sets (then it is no longer a set never trained on).
  ...(withLive ? prepare('LiveMCPBench', live.tools, live.cases) : []),
];
const heldOut = withLive ? [] : prepare('LiveMCPBench (never trained on)', live.tools, live.cases);
const sets = [...new Set(data.map((d) => d.set))];

/** Listwise training: softmax cross-entropy of each query's candidates, sets weighed alike, gradient descent with L2. */
function train(items, use) {
  const w = new Float64Array(use.length);
  const lr = 1;
  const l2 = 1e-3;
  const useful = items.filter((d) => d.labels.some((l) => l === 1) && d.labels.length > 1);
  // Every set weighs the same in the loss, whatever its size: MetaTool's 2,070 queries would otherwise teach its
  // own catalogue's habits (held out per set, balancing gained on BFCL, servers-111 and LiveMCPBench).
  const per = new Map();
  for (const d of useful) per.set(d.set, (per.get(d.set) ?? 0) + 1);
  const wOf = (d) => useful.length / (per.size * per.get(d.set));
  for (let epoch = 0; epoch < 150; epoch++) {
    const g = new Float64Array(use.length);
    for (const d of useful) {
      const s = d.feats.map((x) => {
        let v = 0;
        for (let j = 0; j < use.length; j++) v += w[j] * x[use[j]];
        return v;
      });
      const m = Math.max(...s);
      const e = s.map((v) => Math.exp(v - m));
      const z = e.reduce((a, v) => a + v, 0);
      const pos = d.labels.reduce((a, l) => a + l, 0);
      const wd = wOf(d);
      d.feats.forEach((x, k) => {
        const coef = wd * (e[k] / z - d.labels[k] / pos);
        for (let j = 0; j < use.length; j++) g[j] += coef * x[use[j]];
      });
    }
    for (let j = 0; j < w.length; j++) w[j] -= lr * (g[j] / useful.length + l2 * w[j]);
  }
  return Array.from(w);
}

/** The ranked names of one case under a model: its candidates reordered, then the rest of the hybrid list. */
function reorder(d, use, w) {
  // No candidates: the engine did not run the second stage for this intent (a multi-step one).
  if (d.names.length === 0) return d.hybrid;
  const s = d.feats.map((x) => use.reduce((a, f, j) => a + w[j] * x[f], 0));
  const mode = first ? 'first' : 'order';
  const top = rerankOrder({ features: [], weights: [], mode }, s).map((j) => d.names[j]);
  return [...top, ...d.hybrid.filter((n) => !top.includes(n))];
}

const score = (d, names) => rankMetrics(names, d.expected);

/** Held-out rankings of every case by cross-validation, for the features `use` (indexes into RERANK_FEATURES). */
function crossValidate(use) {
  const out = new Array(data.length);
  for (let f = 0; f < FOLDS; f++) {
    const w = train(
      data.filter((d) => d.fold !== f),
      use,
    );
    data.forEach((d, i) => {
      if (d.fold === f) out[i] = score(d, reorder(d, use, w));
    });
  }
  return out;
}

const mean = (xs) => xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length);
const all = RERANK_FEATURES.map((_, j) => j);
const full = crossValidate(all);
const pooledMrr = (r) => mean(r.map((x) => x.rr));
console.log(`features: ${RERANK_FEATURES.join(', ')}; depth ${depth}; ${FOLDS}-fold CV`);
console.log(`all features: held-out MRR ${pooledMrr(full).toFixed(4)} (pooled over ${data.length} queries)`);
const kept = given ? given.map((f) => RERANK_FEATURES.indexOf(f)) : [];
if (given && kept.includes(-1)) throw new Error(`unknown feature in --features: ${given.join(',')}`);
for (const j of given ? [] : all) {
  const without = crossValidate(all.filter((x) => x !== j));
  const delta = pooledMrr(full) - pooledMrr(without);
  const keep = delta > 0;
  if (keep) kept.push(j);
  console.log(
    `  without ${RERANK_FEATURES[j].padEnd(20)} MRR ${pooledMrr(without).toFixed(4)} (${keep ? 'kept' : 'left out'})`,
  );
}
const final = crossValidate(kept);

const f3 = (x) => x.toFixed(3);
const interval = pairedDelta;
console.log(`\nheld-out (CV) with the kept features: ${kept.map((j) => RERANK_FEATURES[j]).join(', ')}`);
for (const set of [...sets, 'all sets pooled']) {
  const idx = data.map((d, i) => i).filter((i) => set === 'all sets pooled' || data[i].set === set);
  const rows = {
    'fielded BM25': idx.map((i) => score(data[i], data[i].fielded)),
    hybrid: idx.map((i) => score(data[i], data[i].hybrid)),
    'hybrid+rerank': idx.map((i) => final[i]),
  };
  console.log(`\n${set}: ${idx.length} held-out queries`);
  for (const [name, r] of Object.entries(rows)) {
    const line = `  ${name.padEnd(14)} hit@1 ${f3(mean(r.map((x) => x.h1)))}  hit@5 ${f3(mean(r.map((x) => x.h5)))}  MRR ${f3(mean(r.map((x) => x.rr)))}`;
    const vs = (base, label) =>
      `  vs ${label}: Δhit@1 ${interval(
        r.map((x) => x.h1),
        base.map((x) => x.h1),
      )}  Δhit@5 ${interval(
        r.map((x) => x.h5),
        base.map((x) => x.h5),
      )}  ΔMRR ${interval(
        r.map((x) => x.rr),
        base.map((x) => x.rr),
      )}`;
    console.log(line);
    if (name === 'hybrid+rerank') {
      console.log(vs(rows.hybrid, 'hybrid'));
      console.log(vs(rows['fielded BM25'], 'fielded BM25'));
    }
  }
}

// Leave one set out: each set scored by a model trained on the other sets only (what an unseen catalogue gets).
{
  const every = [...data, ...heldOut];
  console.log(`\nleave one set out (each set scored by a model trained on the others):`);
  for (const set of [...new Set(every.map((d) => d.set))]) {
    const w = train(
      every.filter((d) => d.set !== set),
      kept,
    );
    const idx = every.filter((d) => d.set === set);
    const a = idx.map((d) => score(d, reorder(d, kept, w)));
    const b = idx.map((d) => score(d, d.hybrid));
    const at = (r, k) => r.map((x) => x[k]);
    console.log(
      `  ${set}: ${idx.length} queries, hit@1 ${f3(mean(at(b, 'h1')))} → ${f3(mean(at(a, 'h1')))}, Δ ${interval(at(a, 'h1'), at(b, 'h1'))}; Δhit@5 ${interval(at(a, 'h5'), at(b, 'h5'))}; ΔMRR ${interval(at(a, 'rr'), at(b, 'rr'))}`,
    );
  }
}

// LiveMCPBench: scored by the model trained on every development query, never trained on.
const shipped = train(data, kept);
if (heldOut.length > 0) {
  const rows = {
    'fielded BM25': heldOut.map((d) => score(d, d.fielded)),
    hybrid: heldOut.map((d) => score(d, d.hybrid)),
    'hybrid+rerank': heldOut.map((d) => score(d, reorder(d, kept, shipped))),
  };
  console.log(`\n${heldOut[0]?.set}: ${heldOut.length} queries, the model trained on every development query`);
  for (const [name, r] of Object.entries(rows))
    console.log(
      `  ${name.padEnd(14)} hit@1 ${f3(mean(r.map((x) => x.h1)))}  hit@5 ${f3(mean(r.map((x) => x.h5)))}  MRR ${f3(mean(r.map((x) => x.rr)))}`,
    );
  console.log(
    `  rerank vs hybrid: Δhit@1 ${interval(
      rows['hybrid+rerank'].map((x) => x.h1),
      rows.hybrid.map((x) => x.h1),
    )}`,
  );
}

if (write) {
  const w = shipped;
  const model = {
    features: kept.map((j) => RERANK_FEATURES[j]),
    weights: w.map((x) => Math.round(x * 1e4) / 1e4),
    depth,
    mode: first ? 'first' : 'order',
  };
  const file = join(REPO, 'src', 'core', 'discover', 'rerank-model.ts');
  writeFileSync(
    file,
    `/** Written by scripts/train-reranker.mjs (${data.length} development queries): do not edit by hand. */\n` +
      `import type { RerankModel } from './rerank.js';\n\n` +
      `export const RERANK_MODEL: RerankModel | false = ${JSON.stringify(model)};\n`,
  );
  console.log(`\nwrote ${file}: ${JSON.stringify(model)}`);
}
