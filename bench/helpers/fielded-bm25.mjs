// The baseline of issue 16: a plain fielded BM25 as one would write it in 30 lines. Name words (split at
// camelCase, snake_case and punctuation) count three times; then the description, the parameter names and
// descriptions and the server name; English stop words removed, no stemming; k1 = 1.2, b = 0.75.
import { STOP_WORDS } from '../../dist/core/discover/tokenize.js';

const words = (t) =>
  (
    String(t ?? '')
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).filter((w) => !STOP_WORDS.has(w));

function paramText(schema) {
  const props = schema && typeof schema === 'object' ? schema.properties : undefined;
  if (!props || typeof props !== 'object') return '';
  return Object.entries(props)
    .map(
      ([name, p]) => `${name} ${p && typeof p === 'object' && typeof p.description === 'string' ? p.description : ''}`,
    )
    .join(' ');
}

export function buildFieldedBm25(tools, k1 = 1.2, b = 0.75) {
  const docs = tools.map((t) => {
    const name = words(t.tool.name);
    return [
      ...name,
      ...name,
      ...name,
      ...words(t.tool.description),
      ...words(paramText(t.tool.inputSchema)),
      ...words(t.server),
    ];
  });
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
    const q = [...new Set(words(query))];
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
    return scored.slice(0, k).map(([, i]) => tools[i]);
  };
}
