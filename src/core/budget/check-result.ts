/** What `check` returns: the comparison with the committed baseline and the optional retrieval gate. */
import type { Encoding } from '../types.js';
import type { MissingServer } from './missing.js';

/** The baseline file `check` and `init` use when neither a flag nor the config names one. */
export const DEFAULT_BASELINE = 'mcp-smart.lock.json';

export interface RetrievalResult {
  queries: string;
  cases: number;
  k: number;
  recall: number;
  mrr: number;
  minRecall?: number;
  passed: boolean;
  /** How many intents had none of their expected tools in the top k (discover --queries' rule). */
  missCount?: number;
  /** The first of them (at most 20), each with the tools ranked first instead. */
  misses?: { intent: string; expected: string[]; top: string[] }[];
  /** Expected ids that are not among the loaded tools (scored as misses), sorted. */
  unknownExpected?: string[];
}

export interface CheckResult {
  baseline: string;
  passed: boolean;
  totals: { before: number; after: number; delta: number };
  changes: {
    id: string;
    kind: 'added' | 'removed' | 'changed';
    before: number;
    after: number;
    delta: number;
    hashChanged: boolean;
  }[];
  encoding: Encoding;
  thresholds: { maxGrowth: string; allowedGrowth: number; max?: number; minRecall?: number };
  failures: { code: string; message: string }[];
  warnings: { code: string; id?: string; message: string }[];
  servers: { name: string; status: string; before: number; after: number; delta: number }[];
  unavailable: string[];
  /** Baseline servers not reached although still defined: failed, or waiting for an approval (issue 36). */
  missing: MissingServer[];
  retrieval?: RetrievalResult;
  /** Set by --update. */
  updated?: { written: boolean; servers: number; tokens: number };
}
