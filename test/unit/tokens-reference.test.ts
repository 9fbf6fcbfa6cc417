// js-tiktoken is the reference tokenizer: gpt-tokenizer (what we count with) must agree exactly on every tool
// of the LiveMCPBench slice (fixtures/livemcpbench: 198 real tools of 70 servers, Chinese descriptions among
// them), in both renderings and on both encodings.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { condenseTool } from '../../src/core/condense/index.js';
import { createTokenCounter, renderToolCline, renderToolJson } from '../../src/core/tokens/index.js';
import type { Encoding, ToolSnapshot } from '../../src/core/types.js';
import { FIXTURES } from '../helpers/paths.js';

const doc = JSON.parse(readFileSync(join(FIXTURES, 'livemcpbench', 'tools-slice.json'), 'utf8')) as {
  tools: Record<string, { tools: ToolSnapshot[] }>;
}[];
const tools = doc.flatMap((e) => Object.values(e.tools).flatMap((s) => s.tools));
const RANKS = { o200k_base: o200k, cl100k_base: cl100k };

describe.each(['o200k_base', 'cl100k_base'] as Encoding[])('gpt-tokenizer vs js-tiktoken (%s)', (encoding) => {
  it('gives the same count for every tool of the LiveMCPBench slice (json, cline and compact renderings)', async () => {
    expect(tools).toHaveLength(198);
    const ours = await createTokenCounter(encoding);
    const reference = new Tiktoken(RANKS[encoding]);
    const differences: string[] = [];
    let total = 0;
    for (const tool of tools) {
      for (const text of [renderToolJson(tool), renderToolCline(tool), renderToolJson(condenseTool(tool, 'compact'))]) {
        const expected = reference.encode(text, [], []).length;
        total += expected;
        if (ours.count(text) !== expected) differences.push(`${tool.name}: ${ours.count(text)} vs ${expected}`);
      }
    }
    expect(differences).toEqual([]);
    expect(total).toBeGreaterThan(100_000);
  });

  it('agrees on text holding special-token strings', async () => {
    const ours = await createTokenCounter(encoding);
    const reference = new Tiktoken(RANKS[encoding]);
    const text = 'Stop at <|endoftext|> or <|im_start|>system<|im_end|> and <|fim_prefix|>.';
    expect(ours.count(text)).toBe(reference.encode(text, [], []).length);
  });
});
