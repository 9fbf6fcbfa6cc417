/**
 * General lexical knowledge the discover engines share: the action classes of everyday verbs (users and tool
 * names say the same action with different verbs), the spans of an intent that are payload (quoted text, code,
 * JSON, URLs, paths) rather than the request, and the product names the stemmer must leave alone. (Abbreviations
 * are read in the tokenizer, tokenize.ts, as every word passes it.)
 * Lexical resources, not lists of intents: the development sets measure each (bench/discover.mjs --stages).
 */
import { STOP_WORDS, splitWords, stem } from './tokenize.js';

/** The four actions tools perform. */
export type ActionClass = 'create' | 'delete' | 'read' | 'update';

// Each class: the verbs tool names use for it (`tool`, what a query is expanded with) and the everyday verbs users
// say for it (`everyday`). Both are members of the class. The re-ranker reads a tool name's first word against it.
const CLASSES: Record<ActionClass, { tool: string; everyday: string }> = {
  create: {
    tool: 'create add insert save store write',
    everyday: 'new make post upload remember register open start generate append put',
  },
  delete: {
    tool: 'delete remove',
    everyday:
      'drop erase destroy forget purge unregister clear cancel close stop kill revoke uninstall wipe discard trash',
  },
  read: {
    tool: 'search read list find query fetch retrieve',
    everyday: 'get show view look display describe check lookup browse see grab',
  },
  update: {
    tool: 'update edit modify set',
    everyday: 'change rename patch replace move adjust configure bump',
  },
};

// Everyday phrases whose words alone name no action (their verb is a stop word or a particle changes it).
const PHRASES: [RegExp, ActionClass][] = [
  [/\b(?:jot|note|write|put|take) (?:\w+ )?down\b/, 'create'],
  [/\bmake (?:a |an )?note\b/, 'create'],
  [/\bkeep (?:a )?(?:track|record|note)\b/, 'create'],
  [/\bget rid of\b/, 'delete'],
  [/\b(?:throw|take) (?:\w+ )?away\b/, 'delete'],
  [/\b(?:clean|wipe) (?:\w+ )?(?:up|out)\b/, 'delete'],
  [/\blook (?:\w+ )?up\b/, 'read'],
  [/\b(?:look|search) for\b/, 'read'],
  [/\bfind out\b/, 'read'],
  [/\bwhat (?:do|did|does) (?:we|i|you) know\b/, 'read'],
  [/\b(?:know|tell me) about\b/, 'read'],
];

const ACTIONS = new Map<string, ActionClass>();
/** The classes' verbs as written (actionWord). */
const ACTION_WORDS = new Set<string>();
const TOOL_VERBS = new Map<ActionClass, string[]>();
for (const [cls, { tool, everyday }] of Object.entries(CLASSES) as [ActionClass, (typeof CLASSES)[ActionClass]][]) {
  for (const w of `${tool} ${everyday}`.split(' ')) {
    ACTIONS.set(stem(w), cls);
    ACTION_WORDS.add(w);
  }
  TOOL_VERBS.set(
    cls,
    tool.split(' ').map((w) => stem(w)),
  );
}

/** The action class an (analysed) term names, or undefined. */
export function actionOf(term: string | undefined): ActionClass | undefined {
  return term === undefined ? undefined : ACTIONS.get(term);
}

/** Whether a lower-case word, as written, is one of the action classes' verbs ("list", "new"; not "news"). */
export function actionWord(word: string): boolean {
  return ACTION_WORDS.has(word);
}

/**
 * The action a tool's name says it performs: the class of the first of its first two (analysed) words that has
 * one, so that a leading namespace counts for nothing ("DNS_deleteRecords", "kv_put" as well as "delete_record").
 */
export function toolAction(name: readonly string[]): ActionClass | undefined {
  for (let i = 0; i < 2 && i < name.length; i++) {
    const cls = actionOf(name[i]);
    if (cls === undefined) continue;
    // An HTTP method before the tool's own verb ("API-post-search" searches): the verb says what it does.
    return (HTTP_METHODS.has(name[i]!) ? actionOf(name[i + 1]) : undefined) ?? cls;
  }
  return undefined;
}
const HTTP_METHODS = new Set(['post', 'put', 'patch'].map((w) => stem(w)));

/**
 * A tool name's words as toolAction reads them: stemmed, without stop words unless they are verbs of an action class
 * ("get": analysed names drop it, and "get_monitors" would read as "monitor", mostly a verb in WordNet).
 */
export function actionNameWords(name: string): string[] {
  return splitWords(name)
    .filter((w) => !STOP_WORDS.has(w) || actionOf(stem(w)) !== undefined)
    .map((w) => stem(w));
}

/** The (analysed) verbs tool names use for an action class. */
export function toolVerbs(cls: ActionClass): readonly string[] {
  return TOOL_VERBS.get(cls)!;
}

/** Whether a tool doing `tool` contradicts an intent asking for `intent` (add vs delete, read vs write). */
export function actionsConflict(intent: ActionClass, tool: ActionClass): boolean {
  if (intent === tool) return false;
  // Creating and updating are near (an upsert, "set" a value that may not exist yet); the rest contradict.
  return !((intent === 'create' && tool === 'update') || (intent === 'update' && tool === 'create'));
}

// Where a clause's verb stands: after the start, a sentence end or a clause joiner, past the words that ask
// ("please", "can you", "I want to", …), which are stop words or these.
const CLAUSE = /[.!?;:\n]+\s|,\s*|\b(?:and|then|also)\b/i;
const ASKING = new Set([
  'please',
  'kindly',
  'pls',
  'help',
  'try',
  'go',
  'ahead',
  'quickly',
  'now',
  'just',
  'd',
  'll',
  've',
  'm',
  're',
]);
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The action classes an intent asks for: the class of each clause's first content word (the imperative verb of
 * "remember that alice …", "could you add …") and of the everyday phrases it holds ("get rid of", "look up").
 * `isStop` tells the words that are not content (the tokenizer's stop words).
 */
export function intentActions(intent: string, isStop: (word: string) => boolean): Set<ActionClass> {
  const out = new Set<ActionClass>();
  const lower = intent.toLowerCase();
  for (const [re, cls] of PHRASES) if (re.test(lower)) out.add(cls);
  for (const clause of lower.split(CLAUSE)) {
    for (const m of clause.matchAll(WORD)) {
      const w = m[0];
      if (isStop(w) || ASKING.has(w)) continue;
      const cls = ACTIONS.get(stem(w));
      if (cls) out.add(cls);
      break;
    }
  }
  return out;
}

/**
 * Weight of a term the intent holds only inside payload (lexicon.ts, payloadSpans: quoted text, code, JSON, URLs,
 * paths, SQL): the content a request carries says little about which tool, and many such words pull in unrelated
 * tools. BM25 (bm25Query) and the sentence vector (sif.ts, intentVector) both weigh it so.
 */
export const PAYLOAD_WEIGHT = 0.3;

/**
 * Weight of a term the intent holds only in the clause it asks to keep ("remember that alice works at acme"): what
 * is to be stored says nothing about the store ("works" pulled in every tool that "only works within allowed
 * directories"), so neither BM25 nor the sentence vector reads it.
 */
export const KEPT_WEIGHT = 0;

// Payload inside an intent: text the request carries, not words that say which tool. Quoted or back-quoted text,
// braces and brackets (JSON, lists), URLs, paths, and SQL statements.
const PAYLOAD = new RegExp(
  [
    '```[\\s\\S]*?```',
    ':[ \\t]*\\n[\\s\\S]*',
    '`[^`]+`',
    '"[^"]{2,}"',
    '“[^”]{2,}”',
    "(?<=^|[\\s(:=,])'[^'\\n]{2,}'(?=$|[\\s).,;:!?])",
    '\\{[^{}]*(?:\\{[^{}]*\\}[^{}]*)*\\}',
    '\\[[^\\[\\]]{2,}\\]',
    '\\b[a-z][a-z0-9+.-]*://\\S+',
    '(?<=^|\\s)(?:~|\\.{1,2})?(?:/[\\w.@-]+){2,}/?',
    '\\b(?:select\\s[\\s\\S]+?\\sfrom|insert\\s+into|delete\\s+from|update\\s+\\w+\\s+set|create\\s+table|drop\\s+table|alter\\s+table)\\b[^;\\n]*',
  ].join('|'),
  'gi',
);

/** The [start, end) spans of an intent that are payload (see PAYLOAD); none in a short plain intent. */
export function payloadSpans(intent: string): [number, number][] {
  const out: [number, number][] = [];
  for (const m of intent.matchAll(PAYLOAD)) out.push([m.index, m.index + m[0].length]);
  const that = keptClause(intent);
  if (that >= 0 && !out.some(([a, b]) => a <= that && that < b)) out.push([that, intent.length]);
  return out;
}

/** What a ranking has already read of an intent's text (intent.ts Intent): its request and kept clause. */
export interface ReadText {
  /** withoutPayload(text). */
  readonly plain: string;
  /** keptClause(text). */
  readonly kept: number;
}

/** The intent with its payload spans (payloadSpans) replaced by a space; the intent itself when it has none. */
export function withoutPayload(intent: string): string {
  const that = keptClause(intent);
  const request = that >= 0 ? intent.slice(0, that) : intent;
  return request.replace(PAYLOAD, ' ');
}

const THAT = /^(\W*)([\p{L}\p{N}]+)\s+that\s+(?=\S)/u;

/**
 * Where the clause a request asks to keep starts ("remember that alice works at acme", "note that the build is
 * green"): the words after "that" when the request's first word is a verb of the create class. That clause is
 * content to store, as quoted text is, not words saying which tool. -1 when there is none.
 */
export function keptClause(intent: string): number {
  const m = THAT.exec(intent.toLowerCase());
  return m && ACTIONS.get(stem(m[2]!)) === 'create' ? m[0].length : -1;
}

const isLower = (c: number): boolean => c >= 97 && c <= 122;
const isUpper = (c: number): boolean => c >= 65 && c <= 90;

/**
 * Whether a capitalised word at [at, end) stands inside a sentence: after a lower-case word (and maybe a comma), so
 * not at a sentence's or a list item's start, and not in a run of capitalised words (a Title Case heading).
 */
function insideSentence(text: string, at: number, end: number): boolean {
  if (text.charCodeAt(end) === 32 && isUpper(text.charCodeAt(end + 1))) return false;
  let i = at - 1;
  if (text.charCodeAt(i) !== 32) return false;
  i--;
  if (text.charCodeAt(i) === 44) i--; // a comma
  const wordEnd = i;
  while (i >= 0 && isLower(text.charCodeAt(i))) i--;
  if (i === wordEnd) return false;
  return i < 0 || text[i] === ' ' || text[i] === '(' || text[i] === '\n';
}

/** Whether the stemmer takes more than an inflection off a word ("remotion" → "remot", not "redis" → "redi"). */
export function overStemmed(word: string): boolean {
  const inflection = /ing$/.test(word) ? 3 : /(?:ies|es|ed)$/.test(word) ? 2 : /s$/.test(word) ? 1 : 0;
  return stem(word).length < word.length - inflection - 1;
}

/**
 * A capitalised word of four letters or more standing alone: not inside an identifier, so between characters outside
 * [A-Za-z0-9_-] (`\w` is ASCII without the u flag). Only these few words of a description are looked at one by one.
 */
const CAPITALISED = /(?<![\w-])[A-Z][a-z]{3,}(?![\w-])/g;

/**
 * The product names of a set of tools that the stemmer would merge with other words: words written capitalised
 * inside their descriptions' sentences, or words of their servers' names, that no description writes in lower case
 * (as a word standing alone, as CAPITALISED stands), and that the stemmer cuts deeper than an inflection ("Remotion"
 * would become "remot", as "remote" does). They are indexed and searched as they are (analyzeWords' `unstemmed`).
 */
export function productNames(
  tools: readonly { server: string; tool: { description?: string; title?: string } }[],
): Set<string> {
  const candidates = new Set<string>();
  const texts: string[] = [];
  for (const t of tools) {
    for (const text of [t.tool.description, t.tool.title]) {
      if (!text) continue;
      texts.push(text);
      for (const m of text.matchAll(CAPITALISED))
        if (insideSentence(text, m.index, m.index + m[0].length)) candidates.add(m[0].toLowerCase());
    }
  }
  for (const server of new Set(tools.map((t) => t.server))) for (const w of splitWords(server)) candidates.add(w);
  const merged = [...candidates].filter(
    (w) => w.length >= 4 && !STOP_WORDS.has(w) && /^[a-z]+$/.test(w) && overStemmed(w),
  );
  const lower = writtenInLowerCase(texts, merged);
  return new Set(merged.filter((w) => !lower.has(w)));
}

/**
 * Which of `words` (lower-case letters, four or more) some text writes in lower case as a word standing alone: one
 * pass of one expression per text, for these few words only. A set of every lower-case word of every description,
 * or a scan of their characters in JavaScript, was most of productNames' time on a first run.
 */
function writtenInLowerCase(texts: readonly string[], words: readonly string[]): Set<string> {
  const found = new Set<string>();
  if (words.length === 0) return found;
  const any = new RegExp(`(?<![\\w-])(?:${words.join('|')})(?![\\w-])`, 'g');
  for (const text of texts) {
    for (const m of text.matchAll(any)) found.add(m[0]);
    if (found.size === words.length) break;
  }
  return found;
}
