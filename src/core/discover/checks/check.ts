/**
 * A check: one adjustment of the hybrid's scores after fusion or after the re-ranker, declared with what it needs
 * (when it applies, the candidates it looks at, the catalogue fields it reads) so that the pipeline (index.ts) runs
 * every check the same way, --explain shows each by its reason, and the catalogue start cache can be held to keep
 * what they read (test/unit/discover-checks.test.ts).
 */
import type { ActionClass } from '../lexicon.js';
import type { DiscoverIndex } from '../build.js';
import type { Intent } from '../intent.js';

/** Where a check runs: on the fused first-stage scores, or on the order the re-ranker left. */
export type CheckStage = 'fused' | 'reranked';

/** The catalogue fields a check may read (fields.ts reads each from a tool). */
export type CatalogueField = 'name' | 'description' | 'annotations' | 'parameters' | 'server';

/**
 * The candidates a check looks at:
 * - `top`: the 40 best allowed tools (ACTION_DEPTH) when the check runs;
 * - `best`: a question's 40 best as the re-ranker left them (before any check moved them), else as `top`;
 * - `near`: a question's 20 best as the re-ranker left them, else the re-ranker's candidates (none when it did
 *   not run), in the first stage's order.
 */
export type CheckPool = 'top' | 'best' | 'near';

/** What a check sees of one ranking. Checks change `scores` in place (through shiftScores). */
export interface CheckContext {
  readonly index: DiscoverIndex;
  readonly intent: Intent;
  readonly scores: Float32Array;
  readonly allowed: (i: number) => boolean;
  /** The actions the intent's words ask for (bm25.ts bm25Query). */
  readonly actions: ReadonlySet<ActionClass>;
  /** How many clauses the first stage ranked on their own (0 or 1: none; clauses need the word vectors). */
  readonly steps: number;
  /** Whether the re-ranker ran (even when it moved nothing). */
  readonly reranked: boolean;
  /** What each check that ran shifted, by check name. */
  readonly shifts: ReadonlyMap<string, ReadonlyMap<number, number>>;
  /** The scope derived from use (project-scope.ts): tool (index) → weight in (0, 1]; absent without one. */
  readonly scope?: ReadonlyMap<number, number>;
  /** The scope's share of the best score (the bench's sweep; SCOPE_SHARE by default). */
  readonly scopeShare?: number;
}

export interface Check {
  /** Its file's name under checks/, named by its effect. */
  readonly name: string;
  /** Its --explain reason (checks may share one: their amounts add up). */
  readonly reason: string;
  /** What it does, in one line (the README's list of reasons is made of these). */
  readonly doc: string;
  readonly stage: CheckStage;
  readonly pool: CheckPool;
  /** The catalogue fields it reads: the catalogue start cache must keep them. */
  readonly reads: readonly CatalogueField[];
  /** Whether it applies to this ranking (it runs only when a signal matched). */
  applies(ctx: CheckContext): boolean;
  /**
   * Shifts the scores of some of the candidates (`pool()`, asked for only when needed: it may cost a pass over
   * every tool), in place; returns each shift, or null when it moved none.
   */
  shift(ctx: CheckContext, pool: () => readonly number[]): ReadonlyMap<number, number> | null;
  /** When its shift shows as several reasons (by the kind of evidence): each with its doc, and the split. */
  readonly parts?: {
    readonly docs: Readonly<Record<string, string>>;
    split(index: DiscoverIndex, doc: number, amount: number): Record<string, number>;
  };
}
