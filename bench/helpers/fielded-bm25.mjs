// The baseline of issue 16: a plain fielded BM25 as one would write it in 30 lines. Name words (split at
// camelCase, snake_case and punctuation) count three times; then the description, the parameter names and
// descriptions and the server name; English stop words removed, no stemming; k1 = 1.2, b = 0.75.
import { STOP_WORDS } from '../../dist/core/discover/tokenize.js';
import { bm25Ranker } from './plain-bm25.mjs';

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
  return bm25Ranker(docs, tools, (query) => [...new Set(words(query))], k1, b);
}
