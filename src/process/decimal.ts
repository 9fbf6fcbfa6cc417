/**
 * Numbers as a user types them into a flag, a variable or a prompt: plain decimal only. JavaScript's Number() also
 * reads 0x100, 0b11, 1e3, " 12 " and Infinity, numbers the user never wrote (`--max 0x100` was a window of 256).
 */
import { SmartError } from './errors.js';

/** `integer`: digits only; `decimal`: digits with at most one point (0.25, .5). Both may start with a minus. */
export type DecimalKind = 'integer' | 'decimal';

const SPELLING: Record<DecimalKind, RegExp> = { integer: /^-?\d+$/, decimal: /^-?(?:\d+|\d*\.\d+)$/ };

/** The number `text` spells in plain decimal notation of that kind; undefined for any other spelling. */
export function readDecimal(text: string, kind: DecimalKind): number | undefined {
  return SPELLING[kind].test(text) ? Number(text) : undefined;
}

export interface NumberRules {
  kind: DecimalKind;
  min?: number;
  max?: number;
  /** A value that is accepted, shown in the error (`--max` → `--max 128000`, a variable → `NAME=512`). */
  example: string;
}

/**
 * The number a flag or variable `name` holds, in plain decimal and within [min, max]; anything else is BAD_FLAG
 * (exit 2) naming it and its value, with an example. Beyond 2^53 no value counts exactly, so none passes that.
 */
export function parseNumberValue(name: string, value: unknown, rules: NumberRules): number {
  const text = String(value);
  const refuse = (hint: string): SmartError => new SmartError('BAD_FLAG', { flag: name, value: text, hint });
  const n = readDecimal(text, rules.kind);
  if (n === undefined) {
    const what = rules.kind === 'integer' ? 'a whole number in plain digits' : 'a number in plain decimal notation';
    const example = name.startsWith('-') ? `${name} ${rules.example}` : `${name}=${rules.example}`;
    throw refuse(`Expected ${what}, e.g. ${example}.`);
  }
  const max = Math.min(rules.max ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const low = rules.min !== undefined && n < rules.min;
  if (!low && n <= max) return n;
  if (rules.kind === 'decimal') throw refuse(`Expected a number from ${rules.min ?? '-∞'} to ${max}.`);
  throw refuse(low ? `Expected at least ${rules.min}.` : `Expected at most ${max}.`);
}
