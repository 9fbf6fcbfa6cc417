/** The secret values known to this run, so every exit (messages, streams, written files) can hide them. */
import { redactText, redactValues, type SecretValues } from './redact.js';

const known: SecretValues = { all: [], strong: [] };

/** Adds the values of the servers this run has read. */
export function rememberSecrets(values: SecretValues): void {
  const merge = (a: string[], b: string[]): string[] => [...new Set([...a, ...b])].sort((x, y) => y.length - x.length);
  known.all = merge(known.all, values.all);
  known.strong = merge(known.strong, values.strong);
}

/** Text a server sent back (stderr, error bodies, notes): every configured value, plus URL and bearer rules. */
export const scrubServerText = (text: string): string => redactText(text, known.all);

/** Our own messages (they name files and flags): the strong values, plus URL and bearer rules. */
export const scrubMessage = (text: string): string => redactText(text, known.strong);

/** Anything printed or written: the values that are secrets by position or name. */
export const scrubOutput = (text: string): string => redactValues(text, known.strong);

/** Each run starts with nothing known (in-process runs share the module). */
export function resetSecrets(): void {
  known.all = [];
  known.strong = [];
}
