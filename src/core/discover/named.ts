/**
 * A server named through a word WordNet derives from the intent's ("remember" → memory): the user names the
 * product as surely as by its name, so the derived term weighs as a literal word (1, not RELATED_WEIGHT). Only a
 * term that is a whole server name counts ("memory", not "memory-bank"'s parts): a derivation that happens to be
 * one word of a longer product name says nothing about that product.
 */
import type { Bm25Query } from './bm25.js';
import type { DiscoverIndex } from './build.js';
import { analyzeWords, splitWords } from './tokenize.js';

const names = new WeakMap<DiscoverIndex, Set<string>>();

/** The analysed names of the index's servers that are one term each, computed once per index. */
function serverTerms(index: DiscoverIndex): Set<string> {
  let out = names.get(index);
  if (out) return out;
  out = new Set();
  for (const server of new Set(index.tools.map((t) => t.server))) {
    const terms = analyzeWords(splitWords(server), [], index.unstemmed);
    if (terms.length === 1) out.add(terms[0]!);
  }
  names.set(index, out);
  return out;
}

/**
 * The query with its WordNet-related terms (the last `query.related`) that name a server weighing 1; the terms
 * raised (for --explain's `named` reason). The query itself when none does.
 */
export function namedServers(index: DiscoverIndex, query: Bm25Query): { query: Bm25Query; named: string[] } {
  if (query.related === 0) return { query, named: [] };
  const servers = serverTerms(index);
  const start = query.terms.length - query.related;
  const named: string[] = [];
  let weights: number[] | null = null;
  for (let k = start; k < query.terms.length; k++) {
    if (!servers.has(query.terms[k]!)) continue;
    weights ??= [...query.weights];
    weights[k] = 1;
    named.push(query.terms[k]!);
  }
  return weights ? { query: { ...query, weights }, named } : { query, named: [] };
}
