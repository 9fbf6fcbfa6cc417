/**
 * A product the intent names: a word written with a capital inside the intent ("which Netlify sites…", "who follows
 * my LINE bot?", "open a PR on GitHub…") that is the first word of one or more servers' names (`netlify`,
 * `line-bot`, `github-archived`) names those servers. After the re-ranker, which sees a server only through its
 * share, the best candidates of the servers it does not name lose PRODUCT_SHARE of the best score (the `product`
 * reason of --explain): a user naming a product wants that product's tool, not another's that matches more words.
 * The intent's first word is not read (every sentence starts with a capital).
 */
import type { Check } from './check.js';
import type { DiscoverIndex } from '../build.js';
import { bestScore, shiftScores } from '../per-tool.js';

/**
 * Share of the best candidate's score a candidate of an unnamed server loses (chosen on the development sets among
 * 0.05, 0.1, 0.15, 0.2 and 0.3: bench/RESULTS.md, issue 29, "tools that act").
 */
export const PRODUCT_SHARE = 0.2;

/** Server names shorter than this first word name nothing ("mx-…", "k8"). */
const MIN_LENGTH = 3;

const firsts = new WeakMap<DiscoverIndex, Map<string, string[]>>();

/** The index's servers by the first word of their name, lower case (once per index). */
function serversByFirstWord(index: DiscoverIndex): Map<string, string[]> {
  let out = firsts.get(index);
  if (out) return out;
  out = new Map();
  for (const server of new Set(index.tools.map((t) => t.server))) {
    const first = /^[\p{L}\p{N}]+/u.exec(server.toLowerCase())?.[0] ?? '';
    if (first.length < MIN_LENGTH) continue;
    out.set(first, [...(out.get(first) ?? []), server]);
  }
  firsts.set(index, out);
  return out;
}

/** The servers an intent names by a capitalised word past its first (none when it names none). */
export function namedProducts(index: DiscoverIndex, intent: string): Set<string> {
  const named = new Set<string>();
  // No capital past the first letter (most commands): no product named.
  if (!/\p{Lu}/u.test(intent.slice(1))) return named;
  const byFirst = serversByFirstWord(index);
  let k = 0;
  for (const m of intent.matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0];
    if (k++ > 0 && /^\p{Lu}/u.test(w)) for (const s of byFirst.get(w.toLowerCase()) ?? []) named.add(s);
  }
  return named;
}

/** Lowers `scores` of the candidates of servers the intent does not name, when it names one; returns each loss. */
export function productConflicts(
  index: DiscoverIndex,
  intent: string,
  scores: Float32Array,
  /** The best candidates, best first (asked for only when the intent names a product: topK costs a pass). */
  candidates: () => readonly number[],
): Map<number, number> | null {
  const named = namedProducts(index, intent);
  if (named.size === 0) return null;
  const cands = candidates();
  const top = bestScore(scores, cands);
  if (!(top > 0)) return null;
  return shiftScores(scores, cands, -PRODUCT_SHARE * top, (i) => (named.has(index.tools[i]!.server) ? 0 : 1));
}

export const namedProductCheck: Check = {
  name: 'named-product',
  reason: 'product',
  doc: 'when a word written with a capital past the intent\'s first is the first word of server names ("GitHub", "which Netlify sites…"), the tools of the other servers lose 20 % of the best score',
  stage: 'reranked',
  pool: 'best',
  reads: ['server'],
  applies: () => true,
  shift: (c, pool) => productConflicts(c.index, c.intent.raw, c.scores, pool),
};
