/** Text → index terms: identifier splitting, stop words, Porter stemming, CJK character bigrams, Chinese glosses. */
import { stemmer } from 'stemmer';
import { CJK_SCRIPTS, splitUnicode } from './split-unicode.js';

export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both ' +
    'but by can could did do does doing down during each either etc few for from further get gets had has have having he her here ' +
    'hers him his how i if in into is it its itself just me more most my no nor not now of off on once only or other our ours ' +
    'out over own per please same she should so some such than that the their theirs them then there these they this those ' +
    'through to too under until up upon us very via was we were what when where which while who whom why will with would ' +
    'you your yours e g i.e eg ie let lets want need like using use used'
  ).split(' '),
);

// Han, Hiragana, Katakana and Hangul runs have no spaces: index them as overlapping character bigrams.
const CJK = new RegExp(`[${CJK_SCRIPTS}]`, 'u');
const ASCII = /^[\x00-\x7f]*$/;
// What only the Unicode path reads as (part of) a word: a letter or digit, or a character of a CJK script (a Han
// radical "⺀" is neither, and a word there).
const UNICODE_WORDISH = new RegExp(`[\\p{L}\\p{N}${CJK_SCRIPTS}]`, 'u');

// Character classes of the ASCII scanner.
const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const CLASS = new Uint8Array(128);
for (let c = 97; c <= 122; c++) CLASS[c] = LOWER;
for (let c = 65; c <= 90; c++) CLASS[c] = UPPER;
for (let c = 48; c <= 57; c++) CLASS[c] = DIGIT;

/**
 * "getUserProfile", "read_file", "list-dirs" → lower-case words. Keeps CJK runs whole, each followed by the English
 * words of its Chinese glosses (gloss.ts), so that English and Chinese texts share words.
 */
export function splitWords(text: string): string[] {
  // Fast path: one scan over char codes while the letters are ASCII (the Unicode regexes cost several times more).
  const out: string[] = [];
  const n = text.length;
  let start = -1;
  let prev = OTHER;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    let cls = OTHER;
    if (c < 128) cls = CLASS[c]!;
    // Other punctuation, symbols and spaces ("•", "→", "—", an emoji) separate words here as in splitUnicode; a
    // letter or digit outside ASCII ("é", "𝐀": a surrogate pair is tested as the one character it makes) or a CJK
    // character takes the Unicode path.
    else if (UNICODE_WORDISH.test(c >= 0xd800 && c <= 0xdbff ? String.fromCodePoint(text.codePointAt(i)!) : text[i]!))
      return splitUnicode(text);
    if (cls === OTHER) {
      if (start >= 0) out.push(text.slice(start, i).toLowerCase());
      start = -1;
    } else if (start < 0) {
      start = i;
    } else if (
      cls === UPPER &&
      (prev === LOWER || prev === DIGIT || (prev === UPPER && i + 1 < n && CLASS[text.charCodeAt(i + 1)]! === LOWER))
    ) {
      // camelCase ("userProfile") and acronym ends ("HTMLParser" → html parser).
      out.push(text.slice(start, i).toLowerCase());
      start = i;
    }
    prev = cls;
  }
  if (start >= 0) out.push(text.slice(start).toLowerCase());
  return out;
}

const stemCache = new Map<string, string>();
const CACHE_MAX = 200_000;

/** Porter stem of a lower-case word, memoised (the corpus repeats words a lot). */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = isLatin(word) ? stemmer(word) : word;
    if (stemCache.size < CACHE_MAX) stemCache.set(word, s);
  }
  return s;
}

function isLatin(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 97 || c > 122) return false;
  }
  return word.length > 0;
}

export function isCjk(word: string): boolean {
  return !ASCII.test(word) && CJK.test(word);
}

/** Character bigrams of a CJK run (the run itself when it is one character); characters are code points. */
export function cjkBigrams(run: string): string[] {
  // Cut from the run between every other character's start (no array of characters, no string joined per bigram).
  const out: string[] = [];
  let a = 0;
  let b = nextChar(run, 0);
  if (b >= run.length) return run.length > 0 ? [run] : out;
  for (let c = nextChar(run, b); ; c = nextChar(run, c)) {
    out.push(run.slice(a, c));
    if (c >= run.length) return out;
    a = b;
    b = c;
  }
}

/** Where the code point after the one at `i` starts (a surrogate pair is one code point, a lone surrogate another). */
function nextChar(text: string, i: number): number {
  return i + ((text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1);
}

// Abbreviations that tool texts and intents both use, each read as its full form on both sides (the tokenizer
// replaces the word), so "docs" finds "documentation" and "repository" finds "repo".
const ABBREVIATIONS: Record<string, string> = {
  docs: 'documentation',
  doc: 'document',
  repo: 'repository',
  repos: 'repositories',
  pr: 'pull request',
  prs: 'pull requests',
  mr: 'merge request',
  mrs: 'merge requests',
  a11y: 'accessibility',
  i18n: 'internationalization',
  db: 'database',
  dbs: 'databases',
  k8s: 'kubernetes',
  env: 'environment',
  envs: 'environments',
  msg: 'message',
  msgs: 'messages',
  cal: 'calendar',
  config: 'configuration',
  configs: 'configurations',
  cfg: 'configuration',
  info: 'information',
  auth: 'authentication',
  dir: 'directory',
  dirs: 'directories',
  img: 'image',
  imgs: 'images',
  pic: 'picture',
  pics: 'pictures',
  dm: 'direct message',
  dms: 'direct messages',
  org: 'organization',
  orgs: 'organizations',
  calc: 'calculate',
  stats: 'statistics',
  params: 'parameters',
  param: 'parameter',
  txn: 'transaction',
  txns: 'transactions',
  addr: 'address',
  num: 'number',
  qty: 'quantity',
};

/** The full form's words of an abbreviation (lower case), or undefined. */
export function expandAbbreviation(word: string): string[] | undefined {
  const full = Object.hasOwn(ABBREVIATIONS, word) ? ABBREVIATIONS[word] : undefined;
  return full === undefined ? undefined : full.split(' ');
}

/** CJK runs up to this many code units are kept in the term cache (a word's length, as a Latin word is). */
export const CJK_KEPT_LENGTH = 4;
const NONE: readonly string[] = [];
/** Word → its index terms with stemming and stop words (the default analysis), memoised per distinct word. */
const termCache = new Map<string, readonly string[]>();

function wordTerms(word: string, doStem: boolean, dropStop: boolean, cjk = isCjk(word)): readonly string[] {
  if (cjk) return cjkBigrams(word);
  if (word.length < 2 && !/\d/.test(word)) return NONE;
  if (dropStop && STOP_WORDS.has(word)) return NONE;
  const full = expandAbbreviation(word);
  if (full) return full.map((w) => (doStem ? stem(w) : w));
  return [doStem ? stem(word) : word];
}

/**
 * Index terms of already split words (see splitWords). `unstemmed` names the words that are their own term (the
 * product names of an index, lexicon.ts productNames: "remotion" is not stemmed onto "remote").
 */
export function analyzeWords(
  words: readonly string[],
  out: string[] = [],
  unstemmed?: (word: string) => boolean,
): string[] {
  for (const word of words) {
    if (unstemmed !== undefined && unstemmed(word)) {
      out.push(word);
      continue;
    }
    let terms = termCache.get(word);
    if (terms === undefined) {
      const cjk = isCjk(word);
      terms = wordTerms(word, true, true, cjk);
      // A long CJK run (a clause of Chinese between punctuation) seldom comes again: not kept.
      if (termCache.size < CACHE_MAX && !(cjk && word.length > CJK_KEPT_LENGTH && terms.length > 1))
        termCache.set(word, terms);
    }
    for (let i = 0; i < terms.length; i++) out.push(terms[i]!);
  }
  return out;
}

/** Index terms of a text: split, drop stop words and 1-letter Latin words, stem; CJK → bigrams. */
export function analyze(text: string, opts: { stem?: boolean; stopWords?: boolean } = {}): string[] {
  const doStem = opts.stem ?? true;
  const dropStop = opts.stopWords ?? true;
  if (doStem && dropStop) return analyzeWords(splitWords(text));
  const out: string[] = [];
  for (const word of splitWords(text)) out.push(...wordTerms(word, doStem, dropStop));
  return out;
}

// Kinds of file by extension, in the words tools use for them: an intent names a file ("update deck.pptx"), a
// tool names the kind it handles ("add a slide to a PowerPoint presentation").
const KINDS: Record<string, string> = {
  ppt: 'powerpoint presentation slides',
  pptx: 'powerpoint presentation slides',
  odp: 'presentation slides',
  doc: 'word document',
  docx: 'word document',
  odt: 'document',
  rtf: 'document',
  pdf: 'pdf document',
  xls: 'excel spreadsheet',
  xlsx: 'excel spreadsheet',
  ods: 'spreadsheet',
  csv: 'csv table spreadsheet',
  tsv: 'table spreadsheet',
  md: 'markdown',
  html: 'html web page',
  htm: 'html web page',
  png: 'image picture',
  jpg: 'image picture photo',
  jpeg: 'image picture photo',
  gif: 'image animation',
  webp: 'image picture',
  svg: 'svg image',
  mp3: 'audio music',
  wav: 'audio',
  flac: 'audio music',
  mp4: 'video',
  mov: 'video',
  mkv: 'video',
  webm: 'video',
  zip: 'zip archive',
  py: 'python',
  js: 'javascript',
  ts: 'typescript',
  ipynb: 'jupyter notebook',
  sql: 'sql database',
  db: 'database',
  sqlite: 'sqlite database',
};
const FILE_NAME = /[\w-]\.([A-Za-z][A-Za-z0-9]{0,5})\b/g;

/** Every word fileKindWords can add (the word-vector table must know them: scripts/build-vectors.mjs). */
export function fileKindVocabulary(): string[] {
  return [...new Set(Object.values(KINDS).flatMap((kind) => kind.split(' ')))].sort();
}

/** The words of the kinds of the files a text names ("report.xlsx" → "excel spreadsheet"); '' when none. */
export function fileKindWords(text: string): string {
  if (text.indexOf('.') < 0) return '';
  const out = new Set<string>();
  for (const m of text.matchAll(FILE_NAME)) {
    const kind = KINDS[m[1]!.toLowerCase()];
    if (kind) out.add(kind);
  }
  return [...out].join(' ');
}

// Encoded data pasted into an intent (a base64 image, a key): a run of 100+ base64 characters with digits and both
// cases. Tokenised, it is thousands of random fragments that outweigh the request's own words.
const BLOB = /[A-Za-z0-9+/]{100,}={0,2}/g;
const isBlob = (run: string): boolean => /[0-9]/.test(run) && /[a-z]/.test(run) && /[A-Z]/.test(run);

/** The text with encoded blobs (see BLOB) replaced by a space; short texts are returned as they are. */
export function withoutBlobs(text: string): string {
  return text.length < 100 ? text : text.replace(BLOB, (run) => (isBlob(run) ? ' ' : run));
}

// Words joined by a hyphen or a slash ("to-do", "free/busy", "e-mail", "CI/CD"), not inside a path or a URL.
const COMPOUND = /(?<![\w/.:-])[A-Za-z]+(?:[-/][A-Za-z]+)+(?![\w/.:-])/g;

/**
 * The joined forms of the compounds a text writes with a hyphen or a slash ("to-do" → "todo", "free/busy" →
 * "freebusy"): tool names write them as one word (list_todos, get-freebusy), and the tokenizer splits the text's
 * at the hyphen (where "to" and "do" are stop words). '' when there are none.
 */
export function joinedCompounds(text: string): string {
  if (text.indexOf('-') < 0 && text.indexOf('/') < 0) return '';
  const out = new Set<string>();
  for (const m of text.matchAll(COMPOUND)) out.add(m[0].replace(/[-/]/g, '').toLowerCase());
  return [...out].join(' ');
}

/**
 * What queries are analysed and embedded from: the intent without encoded blobs, with the kinds of the files it
 * names and the joined forms of its compounds appended.
 */
export function intentText(intent: string): string {
  const text = withoutBlobs(intent);
  const extra = [fileKindWords(text), joinedCompounds(text)].filter((x) => x !== '');
  return extra.length > 0 ? `${text} ${extra.join(' ')}` : text;
}
