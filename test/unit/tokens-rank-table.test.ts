// The rank table the build writes (src/core/tokens/rank-table.ts) in place of gpt-tokenizer's 2.4 MB module: every
// token's text must give the rank gpt-tokenizer's core gives it, every other text none, and a core loaded from the
// table must give gpt-tokenizer's own encode's token ids on varied text, in both encodings. A table that is
// missing, damaged or written from another gpt-tokenizer is not used (the module is, with the same counts).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { encode as encodeCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { encode as encodeO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEncodingCore, type EncodingCore } from '../../src/core/tokens/encoding-core.js';
import { renderToolCline, renderToolJson } from '../../src/core/tokens/index.js';
import { decodeRankTable, encodeRankTable } from '../../src/core/tokens/rank-table.js';
import type { Encoding, ToolSnapshot } from '../../src/core/types.js';
import { FIXTURES } from '../helpers/paths.js';
import { gptTokenizerRanks, gptTokenizerVersion, writeRankTable } from '../helpers/rank-table.js';
import { tempDir } from '../helpers/temp.js';

const GPT_ENCODE = { o200k_base: encodeO200k, cl100k_base: encodeCl100k };
/** gpt-tokenizer's public encode with special-token strings as plain text, as we count them. */
const plain = { disallowedSpecial: new Set<string>() };

function seeded(seed: number): (n: number) => number {
  let x = seed >>> 0;
  return (n) => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return Math.floor((x / 2 ** 32) * n);
  };
}

/** Varied text: real tool renderings, and random strings over scripts, emoji, controls and lone surrogates. */
function texts(): string[] {
  const doc = JSON.parse(readFileSync(join(FIXTURES, 'livemcpbench', 'tools-slice.json'), 'utf8')) as {
    tools: Record<string, { tools: ToolSnapshot[] }>;
  }[];
  const tools = doc.flatMap((e) => Object.values(e.tools).flatMap((s) => s.tools));
  const out = tools.flatMap((t) => [renderToolJson(t), renderToolCline(t)]);
  const rnd = seeded(7);
  const ranges: [number, number][] = [
    [0x20, 0x7e],
    [0x0, 0x1f],
    [0xa0, 0x24f],
    [0x370, 0x52f],
    [0x600, 0x6ff],
    [0x900, 0x97f],
    [0x3040, 0x30ff],
    [0x4e00, 0x9fff],
    [0xac00, 0xd7a3],
    [0xd800, 0xdfff], // lone surrogates
    [0x1f300, 0x1faff],
  ];
  for (let i = 0; i < 3_000; i++) {
    let s = '';
    const n = 1 + rnd(120);
    while (s.length < n) {
      const [from, to] = ranges[rnd(ranges.length)]!;
      s += rnd(4) === 0 ? ' ' : String.fromCodePoint(from + rnd(to - from + 1));
    }
    out.push(s);
  }
  out.push('Stop at <|endoftext|> or <|im_start|>system<|im_end|> and <|fim_prefix|>.', 'x'.repeat(5_000), '');
  return out;
}

describe.each(['o200k_base', 'cl100k_base'] as Encoding[])('rank table (%s)', (encoding) => {
  const ranks = gptTokenizerRanks(encoding);
  let fromTable: EncodingCore;
  beforeAll(async () => {
    fromTable = await loadEncodingCore(encoding, { rankTable: writeRankTable(encoding) });
  });

  it('gives every token text the rank gpt-tokenizer’s core gives it, and other texts none', () => {
    const table = decodeRankTable(encodeRankTable(ranks, { encoding, gptTokenizer: 'x' }));
    const map = new Map<string, number>(); // as BytePairEncodingCore's constructor builds it
    ranks.forEach((value, rank) => {
      if (typeof value === 'string') map.set(value, rank);
    });
    expect(table.strings + Object.keys(table.byteTokens).length).toBe(ranks.length);
    let wrong = 0;
    for (const text of map.keys()) if (table.lookupRank(text) !== map.get(text)) wrong++;
    expect(wrong).toBe(0);
    let bytesWrong = 0;
    ranks.forEach((value, rank) => {
      if (typeof value !== 'string' && table.byteTokens[rank]?.join() !== value.join()) bytesWrong++;
    });
    expect(bytesWrong).toBe(0);
    // Texts that are not tokens: each token with a character added, cut, or changed.
    let notTokens = 0;
    let misses = 0;
    for (const text of [...map.keys()].slice(0, 50_000)) {
      for (const other of [text + '\u0000', text.slice(1), text.slice(0, -1) + '\uffff']) {
        if (map.has(other)) continue;
        notTokens++;
        if (table.lookupRank(other) !== undefined) misses++;
      }
    }
    expect(misses).toBe(0);
    expect(notTokens).toBeGreaterThan(100_000);
  });

  it('a core loaded from the table gives gpt-tokenizer’s own encode’s token ids on varied text', async () => {
    expect(fromTable.source).toBe('table');
    const fromModule = await loadEncodingCore(encoding, { rankTable: false });
    expect(fromModule.source).toBe('module');
    const all = texts();
    const differences: string[] = [];
    let tokens = 0;
    for (const text of all) {
      const expected = GPT_ENCODE[encoding](text, plain);
      tokens += expected.length;
      const got = fromTable.encode(text);
      if (got.join() !== expected.join()) differences.push(`${JSON.stringify(text.slice(0, 40))}: ${got.length}`);
      if (fromTable.count(text) !== expected.length || fromModule.count(text) !== expected.length) {
        differences.push(`${JSON.stringify(text.slice(0, 40))}: count`);
      }
    }
    expect(differences).toEqual([]);
    expect(all.length).toBe(3_399);
    expect(tokens).toBeGreaterThan(250_000);
  }, 120_000);

  it('is not used when missing, damaged or written from another gpt-tokenizer or encoding (the module is)', async () => {
    const dir = tempDir('mcp-smart-ranks-');
    const good = readFileSync(fileURLToPath(writeRankTable(encoding)));
    const truncated = join(dir, 'truncated.bin');
    writeFileSync(truncated, good.subarray(0, good.length - 1));
    const garbage = join(dir, 'garbage.bin');
    writeFileSync(garbage, 'not a table');
    const other: Encoding = encoding === 'o200k_base' ? 'cl100k_base' : 'o200k_base';
    const urls = [
      pathToFileURL(join(dir, 'missing.bin')),
      pathToFileURL(truncated),
      pathToFileURL(garbage),
      writeRankTable(encoding, { gptTokenizer: `${gptTokenizerVersion()}-other` }),
      writeRankTable(other, {}),
    ];
    const text = 'Stop at <|endoftext|> — 中文 text, émojis 👩‍👩‍👧‍👦 and\tcontrols\u0001';
    const expected = GPT_ENCODE[encoding](text, plain).length;
    for (const rankTable of urls) {
      const core = await loadEncodingCore(encoding, { rankTable });
      expect({ url: rankTable.href, source: core.source, count: core.count(text) }).toEqual({
        url: rankTable.href,
        source: 'module',
        count: expected,
      });
    }
  }, 120_000);
});

it('a table is the same bytes from the same ranks (the build is reproducible)', () => {
  const ranks = gptTokenizerRanks('cl100k_base');
  const meta = { encoding: 'cl100k_base', gptTokenizer: gptTokenizerVersion() };
  expect(Buffer.from(encodeRankTable(ranks, meta)).equals(Buffer.from(encodeRankTable(ranks, meta)))).toBe(true);
});
