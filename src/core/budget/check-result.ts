/** What `check` returns: the comparison with the committed baseline and the optional retrieval gate. */
import type { Encoding } from '../../types.js';

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
  retrieval?: RetrievalResult;
  /** Set by --update. */
  updated?: { written: boolean; servers: number; tokens: number };
}
