/**
 * Server-level relevance (hierarchical retrieval, as in MCP-Zero and LiveMCPBench's MCP Copilot): a task usually
 * needs several tools of one server, so each server is scored as a whole and every tool gains a share of its
 * server's score. The scores come from the tool-level signals already computed for the query, so there is no
 * index to build or cache. With one server every tool gets the same share and the order is unchanged.
 */
import type { Bm25Index } from './bm25.js';

/** Tool → server number (servers numbered in order of first appearance) and the number of servers. */
export function groupServers(servers: readonly string[]): { of: Int32Array; count: number } {
  const numberOf = new Map<string, number>();
  const of = new Int32Array(servers.length);
  servers.forEach((s, i) => {
    let n = numberOf.get(s);
    if (n === undefined) numberOf.set(s, (n = numberOf.size));
    of[i] = n;
  });
  return { of, count: numberOf.size };
}

/** Tools that may vote for their server (patterns' exclude and allow-list); every tool when absent. */
type Keep = ((doc: number) => boolean) | undefined;

/**
 * The lexical part of each server's score: per query term, the best BM25 contribution among the server's tools,
 * summed over terms (so a server whose tools together cover the intent scores high), over the best server's (0–1).
 */
export function serverLexicalScores(
  bmIndex: Bm25Index,
  terms: string[],
  of: Int32Array,
  count: number,
  keep?: Keep,
  /** Each term's weight (Bm25Query); 1 when absent. */
  weights?: readonly number[],
): Float32Array {
  const lex = new Float32Array(count);
  const best = new Float32Array(count);
  const touched: number[] = [];
  for (let k = 0; k < terms.length; k++) {
    const p = bmIndex.postings.get(terms[k]!);
    if (!p) continue;
    const w = weights ? weights[k]! : 1;
    if (!keep) {
      // Every tool votes: the term's best contribution per server, kept with its postings (the same additions).
      const t = termBest(p, of, count);
      for (let j = 0; j < t.servers.length; j++) {
        const s = t.servers[j]!;
        lex[s] = lex[s]! + w * t.best[j]!;
      }
      continue;
    }
    groupBest(p, of, best, touched, keep);
    for (const s of touched) {
      lex[s] = lex[s]! + w * best[s]!;
      best[s] = 0;
    }
    touched.length = 0;
  }
  let max = 0;
  for (let s = 0; s < count; s++) if (lex[s]! > max) max = lex[s]!;
  if (max > 0) for (let s = 0; s < count; s++) lex[s] = lex[s]! / max;
  return lex;
}

type Posting = { docs: Int32Array; contrib: Float32Array };

/**
 * Each server's best contribution to posting list `p` (of the tools `keep` keeps) into `best`, and into `touched` the
 * servers in the order their postings come; a server whose best is still 0 is listed again at its next posting.
 */
function groupBest(p: Posting, of: Int32Array, best: Float32Array, touched: number[], keep?: Keep): void {
  for (let j = 0; j < p.docs.length; j++) {
    if (keep && !keep(p.docs[j]!)) continue;
    const s = of[p.docs[j]!]!;
    const c = p.contrib[j]!;
    if (best[s] === 0) touched.push(s);
    if (c > best[s]!) best[s] = c;
  }
}

/** A term's servers (in order of their first posting, each once) and each one's best contribution to it. */
interface TermBest {
  of: Int32Array;
  servers: Int32Array;
  best: Float32Array;
}
/** Per posting list (they never change once built), for the grouping it was made with. */
const termBests = new WeakMap<Posting, TermBest>();

/**
 * serverLexicalScores' per-term pass without a filter, made once per term: the servers in the order that pass
 * touches them and their best contributions, so the scores are added in the same order. A server whose best is 0
 * is listed once per posting it had before a positive one (adding 0 changes no sum, as in that pass).
 */
function termBest(p: Posting, of: Int32Array, count: number): TermBest {
  const known = termBests.get(p);
  if (known?.of === of) return known;
  const best = new Float32Array(count);
  const touched: number[] = [];
  groupBest(p, of, best, touched);
  // As that pass adds them: a server's best at its first listing, 0 at a later one (its best was reset then).
  const bestOf = new Float32Array(touched.length);
  touched.forEach((s, j) => {
    bestOf[j] = best[s]!;
    best[s] = 0;
  });
  const t: TermBest = { of, servers: Int32Array.from(touched), best: bestOf };
  termBests.set(p, t);
  return t;
}

/** The semantic part: each server's best tool cosine, min–max scaled over the voting tools (0–1; 0 without a voter). */
export function serverSemanticScores(sem: Float32Array, of: Int32Array, count: number, keep?: Keep): Float32Array {
  const top = new Float32Array(count).fill(-Infinity);
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < sem.length; i++) {
    if (keep && !keep(i)) continue;
    const v = sem[i]!;
    if (v > top[of[i]!]!) top[of[i]!] = v;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const out = new Float32Array(count);
  if (hi > lo) for (let s = 0; s < count; s++) if (top[s]! > -Infinity) out[s] = (top[s]! - lo) / (hi - lo);
  return out;
}

/** Each server's score: `weights.bm25 ×` its lexical part `+ weights.semantic ×` its semantic part. */
export function combineServerScores(
  lex: Float32Array,
  sem: Float32Array | null,
  weights: { bm25: number; semantic: number },
): Float32Array {
  const out = new Float32Array(lex.length);
  for (let s = 0; s < lex.length; s++) out[s] = weights.bm25 * lex[s]! + (sem ? weights.semantic * sem[s]! : 0);
  return out;
}

/** Server scores from the tool-level signals, with no index of their own (both parts above, weighted); zeros with one server. */
export function deriveServerScores(
  bmIndex: Bm25Index,
  terms: string[],
  sem: Float32Array | null,
  of: Int32Array,
  count: number,
  weights: { bm25: number; semantic: number },
  keep?: Keep,
): Float32Array {
  if (count < 2) return new Float32Array(count);
  return combineServerScores(
    serverLexicalScores(bmIndex, terms, of, count, keep),
    sem ? serverSemanticScores(sem, of, count, keep) : null,
    weights,
  );
}
