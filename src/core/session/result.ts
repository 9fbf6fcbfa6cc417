/** What `replay` returns: ranking quality per engine on recorded sessions, tuning and learning figures. */
import type { HybridWeights } from '../discover/index.js';
import type { EngineMetrics, TokenComparison } from './replay.js';
import type { TuneResult } from './tune.js';
import type { DerivedScope } from './scope.js';

export interface ReplayTuned extends TuneResult<HybridWeights> {
  seed: number;
  /** Hybrid over every case with the tuned weights (compare with engines[hybrid]). */
  hybrid: { recallAt: Record<string, number>; mrr: number };
  written?: string;
}

export interface ReplayLearned {
  store: string;
  cases: number;
  /** Cases skipped because the store had already learned them. */
  alreadyLearned: number;
  /** Cases with calls to tools not loaded and nothing else to learn: left for a later run (absent when none). */
  notLearned?: number;
  tools: number;
  /** Tools dropped because they were last used longer ago than the TTL. */
  expired: number;
}

export interface ReplayStart {
  store: string;
  /** Tools and remembered intents the store gave the first case. */
  tools: number;
  intents: number;
  /** Replayed sessions the store had already learned: their scores include what was learned from them. */
  alreadyLearnedSessions: number;
}

export interface ReplayResult {
  cases: number;
  /**
   * The scope derived from use (session/scope.ts): per project of the recordings that name their directory, its
   * tools and call counts, most used first; absent when none does.
   */
  scope?: DerivedScope[];
  sessions: number;
  files: { file: string; format: string }[];
  problems: { file: string; line: number; message: string }[];
  turnsWithoutCalls: number;
  /** Files and folders that could not be read (no permission, an I/O error), skipped; absent when none. */
  unreadable?: { file: string; message: string }[];
  /** MCP tool calls before any user turn of their session: no intent to score, skipped; absent when none. */
  callsWithoutTurn?: number;
  unknownTools: string[];
  unknownCalls: number;
  /** Tools called in the recordings that the visibility rules hide (serve would not offer them): scored as misses. */
  hiddenTools: string[];
  hiddenCalls: number;
  /** The tools ranked: the ones serve would offer the model (visibleTools). */
  tools: number;
  engines: EngineMetrics[];
  tokens: TokenComparison;
  misses: { case: string; intent: string; expected: string[]; firstRank: number; top: string[] }[];
  tuned?: ReplayTuned;
  learned?: ReplayLearned;
  /** The usage store the replay started from (absent: it started from nothing, e.g. with --no-store). */
  startedFrom?: ReplayStart;
  minRecall?: { required: number; actual: number; passed: boolean };
}
