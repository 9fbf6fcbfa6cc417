/**
 * The hybrid's checks, in the order they run: each adjusts the scores after fusion (`fused`) or after the re-ranker
 * (`reranked`), declared in its own file (check.ts). engine.ts runs a stage's checks with runChecks and shows them
 * with checkReasons; the README's list of --explain reasons is made from this list (reasons.ts).
 */
import type { DiscoverIndex } from '../build.js';
import { topK } from '../candidates.js';
import { ACTION_DEPTH } from '../actions.js';
import type { Intent } from '../intent.js';
import type { ActionClass } from '../lexicon.js';
import { actingToolCheck } from './acting-tool.js';
import type { Check, CheckContext, CheckPool, CheckStage } from './check.js';
import { containerInputCheck } from './container-input.js';
import { contraryActionCheck } from './contrary-action.js';
import { describedObjectCheck } from './described-object.js';
import { filePathCheck } from './file-path.js';
import { namedProductCheck } from './named-product.js';
import { NUMBER_DEPTH, nounNumberCheck } from './noun-number.js';
import { pluralSiblingCheck } from './plural-sibling.js';
import { projectScopeCheck } from './project-scope.js';

export type { Check, CatalogueField, CheckContext, CheckPool, CheckStage } from './check.js';

/** Every check, in the order they run (a check reads the scores the ones before it left). */
export const CHECKS: readonly Check[] = [
  contraryActionCheck,
  actingToolCheck,
  nounNumberCheck,
  pluralSiblingCheck,
  containerInputCheck,
  describedObjectCheck,
  namedProductCheck,
  filePathCheck,
  projectScopeCheck,
];

/** The second stage's own reason (engine.ts): shown between the checks after fusion and those after it. */
const RERANK = 'rerank';

/** The reasons in the order --explain shows them: the checks' (their parts' keys for a split one), in CHECKS order. */
const ORDER: readonly string[] = [
  ...new Set(
    [...CHECKS.filter((c) => c.stage === 'fused'), RERANK, ...CHECKS.filter((c) => c.stage === 'reranked')].flatMap(
      (c) => (typeof c === 'string' ? [c] : c.parts ? Object.keys(c.parts.docs) : [c.reason]),
    ),
  ),
];

/** One ranking's checks: what they see, and what each shifted. */
export interface CheckRun extends CheckContext {
  reranked: boolean;
  readonly shifts: Map<string, ReadonlyMap<number, number>>;
  /** A question's best candidates as the re-ranker left them (the `best` and `near` pools). */
  best?: readonly number[];
  near: readonly number[];
  /** The checks this ranking skips (RankOptions.disabledChecks). */
  readonly disabled?: ReadonlySet<string>;
}

/** A ranking's checks, before any ran. */
export function startChecks(
  index: DiscoverIndex,
  intent: Intent,
  scores: Float32Array,
  allowed: (i: number) => boolean,
  actions: ReadonlySet<ActionClass>,
  steps: number,
  scope?: { weights: ReadonlyMap<number, number>; share?: number | undefined },
  disabled?: ReadonlySet<string>,
): CheckRun {
  const run: CheckRun = {
    index,
    intent,
    scores,
    allowed,
    actions,
    steps,
    reranked: false,
    shifts: new Map(),
    near: [],
    ...(scope && scope.weights.size > 0
      ? { scope: scope.weights, ...(scope.share !== undefined ? { scopeShare: scope.share } : {}) }
      : {}),
  };
  return disabled && disabled.size > 0 ? { ...run, disabled } : run;
}

/**
 * Runs one stage's checks that apply, in CHECKS order. After the re-ranker, `reranked` is its candidates (none when
 * it did not run), the `near` pool of a command; the pools of a question are taken before the first check runs.
 */
export function runChecks(run: CheckRun, stage: CheckStage, reranked?: readonly number[]): void {
  if (stage === 'reranked') {
    run.best = run.intent.mood.question ? topK(run.scores, ACTION_DEPTH, run.allowed) : undefined;
    run.near = run.best ? run.best.slice(0, NUMBER_DEPTH) : (reranked ?? []);
  }
  for (const check of CHECKS) {
    if (check.stage !== stage || run.disabled?.has(check.name) || !check.applies(run)) continue;
    const shifted = check.shift(run, pool(run, check.pool));
    if (shifted) run.shifts.set(check.name, shifted);
  }
}

function pool(run: CheckRun, which: CheckPool): () => readonly number[] {
  const top = (): number[] => topK(run.scores, ACTION_DEPTH, run.allowed);
  if (which === 'top') return top;
  if (which === 'best') return () => run.best ?? top();
  return () => run.near;
}

/**
 * A tool's --explain reasons from the checks (amounts of checks sharing a reason add up) and the re-ranker's move
 * (`rerank`), in ORDER.
 */
export function checkReasons(run: CheckRun, doc: number, rerank: number | undefined): Record<string, number> {
  const sums = new Map<string, number>();
  if (rerank !== undefined) sums.set(RERANK, rerank);
  for (const check of CHECKS) {
    const amount = run.shifts.get(check.name)?.get(doc);
    if (amount === undefined) continue;
    const parts = check.parts ? check.parts.split(run.index, doc, amount) : { [check.reason]: amount };
    for (const [key, v] of Object.entries(parts)) sums.set(key, (sums.get(key) ?? 0) + v);
  }
  const out: Record<string, number> = {};
  if (sums.size === 0) return out;
  for (const key of ORDER) {
    const v = sums.get(key);
    if (v !== undefined) out[key] = v;
  }
  return out;
}
