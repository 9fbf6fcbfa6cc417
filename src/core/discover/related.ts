/**
 * Words WordNet relates to a word by derivation, across parts of speech ("remember" → memory, "deploy" →
 * deployment, "summarize" → summary), which the stemmer does not join: data/wordnet-related.tsv.gz, built from
 * WordNet 3.0 by scripts/build-wordnet.mjs (kept only where the word vectors agree the two are near). bm25.ts adds
 * them to an intent's query at a low weight. The file is read on the first lookup only.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { stem } from './tokenize.js';

/** undefined: not read yet; null: missing or unreadable (no related words, as without the feature). */
let table: Map<string, readonly string[]> | null | undefined;
let file: string | null = defaultRelatedFile();
const NONE: readonly string[] = [];

export function defaultRelatedFile(): string {
  return fileURLToPath(new URL('../../../data/wordnet-related.tsv.gz', import.meta.url));
}

/** Points the table at another file (or none, with null), for tests and benchmarks; forgets what was read. */
export function setRelatedFile(path: string | null): void {
  file = path;
  table = undefined;
}

function load(): Map<string, readonly string[]> | null {
  if (table !== undefined) return table;
  table = null;
  if (file === null) return table;
  try {
    const map = new Map<string, readonly string[]>();
    for (const line of gunzipSync(readFileSync(file)).toString('utf8').split('\n')) {
      const tab = line.indexOf('\t');
      if (tab > 0) map.set(line.slice(0, tab), line.slice(tab + 1).split(' '));
    }
    table = map;
  } catch {
    // Missing or unreadable: no related words.
  }
  return table;
}

let verbs: Set<string> | null | undefined;
/** The list's words as written (isVerbWord). */
let verbWords: Set<string> | null = null;
let verbsFile: string | null = fileURLToPath(new URL('../../../data/wordnet-verbs.txt.gz', import.meta.url));

/** Points the verb list at another file (or none, with null); forgets what was read. */
export function setVerbsFile(path: string | null): void {
  verbsFile = path;
  verbs = undefined;
}

/**
 * Whether a (stemmed) word is mostly a verb in WordNet (data/wordnet-verbs.txt.gz: "send", "deploy", "sync"; not
 * "list" or "channel", nouns as often). False when the list is missing.
 */
export function isVerb(term: string): boolean {
  return loadVerbs()?.has(term) === true;
}

/** Whether a lower-case word, as written (not stemmed), is one of the list's verbs ("collect", not "collection"). */
export function isVerbWord(word: string): boolean {
  loadVerbs();
  return verbWords?.has(word) === true;
}

function loadVerbs(): Set<string> | null {
  if (verbs === undefined) {
    verbs = null;
    verbWords = null;
    try {
      if (verbsFile !== null) {
        const words = gunzipSync(readFileSync(verbsFile)).toString('utf8').split('\n');
        verbWords = new Set(words.filter((w) => w !== ''));
        verbs = new Set([...verbWords].map((w) => stem(w)));
      }
    } catch {
      // Missing or unreadable: no verbs.
    }
  }
  return verbs;
}

/** The words related to a lower-case word (none when it has none or the table is missing). */
export function relatedWords(word: string): readonly string[] {
  return load()?.get(word) ?? NONE;
}
