// Token counting: renderings, special-token safety, pinned counts, and the on-disk count cache.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildAudit, countAudit, renderAudit } from '../../src/core/audit/index.js';
import {
  countCacheFile,
  countServerTokens,
  countToolTokens,
  createTokenCounter,
  prepareCounter,
  renderToolCline,
  renderToolJson,
  renderTools,
} from '../../src/core/tokens/index.js';
import { countToolsWithAnthropic } from '../../src/core/tokens/anthropic.js';
import type { ServerSnapshot, Snapshot } from '../../src/core/types.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const findings = JSON.parse(readFileSync(fixture('snapshots', 'audit-findings.json'), 'utf8')) as Snapshot;
const notes = findings.servers[0] as ServerSnapshot;
const searchNotes = notes.tools[0]!;
const openNote = notes.tools[1]!;
const tmp = (): string => tempDir('mcp-smart-tokens-');

describe('renderings', () => {
  it('json: one compact API tools-array entry with input_schema', () => {
    expect(renderToolJson(openNote)).toBe(
      '{"name":"open_note","description":"Open a note by id. Special tokens like <|endoftext|> and <|im_start|> appear verbatim in some servers\' text.","input_schema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}}',
    );
    expect(renderTools([openNote, openNote], 'json')).toBe(`[${renderToolJson(openNote)},${renderToolJson(openNote)}]`);
  });

  it('json: omits a missing description and supplies an object schema when none was sent', () => {
    expect(renderToolJson({ name: 'bare' })).toBe('{"name":"bare","input_schema":{"type":"object"}}');
  });

  it('cline: "- name: description", then "Input Schema:" with 2-space JSON indented by four', () => {
    expect(renderToolCline(openNote)).toBe(
      [
        "- open_note: Open a note by id. Special tokens like <|endoftext|> and <|im_start|> appear verbatim in some servers' text.",
        '    Input Schema:',
        '    {',
        '      "type": "object",',
        '      "properties": {',
        '        "id": {',
        '          "type": "string"',
        '        }',
        '      },',
        '      "required": [',
        '        "id"',
        '      ]',
        '    }',
      ].join('\n'),
    );
    expect(renderTools([openNote], 'cline', 'notes').startsWith('## notes\n\n### Available Tools\n- open_note: ')).toBe(
      true,
    );
  });
});

describe('counting', () => {
  it('counts special-token strings as plain text instead of throwing', async () => {
    const counter = await createTokenCounter('o200k_base');
    expect(counter.count('hello <|endoftext|> world')).toBe(9);
    expect(counter.count('')).toBe(0);
  });

  it('pinned counts for one tool in both renderings and encodings', async () => {
    const o200k = await createTokenCounter('o200k_base');
    const cl100k = await createTokenCounter('cl100k_base');
    expect(countToolTokens(searchNotes, o200k, 'json')).toBe(209);
    expect(countToolTokens(searchNotes, o200k, 'cline')).toBe(346);
    expect(countToolTokens(searchNotes, cl100k, 'json')).toBe(206);
  });

  it('a server figure is its tools plus the rendering heading (none for json)', async () => {
    const counter = await createTokenCounter('o200k_base');
    const cline = countServerTokens(notes.tools, counter, 'cline', 'notes');
    expect(cline.tools).toEqual([346, 83, 30, 42, 380, 241, 158]);
    expect(cline.overhead).toBe(8);
    expect(cline.total).toBe(1288);
    // Additive: the sum equals the count of the whole rendered section within a token or two per join.
    expect(Math.abs(counter.count(renderTools(notes.tools, 'cline', 'notes')) - cline.total)).toBeLessThanOrEqual(
      notes.tools.length,
    );
    const json = countServerTokens(notes.tools, counter, 'json', 'notes');
    expect(json.overhead).toBe(0);
    expect(json.total).toBe(json.tools.reduce((a, b) => a + b, 0));
  });
});

describe('count cache', () => {
  it('a second audit of an unchanged setup tokenizes nothing', async () => {
    const cacheDir = tmp();
    let calls = 0;
    const real = await createTokenCounter('o200k_base');
    const first = await createTokenCounter('o200k_base', { cacheDir, tokenize: (t) => (calls++, real.count(t)) });
    const before = buildAudit(findings.servers, first, { style: 'json' });
    await first.flush?.();
    expect(calls).toBeGreaterThan(30);
    expect(first.stats?.().misses).toBe(calls);

    const second = await createTokenCounter('o200k_base', {
      cacheDir,
      tokenize: () => {
        throw new Error('tokenized on a warm cache');
      },
    });
    expect(buildAudit(findings.servers, second, { style: 'json' })).toEqual(before);
    expect(second.stats?.()).toEqual({ hits: first.stats?.().misses, misses: 0 });
  });

  it('keys by encoding: a cl100k counter does not reuse o200k counts', async () => {
    const cacheDir = tmp();
    const o = await createTokenCounter('o200k_base', { cacheDir });
    o.count('a cached sentence');
    await o.flush?.();
    let calls = 0;
    const cl = await createTokenCounter('cl100k_base', { cacheDir, tokenize: () => (calls++, 1) });
    cl.count('a cached sentence');
    expect(calls).toBe(1);
    expect(countCacheFile(cacheDir, 'cl100k_base')).not.toBe(countCacheFile(cacheDir, 'o200k_base'));
  });

  it('deferLoad: prepareCounter loads the tokenizer only when a text is missing', async () => {
    const cacheDir = tmp();
    const warmup = await createTokenCounter('o200k_base', { cacheDir });
    const rendered = renderAudit([notes], 'json');
    const expected = countAudit(rendered, warmup, { window: 1000 });
    await warmup.flush?.();
    const lazy = await createTokenCounter('o200k_base', { cacheDir, deferLoad: true });
    await prepareCounter(lazy, rendered.texts);
    expect(countAudit(rendered, lazy, { window: 1000 })).toEqual(expected);
    const cold = await createTokenCounter('o200k_base', { cacheDir: tmp(), deferLoad: true });
    expect(() => cold.count('never seen')).toThrow(/prepareCounter/);
    await prepareCounter(cold, ['never seen']);
    expect(cold.count('never seen')).toBe(2);
  });

  it('releaseAfterMs: the tokenizer is let go after that long without a miss and loaded again for the next', async () => {
    let clock = 0;
    const counter = await createTokenCounter('o200k_base', {
      cacheDir: tmp(),
      deferLoad: true,
      releaseAfterMs: 20,
      now: () => clock,
    });
    await prepareCounter(counter, ['never seen']);
    expect(counter.count('never seen')).toBe(2);
    // Idle on the clock it was given: released when the timer fires.
    clock = 25;
    await new Promise((r) => setTimeout(r, 60));
    expect(counter.count('never seen')).toBe(2); // remembered, no tokenizer needed
    expect(() => counter.count('seen after the release')).toThrow(/prepareCounter/);
    await prepareCounter(counter, ['seen after the release']);
    expect(counter.count('seen after the release')).toBe(4);
    // Still in use within the window: kept.
    clock = 30;
    counter.count('a third text');
    await new Promise((r) => setTimeout(r, 60));
    expect(counter.count('a fourth text')).toBe(3);
    clock = 1000; // lets its timer end
  });

  it('a long text is remembered by its hash: counted once, then answered from memory', async () => {
    const seen: string[] = [];
    const counter = await createTokenCounter('o200k_base', { tokenize: (t) => (seen.push(t), t.length) });
    const long = 'word '.repeat(200);
    expect(counter.count(long)).toBe(1000);
    expect(counter.count(`${'word '.repeat(199)}word `)).toBe(1000); // an equal string made anew
    expect(counter.count(`${long}x`)).toBe(1001);
    expect(seen).toHaveLength(2);
  });

  it('a count added while a flush is writing is kept by the next flush', async () => {
    const cacheDir = tmp();
    let calls = 0;
    const counter = await createTokenCounter('o200k_base', { cacheDir, tokenize: (t) => (calls++, t.length) });
    counter.count('counted before the flush');
    const writing = counter.flush?.();
    counter.count('counted while it writes');
    await writing;
    await counter.flush?.();
    const again = await createTokenCounter('o200k_base', { cacheDir, tokenize: (t) => (calls++, t.length) });
    expect(again.count('counted before the flush')).toBe(24);
    expect(again.count('counted while it writes')).toBe(23);
    expect(calls).toBe(2);
  });

  it('a corrupt cache file is an empty cache', async () => {
    const cacheDir = tmp();
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(join(cacheDir, 'token-counts'), { recursive: true });
    writeFileSync(countCacheFile(cacheDir, 'o200k_base'), '{not json');
    const counter = await createTokenCounter('o200k_base', { cacheDir });
    expect(counter.count('hello world')).toBe(2);
  });
});

describe('anthropic count', () => {
  it('without a key throws MISSING_API_KEY and sends nothing', async () => {
    let sent = 0;
    const fetchSpy = async () => {
      sent++;
      throw new Error('no network in tests');
    };
    await expect(countToolsWithAnthropic([openNote], { apiKey: undefined, fetch: fetchSpy })).rejects.toMatchObject({
      code: 'MISSING_API_KEY',
    });
    expect(sent).toBe(0);
  });
});
