/**
 * A Hugging Face `tokenizer.json` of the WordPiece (BERT) family, read and applied as the `tokenizers` library
 * does for the sentence-transformers exports `--model <dir>` loads:
 *
 * - normaliser `BertNormalizer` (clean_text, handle_chinese_chars, strip_accents — null follows lowercase —,
 *   lowercase), or a `Sequence` of it with `Lowercase`, `StripAccents`, `NFD`/`NFC`/`NFKD`/`NFKC`; or none;
 * - pre-tokeniser `BertPreTokenizer` (split on whitespace, each punctuation character a word of its own), or
 *   `WhitespaceSplit`/none (whitespace only);
 * - model `WordPiece`: greedy longest match, `##` continuation pieces, a word with a piece not in the vocabulary or
 *   longer than max_input_chars_per_word is `[UNK]`;
 * - post-processor `TemplateProcessing` (its `single` template), `BertProcessing` (`[CLS] … [SEP]`) or
 *   `RobertaProcessing` (`<s> … </s>`, MPNet's), or none;
 * - truncation: `truncation.max_length`, else tokenizer_config.json's `model_max_length`, else 512 (specials count).
 *
 * Pure: the caller reads the files. A file it cannot use throws TokenizerFormatError naming the key.
 */

export class TokenizerFormatError extends Error {
  constructor(
    readonly key: string,
    readonly reason: string,
  ) {
    super(`${key}: ${reason}`);
  }
}

export interface Encoded {
  ids: number[];
  typeIds: number[];
}

export interface WordPieceTokenizer {
  /** Ids and token types of one text, with the template's special tokens, truncated to maxLength. */
  encode: (text: string) => Encoded;
  /** The tokens of ids (for tests and --debug). */
  tokens: (ids: number[]) => string[];
  maxLength: number;
  /** Padding id: `[PAD]`'s, else 0. */
  padId: number;
}

type Step = (text: string) => string;
type Piece = { id: number; typeId: number } | { sequence: true; typeId: number };

const DEFAULT_MAX_LENGTH = 512;
/** tokenizer_config.json's "no limit" is a huge number (1e30): above this it is not a limit. */
const SANE_MAX_LENGTH = 1_000_000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Reads tokenizer.json (parsed) and, when given, tokenizer_config.json (parsed). */
export function parseWordPiece(doc: unknown, config?: unknown): WordPieceTokenizer {
  if (!isObject(doc)) throw new TokenizerFormatError('(top level)', 'is not a JSON object');
  const model = doc.model;
  if (!isObject(model)) throw new TokenizerFormatError('model', 'is missing');
  if (model.type !== 'WordPiece')
    throw new TokenizerFormatError(
      'model.type',
      `is ${JSON.stringify(model.type)}; only WordPiece (BERT) is supported`,
    );
  if (!isObject(model.vocab)) throw new TokenizerFormatError('model.vocab', 'is missing or not an object');
  const vocab = new Map<string, number>();
  for (const [token, id] of Object.entries(model.vocab)) {
    if (!Number.isInteger(id) || (id as number) < 0)
      throw new TokenizerFormatError('model.vocab', `the id of ${JSON.stringify(token)} is not a whole number`);
    vocab.set(token, id as number);
  }
  const unkToken = typeof model.unk_token === 'string' ? model.unk_token : '[UNK]';
  const unk = vocab.get(unkToken);
  if (unk === undefined)
    throw new TokenizerFormatError('model.unk_token', `${JSON.stringify(unkToken)} is not in the vocabulary`);
  const prefix = typeof model.continuing_subword_prefix === 'string' ? model.continuing_subword_prefix : '##';
  const maxChars = typeof model.max_input_chars_per_word === 'number' ? model.max_input_chars_per_word : 100;

  const normalise = normaliser(doc.normalizer, 'normalizer');
  const split = preTokenizer(doc.pre_tokenizer);
  const template = postProcessor(doc.post_processor, vocab);
  const specials = template.filter((p) => 'id' in p).length;
  const maxLength = lengthLimit(doc.truncation, config);
  if (maxLength <= specials)
    throw new TokenizerFormatError('truncation.max_length', `${maxLength} leaves no room for text`);

  const wordPiece = (word: string, out: number[]): void => {
    const chars = [...word];
    if (chars.length > maxChars) return void out.push(unk);
    const pieces: number[] = [];
    for (let start = 0; start < chars.length;) {
      let end = chars.length;
      let found: number | undefined;
      for (; end > start; end--) {
        const piece = (start > 0 ? prefix : '') + chars.slice(start, end).join('');
        found = vocab.get(piece);
        if (found !== undefined) break;
      }
      if (found === undefined) return void out.push(unk);
      pieces.push(found);
      start = end;
    }
    out.push(...pieces);
  };
  const byId = new Map([...vocab].map(([t, id]) => [id, t]));
  return {
    maxLength,
    padId: vocab.get('[PAD]') ?? 0,
    tokens: (ids) => ids.map((id) => byId.get(id) ?? unkToken),
    encode: (text) => {
      const content: number[] = [];
      for (const word of split(normalise(text))) wordPiece(word, content);
      content.length = Math.min(content.length, maxLength - specials);
      const ids: number[] = [];
      const typeIds: number[] = [];
      for (const p of template) {
        const part = 'id' in p ? [p.id] : content;
        ids.push(...part);
        for (let i = 0; i < part.length; i++) typeIds.push(p.typeId);
      }
      return { ids, typeIds };
    },
  };
}

function lengthLimit(truncation: unknown, config: unknown): number {
  if (isObject(truncation) && typeof truncation.max_length === 'number' && truncation.max_length > 0)
    return truncation.max_length;
  const fromConfig = isObject(config) ? config.model_max_length : undefined;
  if (typeof fromConfig === 'number' && fromConfig > 0 && fromConfig < SANE_MAX_LENGTH) return Math.floor(fromConfig);
  return DEFAULT_MAX_LENGTH;
}

function normaliser(spec: unknown, key: string): Step {
  if (spec === null || spec === undefined) return (t) => t;
  if (!isObject(spec)) throw new TokenizerFormatError(key, 'is not an object');
  switch (spec.type) {
    case 'BertNormalizer': {
      const lowercase = spec.lowercase !== false;
      const strip =
        spec.strip_accents === null || spec.strip_accents === undefined ? lowercase : spec.strip_accents === true;
      return (t) => {
        if (spec.clean_text !== false) t = cleanText(t);
        if (spec.handle_chinese_chars !== false) t = spaceChinese(t);
        if (strip) t = stripAccents(t);
        return lowercase ? t.toLowerCase() : t;
      };
    }
    case 'Lowercase':
      return (t) => t.toLowerCase();
    case 'StripAccents':
      return stripAccents;
    case 'NFD':
    case 'NFC':
    case 'NFKD':
    case 'NFKC': {
      const form = spec.type;
      return (t) => t.normalize(form);
    }
    case 'Sequence': {
      if (!Array.isArray(spec.normalizers)) throw new TokenizerFormatError(`${key}.normalizers`, 'is not a list');
      const steps = spec.normalizers.map((n, i) => normaliser(n, `${key}.normalizers[${i}]`));
      return (t) => steps.reduce((s, step) => step(s), t);
    }
    default:
      throw new TokenizerFormatError(
        `${key}.type`,
        `${JSON.stringify(spec.type)} is not supported (BertNormalizer is)`,
      );
  }
}

function preTokenizer(spec: unknown): (text: string) => string[] {
  const byWhitespace = (t: string): string[] => t.split(/\s+/u).filter((w) => w.length > 0);
  if (spec === null || spec === undefined) return byWhitespace;
  if (!isObject(spec)) throw new TokenizerFormatError('pre_tokenizer', 'is not an object');
  if (spec.type === 'WhitespaceSplit') return byWhitespace;
  if (spec.type !== 'BertPreTokenizer')
    throw new TokenizerFormatError(
      'pre_tokenizer.type',
      `${JSON.stringify(spec.type)} is not supported (BertPreTokenizer is)`,
    );
  return (t) => byWhitespace(t).flatMap(splitPunctuation);
}

function postProcessor(spec: unknown, vocab: Map<string, number>): Piece[] {
  const sequence: Piece = { sequence: true, typeId: 0 };
  if (spec === null || spec === undefined) return [sequence];
  if (!isObject(spec)) throw new TokenizerFormatError('post_processor', 'is not an object');
  const special = (token: unknown, id: unknown, key: string, typeId = 0): Piece => {
    const known = typeof token === 'string' ? vocab.get(token) : undefined;
    const chosen = typeof id === 'number' ? id : known;
    if (chosen === undefined) throw new TokenizerFormatError(key, `${JSON.stringify(token)} is not in the vocabulary`);
    return { id: chosen, typeId };
  };
  // RobertaProcessing (MPNet's exports) wraps one text the same way, with its own tokens (`<s>` … `</s>`).
  if (spec.type === 'BertProcessing' || spec.type === 'RobertaProcessing') {
    const [cls, clsId] = Array.isArray(spec.cls) ? (spec.cls as unknown[]) : [];
    const [sep, sepId] = Array.isArray(spec.sep) ? (spec.sep as unknown[]) : [];
    return [special(cls, clsId, 'post_processor.cls'), sequence, special(sep, sepId, 'post_processor.sep')];
  }
  if (spec.type !== 'TemplateProcessing')
    throw new TokenizerFormatError(
      'post_processor.type',
      `${JSON.stringify(spec.type)} is not supported (TemplateProcessing, BertProcessing and RobertaProcessing are)`,
    );
  if (!Array.isArray(spec.single)) throw new TokenizerFormatError('post_processor.single', 'is not a list');
  const tokens = isObject(spec.special_tokens) ? spec.special_tokens : {};
  return spec.single.map((item: unknown, i): Piece => {
    const key = `post_processor.single[${i}]`;
    if (isObject(item) && isObject(item.Sequence))
      return { sequence: true, typeId: typeof item.Sequence.type_id === 'number' ? item.Sequence.type_id : 0 };
    if (!isObject(item) || !isObject(item.SpecialToken))
      throw new TokenizerFormatError(key, 'is neither a Sequence nor a SpecialToken');
    const name = item.SpecialToken.id;
    const entry = typeof name === 'string' ? tokens[name] : undefined;
    const ids = isObject(entry) && Array.isArray(entry.ids) ? (entry.ids as unknown[]) : [];
    const typeId = typeof item.SpecialToken.type_id === 'number' ? item.SpecialToken.type_id : 0;
    return special(name, ids.length === 1 ? ids[0] : undefined, key, typeId);
  });
}

/** BertNormalizer's clean_text: drop NUL, U+FFFD and control characters; every whitespace becomes a space. */
function cleanText(t: string): string {
  return t.replace(/[\0\uFFFD]|(?![\t\n\r])[\p{Cc}\p{Cf}]/gu, '').replace(/\s/gu, ' ');
}

function stripAccents(t: string): string {
  return t.normalize('NFD').replace(/\p{Mn}/gu, '');
}

/** The CJK ideograph blocks BERT surrounds with spaces (each is a word). */
const CJK =
  /[\u{4E00}-\u{9FFF}\u{3400}-\u{4DBF}\u{20000}-\u{2A6DF}\u{2A700}-\u{2B73F}\u{2B740}-\u{2B81F}\u{2B820}-\u{2CEAF}\u{F900}-\u{FAFF}\u{2F800}-\u{2FA1F}]/gu;

function spaceChinese(t: string): string {
  return t.replace(CJK, (c) => ` ${c} `);
}

/** BERT's punctuation: Unicode P* and the ASCII symbols `$+<=>^`|~` that Unicode files elsewhere. */
const PUNCTUATION = /[\p{P}!-/:-@[-`{-~]/u;

function splitPunctuation(word: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const c of word) {
    if (PUNCTUATION.test(c)) {
      if (current) out.push(current);
      out.push(c);
      current = '';
    } else current += c;
  }
  if (current) out.push(current);
  return out;
}
