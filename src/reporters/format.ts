/** Numbers as every format shows them: thousands separators, counts with their noun, signed deltas, shares. */

import { countOf, formatTokens } from '../process/count-text.js';
import { redactFreeText } from '../process/redact.js';

export { countOf, formatTokens };

/**
 * The lines listing the intents whose expected tools all fell outside the top k, each with the tools ranked first
 * instead (discover --queries and check --queries), a key typed into an intent hidden; none when nothing missed.
 */
export function missLines(r: {
  k: number;
  misses?: { intent: string; expected: string[]; top: string[] }[];
  missCount?: number;
}): string[] {
  const misses = r.misses ?? [];
  if (misses.length === 0) return [];
  const more = (r.missCount ?? misses.length) - misses.length;
  return [
    `${countOf(r.missCount ?? misses.length, 'intent')} missed the top ${r.k}:`,
    ...misses.map(
      (m) =>
        `  "${redactFreeText(m.intent)}": expected ${m.expected.join(', ')}; ranked first: ${m.top.join(', ') || 'nothing'}`,
    ),
    ...(more > 0 ? [`  … and ${more} more`] : []),
  ];
}

/**
 * A percentage with one decimal, or more where one would misstate it: a 99.97 % cut is not "100.0%", and a
 * change of 0.04 % is not "0.0%".
 */
function percentText(pct: number): string {
  const text = pct.toFixed(1);
  if (pct === 0 || pct === 100 || (text !== '0.0' && text !== '100.0')) return text;
  for (const digits of [2, 3]) {
    const finer = pct.toFixed(digits);
    if (Number(finer) !== 0 && Number(finer) !== 100) return finer;
  }
  return pct < 50 ? '<0.001' : '>99.999';
}

/** Signed delta with a percentage: "+120 (+4.1%)", "-3 (-0.2%)", "0 (0.0%)"; growth from nothing is "new". */
export function formatDelta(delta: number, before: number): string {
  const sign = delta > 0 ? '+' : delta < 0 ? '-' : '';
  if (before === 0 && delta !== 0) return `${sign}${formatTokens(Math.abs(delta))} (new)`;
  const pct = before === 0 ? 0 : (Math.abs(delta) / before) * 100;
  return `${sign}${formatTokens(Math.abs(delta))} (${sign}${percentText(pct)}%)`;
}

/** 0.1234 → "12.3%". */
export function formatShare(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`;
}
