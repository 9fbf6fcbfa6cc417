/** Growth thresholds: "5%" (of the baseline total) or "500" (tokens). */

export type GrowthLimit = { kind: 'percent'; value: number } | { kind: 'tokens'; value: number };

export const DEFAULT_MAX_GROWTH: GrowthLimit = { kind: 'percent', value: 5 };

/** Parses "5%", "2.5 %", "500" or 500; undefined when the text is not a non-negative figure. */
export function parseGrowthLimit(input: string | number): GrowthLimit | undefined {
  if (typeof input === 'number') {
    return Number.isInteger(input) && input >= 0 ? { kind: 'tokens', value: input } : undefined;
  }
  const text = input.trim().replace(/_/g, '');
  const pct = /^(\d+(?:\.\d+)?)\s*%$/.exec(text);
  if (pct) return { kind: 'percent', value: Number(pct[1]) };
  if (/^\d+$/.test(text)) return { kind: 'tokens', value: Number(text) };
  return undefined;
}

/** The canonical text of a limit, as written into the baseline: "5%" or "500". */
export function formatGrowthLimit(limit: GrowthLimit): string {
  return limit.kind === 'percent' ? `${limit.value}%` : String(limit.value);
}

/** Tokens a total of `before` may grow by under `limit` (fractional for percentages). */
export function allowedGrowth(limit: GrowthLimit, before: number): number {
  return limit.kind === 'percent' ? (before * limit.value) / 100 : limit.value;
}
