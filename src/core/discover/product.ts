/**
 * The product an intent names: a word written with a capital inside the sentence ("the GitHub repository", "my
 * Postman workspaces", "the LINE bot") that is a word of a server's name names that server. Other servers' tools
 * often speak of the product too (a code-quality server's "pull requests of a GitHub repository"), and their many
 * shared words can outscore the product's own tools. After the re-ranker, the best candidates of servers whose
 * names hold fewer of the named products than the best-named candidate's lose a share of the best score.
 * Proper nouns by their capital: a lower-case word ("time", "memory", "fetch") names a thing, not a server.
 */
import type { DiscoverIndex } from './build.js';
import { ACTION_PENALTY } from './actions.js';
import { bestScore, shiftScores } from './per-tool.js';
import { splitWords, STOP_WORDS } from './tokenize.js';

/** Share of the best candidate's score a candidate of a server not named loses (0.05 and 0.1 tried: bench/RESULTS.md). */
export const PRODUCT_SHARE = ACTION_PENALTY;

/** Capitalised words that do not open a sentence, lower-cased whole ("GitHub" → github, not git hub). */
export function properNouns(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b[A-Z][A-Za-z0-9]*\b/g)) {
    const w = m[0].toLowerCase();
    // The word opening a sentence is capitalised whatever it is; "I", "R" and stop words ("The") name no product.
    if (opensSentence(text, m.index) || w.length < 2 || STOP_WORDS.has(w)) continue;
    out.push(w);
  }
  return out;
}

/** Whether only spaces stand between `at` and the text's start or a sentence's end before it. */
function opensSentence(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && /\s/.test(text[i]!)) i--;
  return i < 0 || '.!?:;'.includes(text[i]!);
}

const serverWords = new WeakMap<DiscoverIndex, Map<string, Set<string>>>();

/** A server's name words, lower case ("github-archived" → github, archived), kept per index. */
function wordsOf(index: DiscoverIndex, server: string): Set<string> {
  let memo = serverWords.get(index);
  if (!memo) serverWords.set(index, (memo = new Map<string, Set<string>>()));
  let w = memo.get(server);
  if (!w) memo.set(server, (w = new Set(splitWords(server))));
  return w;
}

/**
 * Lowers `scores` of the best candidates (`best()`, asked for only when the intent has a proper noun) whose server's name holds fewer of the intent's proper
 * nouns than the best-named candidate's; returns what each lost (the `product` reason of --explain), or null.
 */
export function namedProducts(
  index: DiscoverIndex,
  intent: string,
  scores: Float32Array,
  best: () => readonly number[],
): Map<number, number> | null {
  const nouns = properNouns(intent);
  if (nouns.length === 0) return null;
  const cands = best();
  if (cands.length < 2) return null;
  const held = cands.map((i) => {
    const words = wordsOf(index, index.tools[i]!.server);
    let n = 0;
    for (const w of new Set(nouns)) if (words.has(w)) n++;
    return n;
  });
  const most = Math.max(...held);
  if (most === 0) return null;
  const top = bestScore(scores, cands);
  if (!(top > 0)) return null;
  const by = new Map(cands.map((i, k) => [i, held[k]!]));
  return shiftScores(scores, cands, -PRODUCT_SHARE * top, (i) => (most - by.get(i)!) / most);
}
