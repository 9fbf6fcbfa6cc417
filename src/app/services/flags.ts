/** Converting flag strings to typed values at the command edge. A bad value names the flag. */
import { SmartError } from '../../process/errors.js';

export function parseIntFlag(flag: string, value: unknown, opts: { min?: number; max?: number } = {}): number {
  const text = String(value).replace(/_/g, '');
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n)) {
    throw new SmartError('BAD_FLAG', { flag, value: String(value), hint: 'Expected a whole number.' });
  }
  if (opts.min !== undefined && n < opts.min) {
    throw new SmartError('BAD_FLAG', { flag, value: String(value), hint: `Expected at least ${opts.min}.` });
  }
  // Beyond 2^53 counts are no longer exact integers (and JSON shows 1e+24).
  const max = Math.min(opts.max ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  if (n > max) {
    throw new SmartError('BAD_FLAG', { flag, value: String(value), hint: `Expected at most ${max}.` });
  }
  return n;
}

export function parseFloatFlag(flag: string, value: unknown, opts: { min?: number; max?: number } = {}): number {
  const n = Number(value);
  if (String(value).trim() === '' || !Number.isFinite(n)) {
    throw new SmartError('BAD_FLAG', { flag, value: String(value), hint: 'Expected a number.' });
  }
  if ((opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max)) {
    throw new SmartError('BAD_FLAG', {
      flag,
      value: String(value),
      hint: `Expected a number from ${opts.min ?? '-∞'} to ${opts.max ?? '∞'}.`,
    });
  }
  return n;
}

/** `--share`: a fraction of the window above 0 and at most 1 (budget.share 0 is invalid in the config too). */
export function parseShareFlag(value: unknown): number {
  const share = parseFloatFlag('--share', value);
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
