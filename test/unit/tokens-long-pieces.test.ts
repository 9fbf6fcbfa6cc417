// Long pieces (no split for the pre-tokenizer: letter runs, CJK, emoji, repeated characters) are merged by the
// heap merge. Its token ids must be exactly those of the standard merge. Two checks:
// - against the `tiktoken` WASM package (Rust core, independent of gpt-tokenizer and of our code), on every kind
//   of adversarial piece, both encodings. tiktoken's merge is itself quadratic (64k CJK characters: 100 s), so
//   pieces here stay at sizes it finishes in about a second; bench:tokens compares 200k letters and 64k CJK.
// - against gpt-tokenizer's own array merge with the heap merge forced on every piece (threshold 2), on the
//   LiveMCPBench slice and on random short mixed-script strings, where the array merge is quick.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { get_encoding, type Tiktoken } from 'tiktoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderToolCline, renderToolJson } from '../../src/core/tokens/index.js';
import { HEAP_MERGE_MIN_BYTES, loadEncodingCore, type EncodingCore } from '../../src/core/tokens/encoding-core.js';
import type { Encoding, ToolSnapshot } from '../../src/core/types.js';
import { FIXTURES } from '../helpers/paths.js';
import { writeRankTable } from '../helpers/rank-table.js';

/** Deterministic generator (a 32-bit LCG): the cases are the same on every run. */
function seeded(seed: number): (n: number) => number {
  let x = seed >>> 0;
  return (n) => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return Math.floor((x / 2 ** 32) * n);
  };
}
const pick = (rnd: (n: number) => number, chars: readonly string[], n: number): string =>
  Array.from({ length: n }, () => chars[rnd(chars.length)]!).join('');
const range = (from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));

const LOWER = range(0x61, 0x7a);
const LETTERS = [...LOWER, ...range(0x41, 0x5a)];

/** Minified-looking JavaScript: short identifiers, numbers, strings and operators, no spaces or newlines. */
function minifiedJs(rnd: (n: number) => number, size: number): string {
  const id = (): string => pick(rnd, LETTERS, 1 + rnd(3)) + (rnd(3) === 0 ? pick(rnd, range(0x30, 0x39), 1) : '');
  const parts = [
    () => `function ${id()}(${id()},${id()}){return ${id()}.${id()}(${id()})||${rnd(1000)}}`,
    () => `var ${id()}=${id()}[${rnd(64)}]!==void 0?${id()}:"${pick(rnd, LETTERS, 4 + rnd(12))}";`,
    () => `for(${id()}=0;${id()}<${id()}.length;${id()}++)${id()}+=${id()}<<${rnd(8)}^0x${rnd(65536).toString(16)};`,
    () => `if(!${id()}&&${id()}==="${pick(rnd, LOWER, 3 + rnd(8))}")throw new Error("${id()}");`,
    () => `${id()}=${id()}=>${id()}?.${id()}??[${rnd(9)},${rnd(99)},${rnd(999)}];`,
  ];
  let s = '';
  while (s.length < size) s += parts[rnd(parts.length)]!();
  return s.slice(0, size);
}

function cases(): [string, string][] {
  const rnd = seeded(17);
  const bytes = Uint8Array.from({ length: 192_000 }, () => rnd(256));
  const emoji = ['😀', '👍🏽', '👩‍👩‍👧‍👦', '🏳️‍🌈', '❤️‍🔥', '🧑🏿‍💻', '🇯🇵', '✨', '#️⃣', '\u200d'];
  const scripts = [
    range(0x430, 0x44f), // Cyrillic lowercase
    range(0x410, 0x42f), // Cyrillic uppercase
    range(0x3b1, 0x3c9), // Greek
    range(0x627, 0x64a), // Arabic
    range(0x915, 0x939), // Devanagari
    range(0x4e00, 0x4e80), // CJK
    range(0xac00, 0xac40), // Hangul
    range(0x3041, 0x3096), // Hiragana
    LOWER,
    ['é', 'ß', 'ø', 'ñ', 'e\u0301', 'a\u0308'], // precomposed and combining marks
  ];
  let mixed = '';
  while (mixed.length < 12_000) mixed += pick(rnd, scripts[rnd(scripts.length)]!, 1 + rnd(40));
  return [
    ['random lowercase letters, 10k', pick(rnd, LOWER, 10_000)],
    ['random lowercase letters, 20k', pick(rnd, LOWER, 20_000)],
    ['random mixed-case letters, 20k', pick(rnd, LETTERS, 20_000)],
    ['base64 blob, 256 KB', Buffer.from(bytes).toString('base64')],
    ['base64url blob without digits, 16k', pick(rnd, [...LETTERS, '-', '_'], 16_000)],
    ['hex blob, 64 KB', Buffer.from(bytes.subarray(0, 32_000)).toString('hex')],
    ['minified JavaScript, 128 KB', minifiedJs(rnd, 128_000)],
    ['CJK characters, 6k', pick(rnd, range(0x4e00, 0x9fff), 6_000)],
    ['a repeated, 12k', 'a'.repeat(12_000)],
    ['中 repeated, 4k', '中'.repeat(4_000)],
    ['spaces, 12k, then a letter', ' '.repeat(12_000) + 'x'],
    ['newlines and tabs, 8k', pick(rnd, ['\n', '\t', ' ', '\r\n'], 8_000)],
    ['dashes, 12k', '-'.repeat(12_000)],
    ['punctuation run, 12k', pick(rnd, [...'!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~'], 12_000)],
    ['mixed scripts without spaces, 12k', mixed],
    ['emoji and ZWJ sequences, 1.5k', pick(rnd, emoji, 1_500)],
    ['letters with special-token strings, 12k', pick(rnd, [...LOWER, '<|endoftext|>', '<|im_start|>'], 12_000)],
  ];
}

const doc = JSON.parse(readFileSync(join(FIXTURES, 'livemcpbench', 'tools-slice.json'), 'utf8')) as {
  tools: Record<string, { tools: ToolSnapshot[] }>;
}[];
const tools = doc.flatMap((e) => Object.values(e.tools).flatMap((s) => s.tools));

describe.each(['o200k_base', 'cl100k_base'] as Encoding[])('long pieces (%s)', (encoding) => {
  let ours: EncodingCore;
  /** Loaded from the rank table the build writes (what the built CLI counts with). */
  let fromTable: EncodingCore;
  let reference: Tiktoken;
  beforeAll(async () => {
    ours = await loadEncodingCore(encoding);
    fromTable = await loadEncodingCore(encoding, { rankTable: writeRankTable(encoding) });
    reference = get_encoding(encoding);
  });
  afterAll(() => reference.free());

  it('gives tiktoken’s exact token ids on every adversarial case', () => {
    const all = cases();
    expect(all).toHaveLength(17);
    expect(fromTable.source).toBe('table');
    const differences: string[] = [];
    let tokens = 0;
    for (const [name, text] of all) {
      const expected = Array.from(reference.encode_ordinary(text));
      const got = ours.encode(text);
      tokens += expected.length;
      if (got.length !== expected.length || got.some((t, i) => t !== expected[i])) {
        differences.push(`${name}: ${got.length} vs ${expected.length} tokens`);
      }
      if (ours.count(text) !== expected.length) differences.push(`${name}: count ${ours.count(text)}`);
      const table = fromTable.encode(text);
      if (table.length !== expected.length || table.some((t, i) => t !== expected[i])) {
        differences.push(`${name}: ${table.length} vs ${expected.length} tokens from the rank table`);
      }
    }
    expect(differences).toEqual([]);
    expect(tokens).toBeGreaterThan(150_000);
  }, 300_000); // tiktoken is quadratic on one long piece too: seconds here, minutes on a loaded machine

  it('stays exact while its piece cache is emptied again and again (16 entries)', async () => {
    const churning = await loadEncodingCore(encoding, { pieceCacheEntries: 16 });
    const blobs = cases().filter(([name]) => /base64|hex|minified|mixed|emoji/.test(name));
    expect(blobs).toHaveLength(7);
    for (const [name, text] of blobs) {
      const expected = Array.from(reference.encode_ordinary(text));
      const got = churning.encode(text);
      expect({ name, equal: got.length === expected.length && got.every((t, i) => t === expected[i]) }).toEqual({
        name,
        equal: true,
      });
    }
  }, 300_000);

  it('the cases hold pieces long enough to take the heap merge', () => {
    const longest = Math.max(
      ...cases().map(([, text]) => Math.max(...[...text.matchAll(/\p{Ll}+|\p{Lo}+|-+| +/gu)].map((m) => m[0].length))),
    );
    expect(longest).toBeGreaterThanOrEqual(20_000);
    expect(HEAP_MERGE_MIN_BYTES).toBeLessThan(200);
  });

  it('heap merge on every piece = gpt-tokenizer’s array merge, on LiveMCPBench and random short strings', async () => {
    const heapOnly = await loadEncodingCore(encoding, { heapMergeMinBytes: 2 });
    const arrayOnly = await loadEncodingCore(encoding, { heapMergeMinBytes: Number.POSITIVE_INFINITY });
    const rnd = seeded(41);
    const alphabet = [...LETTERS, ...range(0x30, 0x39), ...range(0x4e00, 0x4e20), ...range(0x430, 0x44f)];
    const texts = tools.flatMap((t) => [renderToolJson(t), renderToolCline(t)]);
    for (let i = 0; i < 4_000; i++) {
      const chars = [...alphabet, ' ', '\n', '.', '_', '-', '😀', '\u200d', 'é', 'e\u0301'];
      texts.push(pick(rnd, chars.slice(0, 8 + rnd(chars.length - 8)), 1 + rnd(200)));
    }
    let differences = 0;
    let tokens = 0;
    for (const text of texts) {
      const a = heapOnly.encode(text);
      const b = arrayOnly.encode(text);
      tokens += b.length;
      if (a.length !== b.length || a.some((t, i) => t !== b[i])) differences++;
    }
    expect(texts).toHaveLength(4_396);
    expect(differences).toBe(0);
    expect(tokens).toBeGreaterThan(200_000);
  }, 300_000);
});
