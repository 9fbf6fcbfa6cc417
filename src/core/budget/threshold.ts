/** Growth thresholds: "5%" (of the baseline total) or "500" (tokens). */
import { readDecimal } from '../../process/decimal.js';

export type GrowthLimit = { kind: 'percent'; value: number } | { kind: 'tokens'; value: number };

export const DEFAULT_MAX_GROWTH: GrowthLimit = { kind: 'percent', value: 5 };

/**
 * Parses "5%", "2.5 %", "500" or 500 in plain decimal (not "0x10", "1e3%", "1_000" or " 500 ", which Number() reads
 * as numbers nobody wrote); undefined when the text is not a non-negative figure.
 */
export function parseGrowthLimit(input: string | number): GrowthLimit | undefined {
  if (typeof input === 'number') {
    return Number.isInteger(input) && input >= 0 ? { kind: 'tokens', value: input } : undefined;
  }
  const pct = /^(\S*?)\s*%$/.exec(input);
  const value = pct ? readDecimal(pct[1]!, 'decimal') : readDecimal(input, 'integer');
  if (value === undefined || value < 0 || value > Number.MAX_SAFE_INTEGER) return undefined;
  return { kind: pct ? 'percent' : 'tokens', value: value === 0 ? 0 : value }; // "-0" is 0
}

/** The canonical text of a limit, as written into the baseline: "5%" or "500". */
export function formatGrowthLimit(limit: GrowthLimit): string {
  return limit.kind === 'percent' ? `${limit.value}%` : String(limit.value);
}

/** Tokens a total of `before` may grow by under `limit` (fractional for percentages). */
export function allowedGrowth(limit: GrowthLimit, before: number): number {
  return limit.kind === 'percent' ? (before * limit.value) / 100 : limit.value;
}
