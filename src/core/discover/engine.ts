/**
 * The discover engines (keyword, bm25, semantic, hybrid); index.ts adds the optional sentence model. A ranking is
 * a pipeline, one file per stage: candidates.ts → signals.ts → fusion.ts → patterns.ts → result.ts; build.ts
 * holds the index they work on.
 */
import type { EngineName, PatternRule, UsageStats } from '../../types.js';
import { bm25For, type DiscoverIndex } from './build.js';
import { bm25Query, matchedTerms } from './bm25.js';
import { MAX_CLAUSES, topK } from './candidates.js';
import { intentClauses } from './clauses.js';
import { askedAs, isQuestion } from './mood.js';
import { actsEvidence, actsReasons, asksToActBesides } from './acts.js';
import { ACTION_DEPTH, actionConflicts, nameActs, questionConflicts } from './actions.js';
import { keptClause, withoutPayload } from './lexicon.js';
import { RRF_K, fuseHybrid, type FusionMethod } from './fusion.js';
import { intentWords, keywordDoc, keywordScore } from './keyword.js';
import { patternStage } from './patterns.js';
import { rememberedMatch, type RememberedMatch } from './remembered.js';
import { rankedResults, type Ranking } from './result.js';
import { RERANK_DEPTH, rerankFeatures, rerankOrder, rerankScore, type RerankModel } from './rerank.js';
import { RERANK_MODEL } from './rerank-model.js';
import { namedServers, readingNotes } from './named.js';
import { describedObjects, opensWithRead } from './described.js';
import { NUMBER_DEPTH, numberConflicts, siblingConflicts } from './number.js';
import { containerInputs } from './container.js';
import { joinedWords } from './joined.js';
import { productConflicts } from './product.js';
import { fileInputs } from './filename.js';
import { agentNames } from './who.js';
import { mutedState } from './state.js';
import { multiStep, serverSignals, signals, usagePriors } from './signals.js';
import { detectTaskContext } from './usage.js';
import { resolveWeights, type WeightsInput } from './weights.js';

export { DEFAULT_WEIGHTS, resolveWeights, type HybridWeights, type WeightsInput } from './weights.js';
export { detectTaskContext, usagePrior, type TaskContext, type TaskType } from './usage.js';
export {
  evaluateRankings,
  evaluationMisses,
  pairedBootstrap,
  type PairedDifference,
  type RankingMetrics,
} from './metrics.js';
export {
  loadWordVectors,
  loadShippedWordVectors,
  parseWordVectors,
  encodeWordVectors,
  defaultVectorsFile,
  type WordVectors,
} from './vectors.js';
export { applyPatterns, patternsFromConfig, type PatternEffect } from './patterns.js';
export { decodeSemanticIndex, encodeSemanticIndex, type SemanticIndex } from './semantic.js';
export { decodeBm25Index, encodeBm25Index, type Bm25Index } from './bm25.js';
export {
  buildDiscoverIndex,
  decodeIndexCache,
  encodeIndexCache,
  indexCacheKey,
  semanticText,
  toolRefsFromSnapshots,
  type BuildOptions,
  type DiscoverIndex,
} from './build.js';
export { openIndexCache, sealIndexCache, snapshotIndexKey, INDEX_CACHE_VERSION } from './index-cache.js';
export { topK, topN } from './candidates.js';
export { fuse, fuseHybrid, fuseRankings, type FusionMethod, type HybridSignals } from './fusion.js';
export { serverGroups } from './signals.js';
export type { RankedTool, Ranking } from './result.js';
export { parseLabelledIntents, type LabelledIntent } from './intents.js';

export interface RankOptions {
  engine: EngineName;
  k: number;
  weights?: WeightsInput;
  usage?: UsageStats;
  /** Clock for the recency part of the usage prior (ms since the epoch). */
  now?: number;
  patterns?: { rules: PatternRule[]; allowList?: boolean };
  /** Query vector from a sentence model (with `embeddings` at build time). */
  queryVector?: Float32Array;
  fusion?: FusionMethod;
  /** The hybrid engine's second stage (rerank.ts): the shipped model by default, false for the first stage alone. */
  rerank?: RerankModel | false;
  /** Called with the first stage's candidates (ids, best first) and their re-ranker features (training script). */
  onCandidates?: (ids: string[], features: number[][]) => void;
}

/**
 * Per-tool arrays of the last ranking, handed to the next one of the same catalogue size (allocating three arrays
 * of n floats per query is most of the garbage at 100,000 tools). A ranking takes them and gives them back when it
 * returns; one started meanwhile (from onCandidates) finds none and allocates its own.
 */
let spare: { scores: Float32Array; prior: Float32Array; shares: Float32Array } | null = null;

/** Ranks the index's tools for an intent with one engine. Ties break by id. */
export function rankTools(index: DiscoverIndex, intent: string, opts: RankOptions): Ranking {
  const n = index.tools.length;
  const buffers =
    spare?.scores.length === n
      ? spare
      : { scores: new Float32Array(n), prior: new Float32Array(n), shares: new Float32Array(n) };
  spare = null;
  const weights = opts.weights ? resolveWeights(opts.weights, index.weights) : index.weights;
  const stage = patternStage(index.tools, opts.patterns);
  const allowed = stage ? stage.allowed : (): boolean => true;
  const boost = stage ? stage.boost : (): number => 0;
  const scores = buffers.scores.fill(0);
  let explain: (i: number) => Record<string, number>;
  let matched: (i: number) => string[] | undefined;
  let any = false;
  let memory: RememberedMatch | null = null;
  /** The hybrid's server shares: they order tools, but do not by themselves make a tool match. */
  let shares: Float32Array | null = null;
  /** How the intent was read (Ranking.reading). */
  let reading: string[] = [];

  if (opts.engine === 'keyword') {
    index.keywordDocs ??= index.tools.map((t) => keywordDoc(t, index.keywords));
    const words = intentWords(intent);
    const parts = index.keywordDocs.map((d) => keywordScore(d, words));
    parts.forEach((p, i) => {
      scores[i] = p.strong + p.weak;
      if (scores[i] > 0 && allowed(i)) any = true;
    });
    explain = (i) => ({ strong: parts[i]!.strong, weak: parts[i]!.weak });
    matched = (i) => parts[i]!.matched;
  } else {
    // A question is ranked as the command it amounts to ("which channels do we have?" → "list which channels…",
    // mood.ts): every signal and the re-ranker, trained on commands, then read its action.
    const mood = askedAs(intent);
    const text = mood.text;
    const bmIndex = bm25For(index, weights);
    const derived = namedServers(index, bm25Query(text, index.unstemmed));
    // Adjacent words the catalogue writes as one ("To Do" → todo; joined.ts).
    const both = joinedWords(index, bmIndex, derived.query, withoutPayload(text), index.unstemmed);
    const { joined } = both;
    // The state a listing question filters by ("which monitors are alerting") weighs less than what it lists.
    const query = mutedState(both.query, text, mood.state, index.unstemmed);
    reading = readingNotes(intent, text, derived.named, mood.rule, joined, mood.state, derived.query.expansions);
    const terms = query.literal;
    // What a tool matched, shown: the intent's own terms less those it weighs 0 (the kept clause's).
    const shown = terms.filter((_, k) => query.weights[k] !== 0);
    const { bm, sem, bmHit, q, bmTop } = signals(index, bmIndex, query, text, opts.engine, opts.queryVector);
    matched = (i) => matchedTerms(bmIndex, shown, i);
    if (opts.engine === 'bm25') {
      scores.set(bm);
      any = bmHit;
      explain = (i) => ({ bm25: bm[i]! });
    } else if (opts.engine === 'semantic') {
      scores.set(sem);
      any = q !== null;
      explain = (i) => ({ semantic: sem[i]! });
    } else {
      const ctx = detectTaskContext(intent);
      const prior = usagePriors(index, opts.usage, ctx.type, weights.usage, opts.now, buffers.prior.fill(0));
      memory = weights.fusion.intents > 0 ? rememberedMatch(index, opts.usage, intent) : null;
      any = bmHit || q !== null || memory?.any === true;
      // Multi-step intents (long task texts): each clause is also ranked on its own. A tool's cosine is mixed
      // with its best per-clause cosine, and it gains its best per-clause hybrid score (relative to that
      // clause's best tool), so the tool of every step can reach the top (bench/discover.mjs, multi-intent set).
      // Payload (quoted text, code, JSON: lexicon.ts) is not a step: clauses are cut from the request around it.
      const cw = { semantic: weights.fusion.clauseSemantic, hybrid: weights.fusion.clauses };
      const clauses =
        any && (cw.semantic > 0 || cw.hybrid > 0) && !opts.queryVector && index.vectors
          ? intentClauses(withoutPayload(text)).slice(0, MAX_CLAUSES)
          : [];
      let clause: Float32Array | null = null;
      if (clauses.length >= 2) {
        const m = multiStep(index, bmIndex, clauses, bm, sem, weights, bmTop);
        if (q && cw.semantic > 0) {
          for (let j = 0; j < m.docs.length; j++) {
            const i = m.docs[j]!;
            if (m.semBest[i]! > -Infinity) sem[i] = (1 - cw.semantic) * sem[i]! + cw.semantic * m.semBest[i]!;
          }
        }
        if (cw.hybrid > 0) clause = m.hybridBest;
      }
      // Excluded tools (patterns) do not vote for their server.
      const servers =
        any && weights.fusion.server > 0
          ? serverSignals(index, bmIndex, query, q ? sem : null, stage ? allowed : undefined)
          : null;
      const fused = fuseHybrid(
        { bm: bmHit ? bm : null, sem: q ? sem : null, prior, clause, servers, remembered: memory?.scores ?? null },
        weights,
        opts.fusion ?? 'sum',
        allowed,
        scores,
        buffers.shares,
      );
      const { parts, server } = fused;
      const intentWeight = weights.fusion.intents / (opts.fusion === 'rrf' ? RRF_K + 1 : 1);
      shares = server;
      const conflicts = any ? actionConflicts(index, query.actions, scores, allowed) : null;
      const model = opts.rerank === undefined ? RERANK_MODEL : opts.rerank;
      let reranked: Map<number, number> | null = null;
      // The re-ranker's candidates: the checks after it that a command gets read these, not every tool again.
      let pool: readonly number[] = [];
      if (any && (model || opts.onCandidates)) {
        const cands = topK(scores, model ? (model.depth ?? RERANK_DEPTH) : RERANK_DEPTH, allowed);
        const feats = rerankFeatures(
          index,
          terms,
          cands,
          {
            score: (i) => scores[i]!,
            bm25: parts.bm25,
            semantic: parts.semantic,
            server: (i) => (server ? server[i]! : 0),
            matched: (i) => matchedTerms(bmIndex, terms, i).length,
          },
          text,
        );
        pool = cands;
        opts.onCandidates?.(
          cands.map((i) => index.tools[i]!.id),
          feats,
        );
        // The model was trained without usage data: when the usage prior or a remembered intent weighs on a
        // candidate, what the team called decides and the first stage's order stands.
        const learned = cands.some((i) => parts.usage(i) !== 0 || (memory !== null && memory.scores[i]! > 0));
        if (model && cands.length > 1 && !learned) {
          // The candidates keep the first stage's scores, handed out again in the model's order; a tool's
          // `rerank` reason is what that moved its score by, so the reasons still sum to the score.
          const values = cands.map((i) => scores[i]!);
          const modelScores = feats.map((x) => rerankScore(model, x));
          reranked = new Map();
          rerankOrder(model, modelScores).forEach((j, k) => {
            const i = cands[j]!;
            if (values[k]! !== scores[i]!) reranked!.set(i, values[k]! - scores[i]!);
            scores[i] = values[k]!;
          });
        }
      }
      // A question asks to read (mood.ts): its contradicting writers lose their action share again after the
      // re-ranker, which was trained without the question's mood and would hand their place back.
      const best = any && mood.question ? topK(scores, ACTION_DEPTH, allowed) : undefined;
      // (Not when a sentence after the question asks to act: "Where are my notes? Forward them to Bob.")
      const asked =
        best && mood.read && !asksToActBesides(intent, isQuestion)
          ? questionConflicts(index, scores, allowed, best)
          : null;
      // The same for a request to keep a statement ("remember that …", lexicon.ts keptClause), which asks to store
      // beyond doubt: the re-ranker, blind to the kept clause, may hand a reader its place back. (Checking every
      // request naming an action again lost one hit@5 each on two development sets: bench/RESULTS.md.)
      const again =
        any && reranked && keptClause(text) >= 0 ? actionConflicts(index, query.actions, scores, allowed) : null;
      // The checks below read the best candidates of a question, or the re-ranker's of a command, and the request
      // without its payload (each once per query).
      const near = best ? best.slice(0, NUMBER_DEPTH) : pool;
      let plain: string | undefined;
      const request = (): string => (plain ??= withoutPayload(text));
      // Number, which the stems erase (number.ts): a name holding a question's word in the other number loses a share.
      const numbered0 = best ? numberConflicts(index, request(), scores, allowed, near) : null;
      const numbered =
        best && mood.rule === 'many' ? siblingConflicts(index, request(), scores, near, numbered0) : numbered0;
      // A contents question's container is the input of the tool that answers it (container.ts).
      const inside =
        best && mood.container ? containerInputs(index, mood.container, scores, near, index.unstemmed) : null;
      // "who <verb>" asks for the verb's agents: a name holding the agent noun ("get_follower_ids"; who.ts).
      const agents = best && mood.read ? agentNames(index, intent, scores, near) : null;
      // A read question, or a command opening with a read verb, naming what a tool's description says it returns
      // ("List KV namespaces…"; described.ts).
      const described =
        any && (mood.question ? mood.read : opensWithRead(text))
          ? describedObjects(index, request(), scores, near)
          : null;
      // A product the intent names by its proper name ranks that server's tools over others speaking of it (product.ts).
      const product = any
        ? productConflicts(index, intent, scores, () => best ?? topK(scores, ACTION_DEPTH, allowed))
        : null;
      // A file named by its file name asks for a tool taking a path (filename.ts); in one step only, since in a task
      // of several the file may be one step's object.
      const file = any && clauses.length < 2 ? fileInputs(index, withoutPayload(intent), scores, near) : null;
      explain = (i) => ({
        bm25: parts.bm25(i),
        semantic: parts.semantic(i),
        usage: parts.usage(i),
        ...(clause ? { clauses: clause[i]! } : {}),
        ...(server ? { server: server[i]! } : {}),
        ...(memory && memory.scores[i]! > 0 ? { intents: intentWeight * memory.scores[i]! } : {}),
        ...(conflicts?.has(i) || again?.has(i) ? { action: (conflicts?.get(i) ?? 0) + (again?.get(i) ?? 0) } : {}),
        ...(reranked?.has(i) ? { rerank: reranked.get(i)! } : {}),
        ...(asked?.has(i) ? actsReasons(actsEvidence(index, i, nameActs), asked.get(i)!) : {}),
        ...(numbered?.has(i) ? { number: numbered.get(i)! } : {}),
        ...(inside?.has(i) ? { container: inside.get(i)! } : {}),
        ...(described?.has(i) ? { described: described.get(i)! } : {}),
        ...(product?.has(i) ? { product: product.get(i)! } : {}),
        ...(file?.has(i) ? { file: file.get(i)! } : {}),
        ...(agents?.has(i) ? { agent: agents.get(i)! } : {}),
      });
    }
  }

  // Without pattern rules the scores are final as they are (nothing changes them from here on).
  let final = scores;
  if (stage) {
    final = new Float32Array(n);
    for (let i = 0; i < n; i++) final[i] = scores[i]! + boost(i);
  }
  const ranking = rankedResults(index, {
    engine: opts.engine,
    k: opts.k,
    any,
    final,
    shares,
    allowed,
    boost,
    pinned: stage ? stage.pinned : [],
    explain,
    matched,
    ...(memory ? { remembered: (i: number) => memory.best(i)?.text } : {}),
  });
  // The ranking holds none of the arrays: the next one may reuse them.
  spare = buffers;
  return reading.length > 0 ? { ...ranking, reading } : ranking;
}
