/** Converting flag strings to typed values at the command edge. A bad value names the flag. */
import { parseNumberValue } from '../../process/decimal.js';
import { SmartError } from '../../process/errors.js';

type Range = { min?: number; max?: number; example: string };

/** A whole-number flag (`--max 128000`), plain digits only: see process/decimal.ts. */
export function parseIntFlag(flag: string, value: unknown, range: Range): number {
  return parseNumberValue(flag, value, { kind: 'integer', ...range });
}

/** A flag holding a number that may have a fraction (`--min-recall 0.8`), plain decimal only. */
export function parseFloatFlag(flag: string, value: unknown, range: Range): number {
  return parseNumberValue(flag, value, { kind: 'decimal', ...range });
}

/** `--share`: a fraction of the window above 0 and at most 1 (budget.share 0 is invalid in the config too). */
export function parseShareFlag(value: unknown): number {
  const share = parseFloatFlag('--share', value, { example: '0.1' });
  if (share > 0 && share <= 1) return share;
  throw new SmartError('BAD_FLAG', {
    flag: '--share',
    value: String(value),
    hint: 'Expected a fraction above 0 and at most 1 (e.g. 0.1).',
  });
}

/**
 * A flag holding a list (`--servers a,b`, `--scope "x y"`): its items split at `separators`, blanks dropped. A value of
 * separators only names nothing, and is refused: read as "none", it would mean "all" or "no check" downstream.
 */
export function parseListFlag(flag: string, value: string, separators: RegExp, hint: string): string[] {
  const items = value
    .split(separators)
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new SmartError('BAD_FLAG', { flag, value, hint });
  return items;
}

export function parseChoiceFlag<T extends string>(flag: string, value: unknown, choices: readonly T[]): T {
  const v = String(value);
  if ((choices as readonly string[]).includes(v)) return v as T;
  throw new SmartError('BAD_FLAG', { flag, value: v, hint: `Expected one of: ${choices.join(', ')}.` });
}

export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
