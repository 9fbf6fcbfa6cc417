/**
 * A server named through a word WordNet derives from the intent's ("remember" → memory): the user names the
 * product as surely as by its name, so the derived term weighs as a literal word (1, not RELATED_WEIGHT). Only a
 * term that is a whole server name counts ("memory", not "memory-bank"'s parts): a derivation that happens to be
 * one word of a longer product name says nothing about that product.
 */
import type { Bm25Query } from './bm25.js';
import type { DiscoverIndex } from './build.js';
import type { Intent } from './intent.js';
import { expansionNote, type Expansion } from './lexical.js';
import { RULE_NOTES } from './questions.js';
import { analyzeWords, splitWords } from './tokenize.js';

const names = new WeakMap<DiscoverIndex, Map<string, string>>();

/** The analysed names of the index's servers that are one term each (term → server), computed once per index. */
function serverTerms(index: DiscoverIndex): Map<string, string> {
  let out = names.get(index);
  if (out) return out;
  out = new Map();
  for (const server of new Set(index.tools.map((t) => t.server))) {
    const terms = analyzeWords(splitWords(server), [], index.unstemmed);
    if (terms.length === 1) out.set(terms[0]!, server);
  }
  names.set(index, out);
  return out;
}

/**
 * The query with its WordNet-related terms (the last `query.related`) that name a server weighing 1, and the servers
 * so named (for --explain). The query itself when none does.
 */
export function namedServers(index: DiscoverIndex, query: Bm25Query): { query: Bm25Query; named: string[] } {
  if (query.related === 0) return { query, named: [] };
  const servers = serverTerms(index);
  const start = query.terms.length - query.related;
  const named: string[] = [];
  let weights: number[] | null = null;
  for (let k = start; k < query.terms.length; k++) {
    const server = servers.get(query.terms[k]!);
    if (server === undefined) continue;
    weights ??= [...query.weights];
    weights[k] = 1;
    named.push(server);
  }
  return weights ? { query: { ...query, weights }, named } : { query, named: [] };
}

/**
 * The notes of --explain on how an intent was read: the command a question was ranked as (`text`, mood.ts), the
 * clause it asks to keep and is not ranked on, the servers named through a derivation (`named`), and the words the
 * intent's words were read as (`expansions`, lexical.ts).
 */
export function readingNotes(
  intent: Intent,
  named: readonly string[],
  joined: readonly string[] = [],
  expansions: readonly Expansion[] = [],
): string[] {
  const out: string[] = [];
  const { text, mood } = intent;
  const { rule, state = [] } = mood;
  if (text !== intent.raw)
    out.push(`ranked as the command "${text}"${rule ? ` (question grammar, ${rule}: ${RULE_NOTES[rule]})` : ''}`);
  const that = intent.kept;
  if (that >= 0) out.push(`kept clause, content to store, not ranked on: "${text.slice(that).trim()}"`);
  if (named.length > 0) out.push(`server named through a WordNet derivation: ${named.join(', ')}`);
  if (state.length > 0) out.push(`the state the things asked for are in, weighed less: "${state.join(' ')}"`);
  if (joined.length > 0) out.push(`words the catalogue writes as one: ${joined.join(', ')}`);
  for (const e of expansions) out.push(expansionNote(e));
  return out;
}
