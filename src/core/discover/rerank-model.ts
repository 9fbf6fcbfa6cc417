/**
 * The second stage's model, written by scripts/train-reranker.mjs --write. Off (false): trained again on the
 * first stage that checks verbs, abbreviations, product names and payloads itself, no feature set gains at rank 1
 * held out (5-fold CV over 2,962 development queries: hit@1 +0.002, 95 % interval −0.004 to 0.007), and on the
 * sets it never saw it loses (LiveMCPBench hit@1 −0.032, servers-111 intents −0.013). The machinery stays, so a
 * model that earns its place can be written here again.
 */
import type { RerankModel } from './rerank.js';

export const RERANK_MODEL: RerankModel | false = false;
