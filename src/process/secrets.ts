/** The secret values known to this run, so every exit (messages, streams, written files) can hide them. */
import { isPlainWord, redactText, redactValues, type SecretValues } from './redact.js';

const known: SecretValues = { all: [], strong: [] };

/** Adds the values of the servers this run has read. */
export function rememberSecrets(values: SecretValues): void {
  const merge = (a: string[], b: string[]): string[] => [...new Set([...a, ...b])].sort((x, y) => y.length - x.length);
  known.all = merge(known.all, values.all);
  known.strong = merge(known.strong, values.strong);
}

/**
 * What a file built value by value (adopt's mcp-smart.config.json) is scrubbed of, and what the run prints of it:
 * `plain` are the strings written as the client's file has them (`X-Tenant: my-company`, `--org my-company`), so a
 * known value inside one is no longer hidden (hiding it would corrupt them);
 * `secret` are the literals replaced by variables, hidden from now on wherever they appear. A value that is part of a secret, or holds one,
 * stays hidden.
 */
export function keepPlainValues(plain: readonly string[], secret: readonly string[]): void {
  const hidden = secret.filter((s) => s.length >= 4 && !isPlainWord(s));
  const isSecret = (v: string): boolean => hidden.some((s) => s.includes(v) || v.includes(s));
  known.strong = known.strong.filter((v) => isSecret(v) || !plain.some((p) => p.includes(v)));
  rememberSecrets({ all: hidden, strong: hidden });
}

/** Text a server sent back (stderr, error bodies, notes): every configured value, plus URL and bearer rules. */
export const scrubServerText = (text: string): string => redactText(text, known.all);

/** Our own messages (they name files and flags): the strong values, plus URL and bearer rules. */
export const scrubMessage = (text: string): string => redactText(text, known.strong);

/** Anything printed or written: the values that are secrets by position or name. */
export const scrubOutput = (text: string): string => redactValues(text, known.strong);

/** What a listed entry is called by (tools/call names it, resources/read reads it): never rewritten. */
const IDENTIFIERS: ReadonlySet<string> = new Set(['name', 'uri', 'uriTemplate']);

/**
 * Entries a server listed (tools, prompts, resources) with every secret value this run knows replaced in their text,
 * as scrubOutput writes them: the same array when none is there. A server that puts its own API key in a description
 * or a default then gives the same definitions live as from the cache (written scrubbed), and the model never sees
 * it. What calls depend on stays as sent: each entry's name and URI, and every object key (argument names).
 */
export function scrubListed<T>(entries: T[]): T[] {
  return scrubSentError(entries);
}

/**
 * An error a server sent back that goes on to the client and the model (a tool result with isError, a JSON-RPC
 * error's message), with the known secrets hidden as scrubListed hides them: a server that quotes its own key in
 * "token … was rejected" does not hand it to the model. A successful result is passed on unchanged.
 */
export function scrubSentError<T>(value: T): T {
  return known.strong.length === 0 ? value : (scrubStrings(value, IDENTIFIERS) as T);
}

const NONE: ReadonlySet<string> = new Set();

/**
 * `v` with the known secrets replaced in its string values (keys kept; `keep`: the keys of the objects at this level
 * whose values are left as they are); the same value when none is there.
 */
function scrubStrings(v: unknown, keep: ReadonlySet<string> = NONE): unknown {
  if (typeof v === 'string') return redactValues(v, known.strong);
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    v.forEach((x, i) => {
      const y = scrubStrings(x, keep);
      if (y !== x) (out ??= v.slice())[i] = y;
    });
    return out ?? v;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [k, x] of Object.entries(v)) {
    if (keep.has(k)) continue;
    const y = scrubStrings(x);
    if (y !== x) (copy ??= { ...(v as Record<string, unknown>) })[k] = y;
  }
  return copy ?? v;
}

/** Each run starts with nothing known (in-process runs share the module). */
export function resetSecrets(): void {
  known.all = [];
  known.strong = [];
}
