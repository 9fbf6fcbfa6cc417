// The data a first `discover` reads in a cheaper form give what the slow forms gave: the stem table shipped beside
// the word vectors (no table words stemmed at run time) and the glossary read uncompressed and searched in its bytes.
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultGlossaryFile, glossHan, setGlossaryFile } from '../../src/core/discover/gloss.js';
import { decodeStemTable, encodeStemTable, readStemTable, stemsFileFor } from '../../src/core/discover/stem-table.js';
import { splitWords, stem } from '../../src/core/discover/tokenize.js';
import {
  defaultVectorsFile,
  encodeWordVectors,
  loadWordVectors,
  lookupWord,
  parseWordVectors,
} from '../../src/core/discover/vectors.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-first-run-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LATIN = /^[a-z]+$/;

/** Every string in the fixture catalogues (their tools' names, descriptions and schemas; some in Chinese). */
const fixtureTexts = (): string[] => {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  for (const f of ['fixtures/snapshots/discover-tools.json', 'fixtures/livemcpbench/tools-slice.json'])
    walk(JSON.parse(readFileSync(f, 'utf8')));
  return out;
};

describe('the stem table shipped beside the word vectors', () => {
  const file = defaultVectorsFile();
  const table = parseWordVectors(readFileSync(file));
  const words = table.words!;

  it('holds the stemmer’s stem of every table word that the stem buckets take, and nothing for the others', () => {
    const lines = readFileSync(stemsFileFor(file), 'utf8').split('\n');
    expect(lines.length).toBe(words.length + 1);
    let stemmed = 0;
    words.forEach((w, row) => {
      const takes = table.index.get(w) === row && LATIN.test(w);
      expect(lines[row + 1], `row ${row} (${w})`).toBe(takes ? stem(w) : '');
      if (takes) stemmed++;
    });
    expect(stemmed).toBeGreaterThan(15_000); // the table's words are mostly Latin
    expect(readStemTable(file, words, table.ranks)?.size).toBeGreaterThan(10_000);
  });

  it('gives every word the row the stem buckets give, once an index build reads it', async () => {
    const read = await loadWordVectors(file); // knows its file: reads the stem table after a few buckets
    const bucketed = parseWordVectors(readFileSync(file)); // no file: stems every bucket as before
    const asked = new Set<string>();
    for (const text of fixtureTexts()) for (const w of splitWords(text)) asked.add(w);
    for (const w of words.slice(0, 3000)) for (const e of ['s', 'ed', 'ing', 'ers', 'ation']) asked.add(w + e);
    const got = [...asked].map((w) => lookupWord(read, w));
    expect(read.byPrefix?.all).toBe(true);
    expect(bucketed.byPrefix).toBeUndefined();
    expect(got).toEqual([...asked].map((w) => lookupWord(bucketed, w)));
    expect(bucketed.byPrefix?.all).toBeUndefined();
    const list = [...asked];
    // Some words are found through their stem (not in the table as they are).
    expect(list.filter((w, i) => got[i] !== undefined && !read.index.has(w)).length).toBeGreaterThan(1000);
  });

  it('is not used for a table it was not made from (the buckets are stemmed instead)', async () => {
    const rows = ['connect', 'connection', 'connects', 'report', 'reported', 'reporter'].map((word, i) => ({
      word,
      rank: 5 - i,
      vector: [i, 1, 0],
    }));
    const other = join(dir, 'other.bin');
    writeFileSync(other, encodeWordVectors(rows, 3));
    // A stem table of other words (its digest does not match), claiming every word has the stem "connect".
    const wrong = rows.map((r) => ({ ...r, word: `${r.word}x` }));
    writeFileSync(
      stemsFileFor(other),
      encodeStemTable(
        wrong.map((r) => r.word),
        () => 'connect',
        () => true,
      ),
    );
    const ranks = Uint32Array.from(rows, (r) => r.rank);
    expect(
      decodeStemTable(
        readFileSync(stemsFileFor(other), 'utf8'),
        rows.map((r) => r.word),
        ranks,
      ),
    ).toBeUndefined();
    const v = await loadWordVectors(other);
    const asked = [
      'connecting',
      'connectors',
      'reporting',
      'reports',
      'report',
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
      'g',
      'h',
    ];
    const got = asked.map((w) => lookupWord(v, w));
    expect(v.byPrefix?.all).toBeUndefined();
    // The most frequent (lowest rank) word of each stem: "connects" (rank 3) and "reporter" (rank 0).
    expect(got.slice(0, 5)).toEqual([2, undefined, 5, 5, 3]); // "connectors" stems to "connector"
    // The right table read instead: the same rows.
    writeFileSync(
      stemsFileFor(other),
      encodeStemTable(
        rows.map((r) => r.word),
        stem,
        () => true,
      ),
    );
    const right = await loadWordVectors(other);
    expect(asked.map((w) => lookupWord(right, w))).toEqual(got);
    expect(right.byPrefix?.all).toBe(true);
  });
});

describe('the glossary read uncompressed and searched in its bytes', () => {
  /** Forward maximum matching on a map of every line, trying each length downwards: the plain reading of the file. */
  const reference = (): ((run: string) => string[]) => {
    const heads = new Map<string, string>();
    let longest = 0;
    for (const line of readFileSync(defaultGlossaryFile(), 'utf8').split('\n')) {
      const tab = line.indexOf('\t');
      heads.set(line.slice(0, tab), line.slice(tab + 1));
      longest = Math.max(longest, tab);
    }
    return (run) => {
      const out: string[] = [];
      for (let i = 0; i < run.length;) {
        let len = Math.min(longest, run.length - i);
        while (len > 0 && !heads.has(run.slice(i, i + len))) len--;
        if (len > 0) out.push(...heads.get(run.slice(i, i + len))!.split(' '));
        i += len > 0 ? len : 1;
      }
      return out;
    };
  };

  it('gives the shipped file’s words for every Chinese run of the fixture catalogues and for joined headwords', () => {
    const plain = reference();
    const text = readFileSync(defaultGlossaryFile(), 'utf8');
    const heads = text.split('\n').map((l) => l.slice(0, l.indexOf('\t')));
    const runs = new Set<string>([heads[0]!, heads.at(-1)!, '\u{20000}\uf900', '台\u{2A6D6}']);
    let fromFixtures = 0;
    for (const text of fixtureTexts())
      for (const m of text.matchAll(/\p{Script=Han}+/gu)) fromFixtures += runs.add(m[0]) ? 1 : 0;
    expect(fromFixtures).toBeGreaterThan(5);
    // Headwords (and headwords without their last character) joined, astral ones included: spread over the file.
    for (let i = 0; i < 3000; i++) {
      const k = 1 + (i % 4);
      let run = '';
      for (let j = 0; j < k; j++) {
        const h = heads[(i * 7919 + j * 104_729) % heads.length]!;
        run += j % 2 === 1 ? [...h].slice(0, -1).join('') || h : h;
      }
      runs.add(run);
    }
    expect(runs.size).toBeGreaterThan(3000);
    let glossed = 0;
    for (const run of runs) {
      const got = glossHan(run);
      expect(got, run).toEqual(plain(run));
      if (got.length > 0) glossed++;
    }
    expect(glossed).toBeGreaterThan(3000);
  });

  it('reads a gzip-compressed glossary as well', () => {
    const lines = ['火\tfire', '火车\ttrain', '票\tticket', '站\tstand']; // sorted by UTF-16 code units
    const file = join(dir, 'glossary.tsv.gz');
    writeFileSync(file, gzipSync(lines.join('\n')));
    const raw = join(dir, 'glossary.tsv');
    writeFileSync(raw, lines.join('\n'));
    try {
      setGlossaryFile(file);
      expect(glossHan('火车站票')).toEqual(['train', 'stand', 'ticket']);
      setGlossaryFile(raw);
      expect(glossHan('火车站票')).toEqual(['train', 'stand', 'ticket']);
      setGlossaryFile(join(dir, 'missing.tsv'));
      expect(glossHan('火车站票')).toEqual([]);
    } finally {
      setGlossaryFile(defaultGlossaryFile());
    }
  });
});
