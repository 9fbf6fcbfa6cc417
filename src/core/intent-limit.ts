/**
 * How much of an intent is ranked. An intent is a task in plain words: a sentence or a paragraph. Ranking reads
 * every word of it against the whole catalogue, so an intent of a megabyte (a pasted file, a hostile client) took
 * minutes and held serve's one thread; only its first MAX_INTENT_CHARS characters are ranked, and the caller says
 * so (discover and check on stderr, find_tool in its answer). The one place the limit lives.
 */

/** The characters of an intent (or of one of find_tool's `queries`) that are ranked. */
export const MAX_INTENT_CHARS = 2_000;

export interface CappedIntent {
  text: string;
  /** The length it had (UTF-16 code units), when it was cut; undefined when it was kept whole. */
  cutFrom?: number;
}

/** The intent's first MAX_INTENT_CHARS characters (never splitting a surrogate pair). */
export function capIntent(text: string, max = MAX_INTENT_CHARS): CappedIntent {
  if (text.length <= max) return { text };
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return { text: text.slice(0, end), cutFrom: text.length };
}

/** The words that say an intent was cut. */
export function cutIntentNote(what: string, cutFrom: number, max = MAX_INTENT_CHARS): string {
  return `${what} has ${cutFrom.toLocaleString('en-US')} characters; only its first ${max.toLocaleString('en-US')} are ranked`;
}
