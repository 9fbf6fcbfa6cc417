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

/**
 * Server scores derived from the tool-level signals, with no index of their own: per query term, the best BM25
 * contribution among the server's tools, summed over terms (so a server whose tools together cover the intent
 * scores high), over the best server's; plus the best min–max scaled tool cosine of the server.
 */
export function deriveServerScores(
  bmIndex: Bm25Index,
  terms: string[],
  sem: Float32Array | null,
  of: Int32Array,
  count: number,
  weights: { bm25: number; semantic: number },
  /** Tools that may vote for their server (patterns' exclude and allow-list); every tool when absent. */
  keep?: (doc: number) => boolean,
): Float32Array {
  const out = new Float32Array(count);
  if (count < 2) return out;
  const lex = new Float32Array(count);
  const best = new Float32Array(count);
  const touched: number[] = [];
  for (const t of terms) {
    const p = bmIndex.postings.get(t);
    if (!p) continue;
    for (let j = 0; j < p.docs.length; j++) {
      if (keep && !keep(p.docs[j]!)) continue;
      const s = of[p.docs[j]!]!;
      const c = p.contrib[j]!;
      if (best[s] === 0) touched.push(s);
      if (c > best[s]!) best[s] = c;
    }
    for (const s of touched) {
      lex[s] = lex[s]! + best[s]!;
      best[s] = 0;
    }
    touched.length = 0;
  }
  let lexMax = 0;
  for (let s = 0; s < count; s++) if (lex[s]! > lexMax) lexMax = lex[s]!;
  if (lexMax > 0) for (let s = 0; s < count; s++) out[s] = (weights.bm25 * lex[s]!) / lexMax;
  if (sem) {
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
    if (hi > lo) for (let s = 0; s < count; s++) if (top[s]! > -Infinity) out[s] = out[s]! + (weights.semantic * (top[s]! - lo)) / (hi - lo);
  }
  return out;
}
