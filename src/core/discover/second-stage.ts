/**
 * The hybrid's second stage: the first stage's best candidates put in the re-ranker's order (rerank.ts). The
 * candidates keep the first stage's scores, handed out again in the model's order; a tool's `rerank` reason is what
 * that moved its score by, so the reasons still sum to the score.
 */
import type { DiscoverIndex } from './build.js';
import { matchedTerms } from './bm25.js';
import { topK } from './candidates.js';
import type { Fused, QuerySignals } from './first-stage.js';
import { RERANK_DEPTH, rerankFeatures, rerankOrder, rerankScore, type RerankModel } from './rerank.js';

export interface Reranked {
  /** The re-ranker's candidates, in the first stage's order (none when it did not run). */
  candidates: readonly number[];
  /** What the model moved each tool's score by, or null when it did not run (its order may still have moved none). */
  moved: Map<number, number> | null;
}

/** Re-ranks `scores` in place with `model`; `onCandidates` gets the candidates and their features (training). */
export function rerankStage(
  index: DiscoverIndex,
  s: QuerySignals,
  fused: Fused,
  scores: Float32Array,
  allowed: (i: number) => boolean,
  model: RerankModel | false,
  onCandidates: ((ids: string[], features: number[][]) => void) | undefined,
): Reranked {
  if (!model && !onCandidates) return { candidates: [], moved: null };
  const { parts, server, memory } = fused;
  const cands = topK(scores, model ? (model.depth ?? RERANK_DEPTH) : RERANK_DEPTH, allowed);
  const feats = rerankFeatures(
    index,
    s.terms,
    cands,
    {
      score: (i) => scores[i]!,
      bm25: parts.bm25,
      semantic: parts.semantic,
      server: (i) => (server ? server[i]! : 0),
      matched: (i) => matchedTerms(s.bmIndex, s.terms, i).length,
    },
    s.plain,
  );
  onCandidates?.(
    cands.map((i) => index.tools[i]!.id),
    feats,
  );
  // The model was trained without usage data: when the usage prior or a remembered intent weighs on a candidate,
  // what the team called decides and the first stage's order stands.
  const learned = cands.some((i) => parts.usage(i) !== 0 || (memory !== null && memory.scores[i]! > 0));
  if (!model || cands.length <= 1 || learned) return { candidates: cands, moved: null };
  const values = cands.map((i) => scores[i]!);
  const modelScores = feats.map((x) => rerankScore(model, x));
  const moved = new Map<number, number>();
  rerankOrder(model, modelScores).forEach((j, k) => {
    const i = cands[j]!;
    if (values[k]! !== scores[i]!) moved.set(i, values[k]! - scores[i]!);
    scores[i] = values[k]!;
  });
  return { candidates: cands, moved };
}
