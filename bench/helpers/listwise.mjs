// The re-ranker's training as scripts/train-reranker.mjs does it (listwise softmax over one intent's candidates,
// every set weighing the same, gradient descent with L2), for bench/generalise.mjs and scripts/train-pseudo.mjs:
// the first stage's candidates and features of each case, and a linear model over them.
import { rankTools } from '../../dist/core/discover/index.js';
import { RERANK_DEPTH, RERANK_FEATURES } from '../../dist/core/discover/rerank.js';

/**
 * The first stage's candidates of each case with their features and 0/1 labels (a candidate is relevant when its
 * label, `key(tool ref)`, is expected). `extra` is copied onto each item (its set, its fold); `disabledChecks` is
 * handed to rankTools (a check after fusion turned off changes the candidates and their features).
 */
export function candidates(index, cases, key, extra = {}, disabledChecks = undefined) {
  const label = new Map(index.tools.map((t) => [t.id, key(t)]));
  return cases.map((c) => {
    let ids = [];
    let feats = [];
    rankTools(index, c.intent, {
      engine: 'hybrid',
      k: 1,
      rerank: { features: [], weights: [], depth: RERANK_DEPTH },
      onCandidates: (i, f) => ((ids = i), (feats = f)),
      ...(disabledChecks ? { disabledChecks } : {}),
    });
    const expected = new Set(c.expected);
    return { ...extra, feats, labels: ids.map((id) => (expected.has(label.get(id)) ? 1 : 0)) };
  });
}

/** Listwise training of every feature's weight; `items` from candidates(), each with a `set`. */
export function train(items, { epochs = 150, lr = 1, l2 = 1e-3 } = {}) {
  const dims = RERANK_FEATURES.length;
  const w = new Float64Array(dims);
  const useful = items.filter((d) => d.labels.some((l) => l === 1) && d.labels.length > 1);
  const per = new Map();
  for (const d of useful) per.set(d.set, (per.get(d.set) ?? 0) + 1);
  const wOf = (d) => useful.length / (per.size * per.get(d.set));
  const s = new Float64Array(RERANK_DEPTH * 4);
  for (let epoch = 0; epoch < epochs; epoch++) {
    const g = new Float64Array(dims);
    for (const d of useful) {
      let m = -Infinity;
      d.feats.forEach((x, k) => {
        let v = 0;
        for (let j = 0; j < dims; j++) v += w[j] * x[j];
        s[k] = v;
        if (v > m) m = v;
      });
      let z = 0;
      for (let k = 0; k < d.feats.length; k++) z += s[k] = Math.exp(s[k] - m);
      const pos = d.labels.reduce((a, l) => a + l, 0);
      const wd = wOf(d);
      d.feats.forEach((x, k) => {
        const coef = wd * (s[k] / z - d.labels[k] / pos);
        for (let j = 0; j < dims; j++) g[j] += coef * x[j];
      });
    }
    for (let j = 0; j < dims; j++) w[j] -= lr * (g[j] / useful.length + l2 * w[j]);
  }
  return { features: [...RERANK_FEATURES], weights: Array.from(w), depth: RERANK_DEPTH, mode: 'order' };
}
