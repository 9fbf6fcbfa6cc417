// The baseline: plain BM25 over name + description as one field, k1 = 1.2, b = 0.75, English stop words
// removed, no stemming, no identifier splitting beyond punctuation (what an off-the-shelf BM25 does).
import { STOP_WORDS } from '../../dist/core/discover/tokenize.js';

const tokens = (t) =>
  (
    String(t ?? '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).filter((w) => !STOP_WORDS.has(w));

export function buildPlainBm25(tools, k1 = 1.2, b = 0.75) {
  return bm25Ranker(
    tools.map((t) => tokens(`${t.tool.name} ${t.tool.description ?? ''}`)),
    tools,
    tokens,
    k1,
    b,
  );
}

/** Okapi BM25 over documents already split into words: (query, k) → the k best items, ties by position. */
export function bm25Ranker(docs, items, queryWords, k1, b) {
  const avg = docs.reduce((a, d) => a + d.length, 0) / Math.max(1, docs.length);
  const df = new Map();
  const tfs = docs.map((d) => {
    const tf = new Map();
    for (const w of d) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const w of tf.keys()) df.set(w, (df.get(w) ?? 0) + 1);
    return tf;
  });
  const n = docs.length;
  const idf = (w) => Math.log(1 + (n - (df.get(w) ?? 0) + 0.5) / ((df.get(w) ?? 0) + 0.5));
  return (query, k) => {
    const q = queryWords(query);
    const scored = [];
    tfs.forEach((tf, i) => {
      let s = 0;
      for (const w of q) {
        const f = tf.get(w);
        if (f) s += (idf(w) * f * (k1 + 1)) / (f + k1 * (1 - b + (b * docs[i].length) / avg));
      }
      if (s > 0) scored.push([s, i]);
    });
    scored.sort((x, y) => y[0] - x[0] || x[1] - y[1]);
    return scored.slice(0, k).map(([, i]) => items[i]);
  };
}
