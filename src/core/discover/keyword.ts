/** The intent keyword router (router note): +2 per tool-keyword match, +1 per word found in name or description. */
import type { ToolRef } from '../types.js';
import { own } from '../dict.js';
import { splitWords, withoutBlobs } from './tokenize.js';

export interface KeywordDoc {
  keywords: string[];
  text: string;
}

/** Keywords of a tool: its name parts plus configured keywords for its id, its name or its server. */
export function keywordDoc(ref: ToolRef, configured: Record<string, string[]>): KeywordDoc {
  const extra = [
    // Own keys only: a tool or server named "constructor" must not pick up Object.prototype's member.
    ...(own(configured, ref.id) ?? []),
    ...(own(configured, ref.tool.name) ?? []),
    ...(own(configured, ref.server) ?? []),
  ];
  // Name parts of 1–2 letters ("a", "id") would match inside almost any word, so only longer parts count.
  const parts = splitWords(ref.tool.name).filter((p) => p.length > 2);
  const keywords = [...new Set([...parts, ...extra.map((k) => k.toLowerCase())])].filter((k) => k !== '');
  return { keywords, text: `${ref.tool.name} ${ref.tool.description ?? ''}`.toLowerCase() };
}

/**
 * Intent words longer than 2 characters; surrounding punctuation is trimmed so "file?" still counts. Encoded
 * blobs are dropped: as one "word" they would contain nearly every short keyword.
 */
export function intentWords(intent: string): string[] {
  return withoutBlobs(intent)
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((w) => w.length > 2);
}

/** Score of one tool; `strong` and `weak` are the two parts for --explain. */
export function keywordScore(doc: KeywordDoc, words: string[]): { strong: number; weak: number; matched: string[] } {
  let strong = 0;
  let weak = 0;
  const matched = new Set<string>();
  for (const keyword of doc.keywords) {
    for (const word of words) {
      if (keyword.includes(word) || word.includes(keyword)) {
        strong += 2;
        matched.add(word);
      }
    }
  }
  for (const word of words) {
    if (doc.text.includes(word)) {
      weak += 1;
      matched.add(word);
    }
  }
  return { strong, weak, matched: [...matched] };
}
