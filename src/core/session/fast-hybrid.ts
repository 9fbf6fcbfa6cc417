/**
 * A fast hybrid-MRR evaluator for the tuner. It caches every signal that does not depend on the weights (query
 * terms, cosines, BM25 scores and server scores per BM25 parameter set) and calls discover's own fusion
 * (fuseHybrid, usagePriorsOf) over them, so a score here is the score rankTools gives with clause ranking off.
 * Clause ranking and patterns are not applied; an intent that matches nothing (rankTools' fallback lists every
 * tool) scores 0 here; cosines are exact where rankTools, from 20,000 tools on, approximates them outside its
 * candidates. Held-out scores always come from rankTools itself.
 */
import { actionConflicts } from '../discover/actions.js';
import { bm25Query, buildBm25Index, scoreBm25, type Bm25Query } from '../discover/bm25.js';
import type { DiscoverIndex } from '../discover/build.js';
import { fuseHybrid, signalRanges, type HybridSignals } from '../discover/fusion.js';
import { queryVector, scoreSemantic } from '../discover/semantic.js';
import { intentVector } from '../discover/sif.js';
import { rememberedMatch } from '../discover/remembered.js';
import { serverLexicalScores, serverSemanticScores } from '../discover/servers.js';
import { serverGroups, usagePriorsOf } from '../discover/signals.js';
import { detectTaskContext, usageParts, type TaskType, type UsageParts } from '../discover/usage.js';
import type { HybridWeights } from '../discover/weights.js';
import type { UsageStats } from '../types.js';

export interface TrainItem {
  intent: string;
  expected: string[];
  usage: UsageStats;
  time: number;
}

interface Prepared {
  query: Bm25Query;
  type: TaskType;
  /** Cosines, or null when the intent has no known word. */
  sem: Float32Array | null;
  /** Each server's semantic score (servers.ts), or null without cosines or with one server. */
  serverSem: Float32Array | null;
  semMin: number;
  semMax: number;
  expected: number[];
  /** The tools the store knows, by doc number, with the weight-independent parts of their prior. */
  used: { doc: number; parts: UsageParts }[];
  /** Similarity to each tool's remembered intents, or null without any. */
  remembered: Float32Array | null;
  /** A remembered intent matched (rankTools then does not fall back even when nothing else matched). */
  rememberedAny: boolean;
}

interface Lexical {
  bm: Float32Array;
  bmHit: boolean;
  bmMax: number;
  /** Each server's lexical score, or null with one server. */
  servers: Float32Array | null;
}

const allowAll = (): boolean => true;

/** Returns `(weights, subset) → MRR` over the given items (subset: indexes into `items`). */
export function createHybridEvaluator(
  index: DiscoverIndex,
  items: TrainItem[],
): (w: HybridWeights, subset: number[]) => number {
  const scoresOf = createHybridScorer(index, items);
  return (w, subset) => {
    let rr = 0;
    for (const k of subset) {
      const expected = scoresOf.expected(k);
      if (expected.length === 0) continue;
      const score = scoresOf.scores(w, k);
      // Rank of the best expected tool: higher scores first, ties by lower doc number (as topK does).
      let best = -1;
      for (const d of expected)
        if (best === -1 || score[d]! > score[best]! || (score[d] === score[best] && d < best)) best = d;
      const s = score[best]!;
      if (!(s > 0)) continue;
      let rank = 1;
      for (let i = 0; i < score.length; i++) if (score[i]! > s || (score[i] === s && i < best)) rank++;
      rr += 1 / rank;
    }
    return subset.length > 0 ? rr / subset.length : 0;
  };
}

/**
 * The hybrid scores of item k under weights w (a shared buffer, valid until the next call): the same numbers
 * rankTools computes before its top-k cut, with clause ranking off and no patterns (when nothing matched, rankTools
 * offers every tool instead; these are then the usage prior alone).
 */
export function createHybridScorer(
  index: DiscoverIndex,
  items: TrainItem[],
): { scores: (w: HybridWeights, k: number) => Float32Array; expected: (k: number) => number[] } {
  const n = index.tools.length;
  const docOf = (index.docOf ??= new Map(index.tools.map((t, i) => [t.id, i])));
  const servers = serverGroups(index);
  const prepared: Prepared[] = items.map((it) => {
    let sem: Float32Array | null = null;
    if (index.semantic && index.vectors) {
      const raw = intentVector(index.vectors, it.intent);
      if (raw) {
        sem = new Float32Array(n);
        scoreSemantic(index.semantic, queryVector(index.semantic, raw), sem);
      }
    }
    const type = detectTaskContext(it.intent).type;
    const { semMin, semMax } = signalRanges(null, sem);
    const memory = rememberedMatch(index, it.usage, it.intent);
    return {
      remembered: memory?.any ? memory.scores : null,
      rememberedAny: memory?.any === true,
      semMin,
      semMax,
      query: bm25Query(it.intent, index.unstemmed),
      type,
      sem,
      serverSem: sem && servers.count > 1 ? serverSemanticScores(sem, servers.of, servers.count) : null,
      expected: it.expected.flatMap((id) => (docOf.has(id) ? [docOf.get(id)!] : [])),
      used: Object.entries(it.usage.tools).flatMap(([id, usage]) => {
        const doc = docOf.get(id);
        return doc === undefined ? [] : [{ doc, parts: usageParts(usage, type, it.time) }];
      }),
    };
  });
  // Per BM25 parameter set and case: the bm25 scores and each server's lexical score.
  const lexicalCache = new Map<string, Lexical[]>();
  const lexicalOf = (w: HybridWeights): Lexical[] => {
    const key = JSON.stringify(w.bm25);
    let rows = lexicalCache.get(key);
    if (!rows) {
      // Built here, not kept on the index: the tuner tries many parameter sets.
      const bmIndex = buildBm25Index(index.fields, w.bm25);
      rows = prepared.map((p) => {
        const bm = new Float32Array(n);
        const bmHit = scoreBm25(bmIndex, p.query.terms, bm, p.query.weights) > 0;
        const lexical =
          servers.count > 1
            ? serverLexicalScores(bmIndex, p.query.terms, servers.of, servers.count, undefined, p.query.weights)
            : null;
        return { bm, bmHit, bmMax: bmHit ? signalRanges(bm, null).bmMax : 0, servers: lexical };
      });
      if (lexicalCache.size > 64) lexicalCache.clear();
      lexicalCache.set(key, rows);
    }
    return rows;
  };
  const score = new Float32Array(n);
  const prior = new Float32Array(n);
  const shares = new Float32Array(n);
  return {
    expected: (k) => prepared[k]!.expected,
    scores: (w, k) => {
      const p = prepared[k]!;
      const lex = lexicalOf(w)[k]!;
      const any = lex.bmHit || p.sem !== null || (p.rememberedAny && w.fusion.intents > 0);
      const signals: HybridSignals = {
        bm: lex.bmHit ? lex.bm : null,
        sem: p.sem,
        prior: usagePriorsOf(p.used, w.usage, prior),
        clause: null,
        servers:
          any && w.fusion.server > 0 && lex.servers
            ? { of: servers.of, lexical: lex.servers, semantic: p.serverSem }
            : null,
        ranges: { bmMax: lex.bmMax, semMin: p.semMin, semMax: p.semMax },
        remembered: p.remembered,
      };
      fuseHybrid(signals, w, 'sum', allowAll, score, shares);
      if (any) actionConflicts(index, p.query.actions, score, allowAll);
      return score;
    },
  };
}
