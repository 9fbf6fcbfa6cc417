/** The budget's limits: --max, --share and --limit over the config's budget section over the defaults. */
import { SmartError } from '../../process/errors.js';
import type { SmartConfig } from '../../core/types.js';
import { optionalString, parseIntFlag, parseShareFlag } from './flags.js';

export const DEFAULT_SHARE = 0.1;

/** --max, --share and --limit as given; they are resolved against the config's budget section. */
export interface LimitFlags {
  max?: string;
  share?: string;
  limit?: string;
}

export interface BudgetLimits {
  max: number;
  limit: number;
  share: number;
}

/** Flags over config over defaults. `--max` is required unless config has budget.max. */
export function resolveLimits(opts: LimitFlags, config: SmartConfig): BudgetLimits {
  const maxFlag = optionalString(opts.max);
  const max =
    maxFlag !== undefined ? parseIntFlag('--max', maxFlag, { min: 1, example: '128000' }) : config.budget?.max;
  if (max === undefined) {
    throw new SmartError('BAD_FLAG', {
      flag: '--max',
      value: '(missing)',
      hint: 'Pass --max <tokens> (the context window, e.g. 128000) or set budget.max in mcp-smart.config.json.',
    });
  }
  const shareFlag = optionalString(opts.share);
  const limitFlag = optionalString(opts.limit);
  if (shareFlag !== undefined && limitFlag !== undefined) {
    throw new SmartError('BAD_FLAG', {
      flag: '--limit',
      value: limitFlag,
      hint: 'Use either --share or --limit, not both.',
    });
  }
  const share = shareFlag !== undefined ? parseShareFlag(shareFlag) : (config.budget?.share ?? DEFAULT_SHARE);
  let limit: number;
  if (limitFlag !== undefined) limit = parseIntFlag('--limit', limitFlag, { min: 0, example: '8000' });
  else if (shareFlag === undefined && config.budget?.limit !== undefined) limit = config.budget.limit;
  else limit = Math.floor(share * max);
  // A limit above the window is no budget at all (and its share would be above 1).
  if (limit > max)
    throw new SmartError('BAD_FLAG', {
      flag: limitFlag !== undefined ? '--limit' : 'budget.limit',
      value: String(limit),
      hint: `Expected at most the context window (${maxFlag !== undefined ? '--max' : 'budget.max'} ${max}).`,
    });
  return { max, limit, share: limit / max };
}
