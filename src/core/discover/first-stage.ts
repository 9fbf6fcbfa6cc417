/**
 * The first stage of a ranking: the query read from the intent and each signal's scores (signals.ts), and for the
 * hybrid their fusion (fusion.ts) with the usage prior, the clauses of a task of several steps, the server shares
 * and the remembered intents.
 */
import type { UsageStats } from '../types.js';
import { bm25For, type DiscoverIndex } from './build.js';
import { bm25Query, type Bm25Index, type Bm25Query } from './bm25.js';
import { RRF_K, fuseHybrid, type FusionMethod, type fuse } from './fusion.js';
import type { Intent } from './intent.js';
import { joinedWords } from './joined.js';
import { namedServers, readingNotes } from './named.js';
import { rememberedMatch, type RememberedMatch } from './remembered.js';
import { multiStep, serverSignals, signals, usagePriors, type Signals } from './signals.js';
import { mutedState } from './state.js';
import { detectTaskContext } from './usage.js';
import type { HybridWeights } from './weights.js';

/** What the bm25, semantic and hybrid engines share: the query read from the intent, bm25 and cosine scores. */
export interface QuerySignals extends Signals {
  bmIndex: Bm25Index;
  query: Bm25Query;
  /** The text ranked without its payload (Intent.plain): the re-ranker's word-vector features read it. */
  plain: string;
  /** The intent's own terms (the re-ranker's). */
  terms: string[];
  /** What a tool's match shows: the intent's own terms less those it weighs 0 (the kept clause's). */
  shown: string[];
  /** How the intent was read (Ranking.reading). */
  reading: string[];
}

/** The query an intent's text makes and its bm25 and cosine scores (the engine decides which are computed). */
export function querySignals(
  index: DiscoverIndex,
  intent: Intent,
  engine: 'bm25' | 'semantic' | 'hybrid',
  weights: HybridWeights,
  queryVector: Float32Array | undefined,
  /** Arrays of n floats for the bm25 and cosine scores (any content: they are cleared), or new ones. */
  into?: { bm: Float32Array; sem: Float32Array },
): QuerySignals {
  const { text, mood } = intent;
  const bmIndex = bm25For(index, weights);
  const derived = namedServers(index, bm25Query(text, index.unstemmed, intent));
  // Adjacent words the catalogue writes as one ("To Do" → todo; joined.ts).
  const { query: joinedQuery, joined } = joinedWords(index, bmIndex, derived.query, intent.plain, index.unstemmed);
  // The state a listing question filters by ("which monitors are alerting") weighs less than what it lists.
  const query = mutedState(joinedQuery, text, mood.state, index.unstemmed);
  const reading = readingNotes(intent, derived.named, joined, derived.query.expansions);
  const terms = query.literal;
  const shown = terms.filter((_, k) => query.weights[k] !== 0);
  return {
    bmIndex,
    query,
    plain: intent.plain,
    terms,
    shown,
    reading,
    ...signals(index, bmIndex, query, text, engine, queryVector, intent, into),
  };
}

export interface FuseOptions {
  usage?: UsageStats;
  now?: number;
  fusion?: FusionMethod;
  queryVector?: Float32Array;
}

/** The hybrid's first stage, fused. */
export interface Fused {
  /** A signal matched (without one every allowed tool is offered as a fallback). */
  any: boolean;
  parts: ReturnType<typeof fuse>;
  /** The server shares (they order tools, but do not by themselves make a tool match), or null. */
  server: Float32Array | null;
  memory: RememberedMatch | null;
  /** How many clauses were ranked on their own (fewer than 2: none). */
  steps: number;
  /** Each signal's contribution to a tool's score (--explain). */
  explain: (i: number) => Record<string, number>;
}

/**
 * The hybrid score of every tool into `scores`. `keep` is the pattern stage's filter when there is one: excluded
 * tools do not vote for their server.
 */
export function fuseSignals(
  index: DiscoverIndex,
  intent: Intent,
  s: QuerySignals,
  opts: FuseOptions,
  weights: HybridWeights,
  buffers: { prior: Float32Array; shares: Float32Array },
  allowed: (i: number) => boolean,
  keep: ((i: number) => boolean) | undefined,
  scores: Float32Array,
): Fused {
  const { bm, sem, bmHit, q } = s;
  const ctx = detectTaskContext(intent.raw);
  const prior = usagePriors(index, opts.usage, ctx.type, weights.usage, opts.now, buffers.prior.fill(0));
  const memory = weights.fusion.intents > 0 ? rememberedMatch(index, opts.usage, intent.raw) : null;
  const any = bmHit || q !== null || memory?.any === true;
  // Multi-step intents (long task texts): each clause is also ranked on its own. A tool's cosine is mixed with its
  // best per-clause cosine, and it gains its best per-clause hybrid score (relative to that clause's best tool), so
  // the tool of every step can reach the top (bench/discover.mjs, multi-intent set).
  const cw = { semantic: weights.fusion.clauseSemantic, hybrid: weights.fusion.clauses };
  const clauses = any && (cw.semantic > 0 || cw.hybrid > 0) && !opts.queryVector && index.vectors ? intent.clauses : [];
  let clause: Float32Array | null = null;
  if (clauses.length >= 2) {
    const m = multiStep(index, s.bmIndex, clauses, bm, sem, weights, s.bmTop);
    if (q && cw.semantic > 0) {
      for (let j = 0; j < m.docs.length; j++) {
        const i = m.docs[j]!;
        if (m.semBest[i]! > -Infinity) sem[i] = (1 - cw.semantic) * sem[i]! + cw.semantic * m.semBest[i]!;
      }
    }
    if (cw.hybrid > 0) clause = m.hybridBest;
  }
  const servers =
    any && weights.fusion.server > 0 ? serverSignals(index, s.bmIndex, s.query, q ? sem : null, keep) : null;
  const { parts, server } = fuseHybrid(
    { bm: bmHit ? bm : null, sem: q ? sem : null, prior, clause, servers, remembered: memory?.scores ?? null },
    weights,
    opts.fusion ?? 'sum',
    allowed,
    scores,
    buffers.shares,
  );
  const intentWeight = weights.fusion.intents / (opts.fusion === 'rrf' ? RRF_K + 1 : 1);
  const explain = (i: number): Record<string, number> => ({
    bm25: parts.bm25(i),
    semantic: parts.semantic(i),
    usage: parts.usage(i),
    ...(clause ? { clauses: clause[i]! } : {}),
    ...(server ? { server: server[i]! } : {}),
    ...(memory && memory.scores[i]! > 0 ? { intents: intentWeight * memory.scores[i]! } : {}),
  });
  return { any, parts, server, memory, steps: clauses.length, explain };
}
