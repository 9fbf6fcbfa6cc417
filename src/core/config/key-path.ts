/** Dotted key paths for messages (`mcpServers.github.args[1]`) and "did you mean" suggestions. */

export type KeyPart = string | number;

/** A readable path: identifiers joined with dots, other names in ["…"], indexes in [n]. */
export function formatKeyPath(parts: readonly KeyPart[]): string {
  let out = '';
  for (const p of parts) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(p)) out += out === '' ? p : `.${p}`;
    else out += `[${JSON.stringify(p)}]`;
  }
  return out === '' ? '(top level)' : out;
}

/** Levenshtein distance (small inputs only). */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] as number;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] as number;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      prev[j] = Math.min(up + 1, (prev[j - 1] as number) + 1, diag + cost);
      diag = up;
    }
  }
  return prev[b.length] as number;
}

/** The closest candidate within a typo's reach, ties broken alphabetically. */
export function closestKey<T extends string>(word: string, candidates: readonly T[]): T | undefined {
  const lower = word.toLowerCase();
  let best: T | undefined;
  let bestDistance = Infinity;
  for (const c of [...candidates].sort()) {
    const d = editDistance(lower, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  const reach = Math.max(2, Math.floor(word.length / 3));
  return bestDistance <= reach ? best : undefined;
}

/** Names listed in full in an "unknown name" message; a longer list is cut (111 servers made a 2,000-character line). */
const LISTED_NAMES = 20;

/**
 * The details of an "unknown name" message (UNKNOWN_SERVER): the closest name within a typo's reach (else the first
 * that holds the word: "github" → "github-archived"), and the known names sorted, the first LISTED_NAMES of a longer
 * list with how many more there are.
 */
export function knownNames(word: string, names: Iterable<string>): { known: string; guess?: string } {
  const all = [...new Set(names)].sort();
  const lower = word.toLowerCase();
  const guess =
    closestKey(word, all) ?? (lower.length >= 3 ? all.find((n) => n.toLowerCase().includes(lower)) : undefined);
  const shown =
    all.length > LISTED_NAMES ? [...all.slice(0, LISTED_NAMES), `… ${all.length - LISTED_NAMES} more`] : all;
  return { known: shown.join(', ') || '(none)', ...(guess !== undefined ? { guess } : {}) };
}

/** "unknown key" reason with a suggestion and the list of what is allowed there. */
export function unknownKeyReason(key: string, known: readonly string[]): string {
  const guess = closestKey(key, known);
  const list = [...known].sort().join(', ');
  return guess
    ? `unknown key "${key}". Did you mean "${guess}"? Known keys here: ${list}.`
    : `unknown key "${key}". Known keys here: ${list || '(none)'}. Remove it or fix its name.`;
}

/** Type name for messages; never includes the value itself (it may be a secret). */
export function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

export { isObject as isPlainObject } from '../dict.js';
