/**
 * Words an intent writes apart that the catalogue writes as one ("Microsoft To Do" → todo, "free busy" →
 * freebusy, "web hook" → webhook, "my sql" → mysql): two adjacent words of the request whose join is a term of a
 * tool's name are also searched joined. A surface form, checked against the catalogue's own vocabulary, not a list. (A
 * compound written with a hyphen or a slash is joined in every case: tokenize.ts, joinedCompounds.)
 */
import type { Bm25Index, Bm25Query } from './bm25.js';
import type { DiscoverIndex } from './build.js';
import { analyzeWords, splitWords, STOP_WORDS } from './tokenize.js';

const capital = (word: string): boolean => /^\p{Lu}/u.test(word);

/** Tools whose names are read for a join (the first of its postings): a join that only descriptions hold is not one. */
const NAMES_READ = 64;

/** Whether a term is in some tool's name (among the first NAMES_READ tools holding it). */
function inName(index: DiscoverIndex, bm: Bm25Index, term: string): boolean {
  const docs = bm.postings.get(term)?.docs;
  if (!docs) return false;
  for (let k = 0; k < docs.length && k < NAMES_READ; k++) if (index.nameOf(docs[k]!).includes(term)) return true;
  return false;
}

/** Weight of a joined term: what the user wrote, in another spelling. */
export const JOINED_WEIGHT = 0.5;

/**
 * The query with the joins of adjacent request words that are index terms appended (at JOINED_WEIGHT, also as
 * literal terms, which the re-ranker reads), and those joins as written (for --explain). The query itself when none.
 */
export function joinedWords(
  index: DiscoverIndex,
  bm: Bm25Index,
  query: Bm25Query,
  request: string,
  unstemmed?: (word: string) => boolean,
): { query: Bm25Query; joined: string[] } {
  if (JOINED_WEIGHT <= 0) return { query, joined: [] };
  const written = [...request.matchAll(/[\p{L}\p{N}]+/gu)].flatMap((m) =>
    splitWords(m[0]).map((w) => ({ w, m: m[0] })),
  );
  let out: Bm25Query | null = null;
  const joined: string[] = [];
  for (let k = 0; k + 1 < written.length; k++) {
    const a = written[k]!.w;
    const b = written[k + 1]!.w;
    if (a.length < 2 || b.length < 2 || !/^[a-z]+$/.test(a) || !/^[a-z]+$/.test(b)) continue;
    // A stop word joins only inside a name written capitalised ("Microsoft To Do"), not in "for me" or "app is".
    if ((STOP_WORDS.has(a) || STOP_WORDS.has(b)) && !(capital(written[k]!.m) && capital(written[k + 1]!.m))) continue;
    const word = a + b;
    if (STOP_WORDS.has(word)) continue;
    const terms = analyzeWords([word], [], unstemmed);
    const t = terms.length === 1 ? terms[0]! : undefined;
    if (t === undefined || (out ?? query).terms.includes(t) || !inName(index, bm, t)) continue;
    out ??= { ...query, terms: [...query.terms], weights: [...query.weights], literal: [...query.literal] };
    // Literal terms come first in `terms` (the kept clause's weights are read by position): insert after them.
    const at = out.literal.length;
    out.terms.splice(at, 0, t);
    out.weights.splice(at, 0, JOINED_WEIGHT);
    out.literal.push(t);
    joined.push(`${a} ${b} → ${word}`);
  }
  return out ? { query: out, joined } : { query, joined: [] };
}
