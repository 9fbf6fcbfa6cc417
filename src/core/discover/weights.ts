/** Default weights of the discover engines: the values `replay --tune` searches and config `weights` overrides. */

export interface HybridWeights {
  /** How much each normalised signal adds to the hybrid score. */
  fusion: {
    bm25: number;
    semantic: number;
    usage: number;
    /**
     * Multi-step intents, split into clauses (clauses.ts): each clause's best tool gains this much (its best
     * per-clause hybrid score, relative to the clause's best tool). 0 turns it off.
     */
    clauses: number;
    /** Mix of each tool's cosine with its best per-clause cosine (0 = whole intent only, 1 = best clause only). */
    clauseSemantic: number;
    /**
     * Server-level relevance (servers.ts): every tool gains this much times its server's score relative to the
     * best server's, so the sibling tools of a matching server rise together. 0 turns it off.
     */
    server: number;
    /**
     * Remembered intents (remembered.ts): every tool gains this much times its best similarity to an intent it
     * was called for before. 0 turns it off.
     */
    intents: number;
  };
  /** Fielded BM25 (BM25F): saturation k1, length normalisation b, per-field weights. */
  bm25: { k1: number; b: number; fields: { name: number; description: number; params: number; server: number } };
  /** Usage prior (usage-learning note): smoothed success rate, task-category match, recency. */
  usage: { success: number; category: number; recency: number; halfLifeDays: number };
}

// fusion.semantic, bm25.k1, bm25.b and fields.name come from the grid search on the MetaTool tuning
// split (bench/discover.mjs), then b and fields.name re-chosen (0.5/5 → 0.3/8) on that split's single queries
// plus the long-task proxy (bench/helpers/long-tasks.mjs: 2–4 tuning queries phrased as one instruction);
// params/server weights cannot be tuned there (MetaTool has neither) and are set by hand.
export const DEFAULT_WEIGHTS: HybridWeights = {
  // clauses/clauseSemantic: chosen on the MetaTool tuning split (its single queries, and multi-intent tasks
  // made of three of its queries); see bench/discover.mjs. server: chosen on the BFCL development set
  // (bench/data/bfcl-multi-turn, the only one with servers), where 0.5 gained 1.4 pts R@5 per turn with the
  // earlier word vectors and 0.25–0.75 are within 0.2 pt with the current ones; it cannot matter on MetaTool.
  // With the current vectors the fusion weights were searched again on all four development views and kept.
  fusion: { bm25: 1, semantic: 1, usage: 0.3, clauses: 0.25, clauseSemantic: 0.75, server: 0.5, intents: 2.5 },
  // bm25 (issue 16, the first stage against a plain fielded BM25 on MetaTool's tuning split, BFCL turns and tasks
  // and LiveMCPBench, by a grid over k1, b and the field weights): name 8 with b 0.3 let one stray intent word hitting a
  // name fragment ("make sure" → make_transaction) outweigh a whole matching description, and left long names
  // unnormalised ("comment" lost to get_tweet_comments). name 3, params 0.75, b 0.5 is at least the plain
  // fielded BM25 at hit@1, @3, @5, @10 and MRR on all four (bench/discover.mjs --stages).
  bm25: { k1: 1.6, b: 0.5, fields: { name: 3, description: 1, params: 0.75, server: 0.3 } },
  usage: { success: 1, category: 1, recency: 0.5, halfLifeDays: 14 },
};

/** Deeply partial weights, as a config file or the tuner gives them. */
export type WeightsInput = { [K in keyof HybridWeights]?: DeepPartial<HybridWeights[K]> } | Record<string, unknown>;
type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** Overlays user weights on the defaults. Unknown keys and non-numbers are ignored (the config validator reports them). */
export function resolveWeights(input?: WeightsInput, base: HybridWeights = DEFAULT_WEIGHTS): HybridWeights {
  return overlay(base, input) as unknown as HybridWeights;
}

function overlay(base: object, input: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const src = input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  for (const [key, value] of Object.entries(base)) {
    const given = src[key];
    if (value !== null && typeof value === 'object') out[key] = overlay(value as object, given);
    else out[key] = typeof given === 'number' && Number.isFinite(given) ? given : value;
  }
  return out;
}
