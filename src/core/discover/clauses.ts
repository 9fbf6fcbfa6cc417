/** Multi-step intents: split a long task text into its clauses, so that each step's tool can surface. */

// Sentence ends (punctuation followed by a space or the end, so paths and decimals stay whole), semicolons,
// commas, new lines, and the words that join steps.
const SPLIT = /[.!?;:](?=\s|$)|,|\n|\b(?:and|then|also|after that|afterwards|finally|next|including|plus)\b/gi;
const WORD = /[\p{L}\p{N}]{2,}/u;

/** The clauses of an intent that hold at least `minWords` words; one clause means "not multi-step". */
export function intentClauses(intent: string, minWords = 2): string[] {
  const out: string[] = [];
  for (const part of intent.split(SPLIT)) {
    const text = part.trim();
    if (text.split(/\s+/).filter((w) => WORD.test(w)).length >= minWords) out.push(text);
  }
  return out;
}
