import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseWordPiece, TokenizerFormatError } from '../../src/core/discover/wordpiece.js';
import { fixture } from '../helpers/paths.js';

const VOCAB = [
  '[PAD]',
  '[UNK]',
  '[CLS]',
  '[SEP]',
  'hello',
  'world',
  ',',
  '!',
  "'",
  '$',
  'don',
  't',
  'read',
  '##ing',
  '##s',
  'file',
  'cafe',
  'naive',
  'un',
  '##believ',
  '##able',
  '搜',
];

/** A tokenizer.json as a sentence-transformers export writes it (all-MiniLM-L6-v2's layout), over VOCAB. */
function bert(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 13,
      vocab: Object.fromEntries(VOCAB.map((t, i) => [t, i])),
    },
    ...over,
  };
}

const tokens = (text: string, doc = bert(), config?: unknown): string[] => {
  const t = parseWordPiece(doc, config);
  return t.tokens(t.encode(text).ids);
};

describe('WordPiece tokenizer (tokenizer.json)', () => {
  it('lower-cases, splits punctuation into words of their own and wraps the text in [CLS] … [SEP]', () => {
    expect(tokens('Hello, WORLD!')).toEqual(['[CLS]', 'hello', ',', 'world', '!', '[SEP]']);
    // An apostrophe and an ASCII symbol Unicode does not call punctuation ($) split the word too.
    expect(tokens("don't $hello")).toEqual(['[CLS]', 'don', "'", 't', '$', 'hello', '[SEP]']);
  });

  it('continues a word with ## pieces, longest first', () => {
    expect(tokens('reading files')).toEqual(['[CLS]', 'read', '##ing', 'file', '##s', '[SEP]']);
    expect(tokens('unbelievable')).toEqual(['[CLS]', 'un', '##believ', '##able', '[SEP]']);
  });

  it('strips accents with lower case (strip_accents null), and keeps them when strip_accents is false', () => {
    expect(tokens('Café NAÏVE')).toEqual(['[CLS]', 'cafe', 'naive', '[SEP]']);
    const keep = bert({
      normalizer: { type: 'BertNormalizer', strip_accents: false, lowercase: true },
    });
    expect(tokens('Café', keep)).toEqual(['[CLS]', '[UNK]', '[SEP]']);
  });

  it('is [UNK] for a word with a piece missing (the whole word, once) or longer than max_input_chars_per_word', () => {
    expect(tokens('readx hello')).toEqual(['[CLS]', '[UNK]', 'hello', '[SEP]']);
    expect(tokens('unbelievables')).toEqual(['[CLS]', 'un', '##believ', '##able', '##s', '[SEP]']);
    expect(tokens('unbelievablesss')).toEqual(['[CLS]', '[UNK]', '[SEP]']); // 15 characters > 13
  });

  it('drops control characters, treats tabs and newlines as spaces and makes each CJK character a word', () => {
    expect(tokens('hello\u0007\tworld\n')).toEqual(['[CLS]', 'hello', 'world', '[SEP]']);
    expect(tokens('hello搜索')).toEqual(['[CLS]', 'hello', '搜', '[UNK]', '[SEP]']);
  });

  it('truncates to tokenizer_config.json model_max_length, the specials included; truncation.max_length wins', () => {
    const text = 'hello world hello world hello world';
    const t = parseWordPiece(bert(), { model_max_length: 5 });
    expect(t.maxLength).toBe(5);
    expect(t.tokens(t.encode(text).ids)).toEqual(['[CLS]', 'hello', 'world', 'hello', '[SEP]']);
    const both = parseWordPiece(bert({ truncation: { max_length: 4, strategy: 'LongestFirst' } }), {
      model_max_length: 5,
    });
    expect(both.tokens(both.encode(text).ids)).toEqual(['[CLS]', 'hello', 'world', '[SEP]']);
    // No limit written (the 1e30 tokenizer_config.json uses for "none"): 512.
    expect(parseWordPiece(bert(), { model_max_length: 1e30 }).maxLength).toBe(512);
    expect(parseWordPiece(bert()).maxLength).toBe(512);
  });

  it('reads BertProcessing too, and gives ids, token types and the [PAD] id', () => {
    const t = parseWordPiece(
      bert({ post_processor: { type: 'BertProcessing', cls: ['[CLS]', 2], sep: ['[SEP]', 3] } }),
    );
    expect(t.encode('hello world')).toEqual({ ids: [2, 4, 5, 3], typeIds: [0, 0, 0, 0] });
    expect(t.padId).toBe(0);
    // MPNet's exports: RobertaProcessing wraps one text the same way.
    const roberta = parseWordPiece(
      bert({ post_processor: { type: 'RobertaProcessing', cls: ['[CLS]', 2], sep: ['[SEP]', 3], trim_offsets: true } }),
    );
    expect(roberta.encode('hello')).toEqual({ ids: [2, 4, 3], typeIds: [0, 0, 0] });
  });

  it('names the key it cannot use', () => {
    const keyOf = (doc: unknown): string => {
      try {
        parseWordPiece(doc);
      } catch (e) {
        if (e instanceof TokenizerFormatError) return `${e.key}: ${e.reason}`;
        throw e;
      }
      return 'accepted';
    };
    const model = bert().model as Record<string, unknown>;
    expect(keyOf(bert({ model: { ...model, type: 'BPE' } }))).toBe(
      'model.type: is "BPE"; only WordPiece (BERT) is supported',
    );
    expect(keyOf(bert({ model: { type: 'WordPiece' } }))).toBe('model.vocab: is missing or not an object');
    expect(keyOf(bert({ model: { ...model, unk_token: '<unk>' } }))).toBe(
      'model.unk_token: "<unk>" is not in the vocabulary',
    );
    expect(keyOf(bert({ normalizer: { type: 'Precompiled' } }))).toMatch(
      /^normalizer\.type: "Precompiled" is not supported/,
    );
    expect(keyOf(bert({ pre_tokenizer: { type: 'Metaspace' } }))).toMatch(/^pre_tokenizer\.type: "Metaspace"/);
    expect(keyOf(bert({ post_processor: { type: 'ByteLevel' } }))).toMatch(/^post_processor\.type: "ByteLevel"/);
    expect(keyOf(bert({ post_processor: { type: 'BertProcessing', cls: ['<s>', null], sep: ['[SEP]', 3] } }))).toBe(
      'post_processor.cls: "<s>" is not in the vocabulary',
    );
    expect(keyOf([])).toBe('model: is missing');
  });

  it("reads the tiny model's own tokenizer.json (the fixture scripts/make-tiny-onnx.mjs writes)", () => {
    const dir = fixture('models', 'tiny-onnx');
    const t = parseWordPiece(
      JSON.parse(readFileSync(`${dir}/tokenizer.json`, 'utf8')),
      JSON.parse(readFileSync(`${dir}/tokenizer_config.json`, 'utf8')),
    );
    expect(t.maxLength).toBe(32);
    expect(t.tokens(t.encode('Reading the FILES, in a café!').ids)).toEqual([
      '[CLS]',
      'read',
      '##ing',
      'the',
      'file',
      '##s',
      '[UNK]', // the comma is not in its vocabulary
      'in',
      '[UNK]',
      'cafe',
      '[UNK]',
      '[SEP]',
    ]);
  });
});
