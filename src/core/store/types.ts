/** One interface for the usage store, whatever holds it: every reader and writer of usage goes through it. */
import type { UsageStats } from '../types.js';
import type { MemoryOptions, StoreRead } from '../session/usage-store.js';
import type { UserUsage } from '../session/users.js';
import type { ProjectUsage } from '../session/scope.js';

/** What one learning step adds: usage to add (counts are increments) and, for replay, sessions learned. */
export interface LearnPlan {
  delta: UsageStats;
  /** Session id → cases learned from it (kept as the larger of old and new). */
  sessions: Record<string, number>;
  /** Per-user counts to add (a moved store's; a learner's own come from `user`). */
  users?: UserUsage;
  /** Per-project counts to add (a moved store's, or replay's from recordings that name their directory). */
  projects?: ProjectUsage;
}

export interface StoreWriteResult {
  /** Tools in the store after the write's memory cap; `before` counts them before it. */
  tools: number;
  before: number;
  warnings: string[];
}

export interface UsageStore {
  readonly kind: 'file' | 'postgres';
  /** How messages name the store: a file path, or the URL with its credentials redacted. */
  readonly label: string;
  /** The whole store as a document (tools, intents, sessions). `missing` when it holds nothing yet. */
  read(now: number, opts?: { lockTimeoutMs?: number }): Promise<StoreRead>;
  /** Adds `delta` (atomic increments; serve's live learning). */
  /** `user`: the label the calls are attributed to (per-user counts beside the totals). */
  /** `users`: per-user counts to add instead (each call under its own caller's label); `user` is then not used. */
  /** `lockTimeoutMs`: the longest this write waits for a lock another session holds (PostgreSQL; then it fails). */
  /** `project`: the project key (scope.ts) the calls came from (per-project counts beside the totals). */
  add(
    delta: UsageStats,
    opts: {
      now: number;
      memory?: MemoryOptions;
      user?: string;
      users?: UserUsage;
      project?: string;
      lockTimeoutMs?: number;
    },
  ): Promise<StoreWriteResult>;
  /**
   * PostgreSQL: adds a batch in one statement (one round trip) for answers waiting for its commit, leaving the
   * memory rules (caps, future times) to `tidy`, which the caller runs off the answers' path.
   */
  addNow?(
    delta: UsageStats,
    opts: { now: number; users?: UserUsage; project?: string },
  ): Promise<{ warnings: string[] }>;
  tidy?(opts?: { memory?: MemoryOptions }): Promise<{ warnings: string[] }>;
  /**
   * Learns under the store's session guard: `plan` sees the sessions already learned and returns what to add, so
   * two `replay --learn` runs of the same recordings count nothing twice.
   */
  learn(
    plan: (sessions: Readonly<Record<string, number>>) => LearnPlan,
    opts: { now: number; memory?: MemoryOptions; user?: string },
  ): Promise<StoreWriteResult>;
  /** Forgets tools (counts, categories, intents, per-user counts); returns how many the store held. */
  forgetTools(ids: string[], now: number): Promise<number>;
  /** Forgets a user: their calls come off the tools' counts, their entries go; returns their tools' count. */
  forgetUser(user: string, now: number): Promise<number>;
  close(): Promise<void>;
}
