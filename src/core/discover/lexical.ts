/**
 * What an intent's words name in other words, from WordNet (data/wordnet-lexical.tsv.gz, built by
 * scripts/build-wordnet.mjs from WordNet 3.0):
 * - a question "how <adjective>" asks for the adjective's attribute: "how big is report.pdf" → size, "how far" →
 *   distance, "how old" → age (WordNet's attribute pointer); "how <adverb>" for its adjective's ("quickly" → speed);
 * - a question "who <verb>" asks for the verb's agent: "who owns" → owner, "who sent" → sender (WordNet's
 *   derivations that are persons);
 * bm25.ts adds them to the intent's query below a literal word's weight; --explain lists them (`read:` lines).
 * The table is read on the first intent that asks "how <word>" or "who <word>" (not a stop word: "how do I…"
 * loads nothing); other intents cost two regular expressions.
 * (Synonyms and hypernyms of every noun were tried as weak expansions and not kept: bench/RESULTS.md.)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { STOP_WORDS } from './tokenize.js';

export type ExpansionKind = 'attribute' | 'agent';

/** One word an intent's word stands for (`from` → `word`), and why. */
export interface Expansion {
  word: string;
  from: string;
  kind: ExpansionKind;
}

interface Row {
  attributes: readonly string[];
  agents: readonly string[];
}

/** undefined: not read yet; null: missing or unreadable (no expansions, as without the feature). */
let table: Map<string, Row> | null | undefined;
let file: string | null = fileURLToPath(new URL('../../../data/wordnet-lexical.tsv.gz', import.meta.url));
const split = (field: string | undefined): readonly string[] => (field ? field.split(' ') : []);

/** Points the table at another file (or none, with null), for tests and benchmarks; forgets what was read. */
export function setLexicalFile(path: string | null): void {
  file = path;
  table = undefined;
}

function load(): Map<string, Row> | null {
  if (table !== undefined) return table;
  table = null;
  if (file === null) return table;
  try {
    const map = new Map<string, Row>();
    for (const line of gunzipSync(readFileSync(file)).toString('utf8').split('\n')) {
      const f = line.split('\t');
      if (f.length < 3 || f[0] === '') continue;
      map.set(f[0]!, { attributes: split(f[1]), agents: split(f[2]) });
    }
    table = map;
  } catch {
    // Missing or unreadable: no expansions.
  }
  return table;
}

/** A verb and the base forms its inflection may stand for ("owns" → own, "reviewed" → review, "sent" stays). */
function verbForms(word: string): string[] {
  const out = [word];
  if (word.endsWith('ies')) out.push(`${word.slice(0, -3)}y`);
  else if (word.endsWith('es')) out.push(word.slice(0, -2), word.slice(0, -1));
  else if (word.endsWith('s')) out.push(word.slice(0, -1));
  if (word.endsWith('ed')) out.push(word.slice(0, -2), word.slice(0, -1));
  return out;
}

const HOW = /\bhow\s+(\p{L}+)/giu;
// "who" opening a question or clause ("who owns…", "…, and who approved it"), not a relative pronoun ("a friend who
// loves cooking").
const WHO = /(?:^|[.!?;:,]\s*|\band\s+)who\s+(\p{L}+)/giu;

/**
 * The words a request asks for through others: the attributes of the adjective after "how" and the agents of the
 * verb after "who" (WordNet's first two senses). Reads the table only when the request has either.
 */
export function lexicalExpansions(request: string): Expansion[] {
  const out: Expansion[] = [];
  // "how do I…", "who is…": a stop word after the question word asks for no attribute or agent.
  const after = (re: RegExp): string[] =>
    [...request.matchAll(re)].map((m) => m[1]!.toLowerCase()).filter((w) => !STOP_WORDS.has(w));
  const hows = after(HOW);
  const whos = after(WHO);
  if (hows.length === 0 && whos.length === 0) return out;
  const rows = load();
  if (!rows) return out;
  for (const adj of hows) {
    for (const word of rows.get(adj)?.attributes ?? []) out.push({ word, from: adj, kind: 'attribute' });
  }
  for (const verb of whos) {
    const form = verbForms(verb).find((v) => (rows.get(v)?.agents.length ?? 0) > 0);
    for (const word of form ? rows.get(form)!.agents : []) out.push({ word, from: verb, kind: 'agent' });
  }
  return out;
}

/** The --explain line of an expansion ("how big" read as size). */
export function expansionNote(e: Expansion): string {
  if (e.kind === 'attribute') return `"how ${e.from}" asks for the ${e.word} (WordNet attribute)`;
  return `"who ${e.from}" asks for the ${e.word} (WordNet derivation)`;
}
