// The first discover's faster paths give what the slow ones gave: the glossary searched in its text (no table of
// line starts) and the stem buckets scanned by first-two-letter groups once a build has stemmed a few.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeWordVectors, parseWordVectors } from '../../src/core/discover/engine.js';
import { defaultGlossaryFile, glossHan, setGlossaryFile } from '../../src/core/discover/gloss.js';
import { stem } from '../../src/core/discover/tokenize.js';
import { lookupWord } from '../../src/core/discover/vectors.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-first-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('glossary lookups without a table of line starts', () => {
  it('cuts a run into the longest headwords, left to right, at the file’s first and last lines too', () => {
    // Sorted by UTF-16 code units; "火车站台" has no entry though "火车站" and "火车站台票" do, so the longest match
    // there is "火车站"; an astral headword (surrogate pair) sorts among the others by its code units.
    const lines = [
      ['丁', 'ding'],
      ['火', 'fire'],
      ['火车', 'train'],
      ['火车站', 'railway station'],
      ['火车站台票', 'platform ticket'],
      ['站', 'stand'],
      ['票', 'ticket'],
      ['\u{20000}', 'astral'],
      ['龟', 'turtle'],
    ].sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
    const file = join(dir, 'glossary.tsv.gz');
    writeFileSync(file, gzipSync(lines.map(([h, w]) => `${h}\t${w}`).join('\n')));
    try {
      setGlossaryFile(file);
      expect(glossHan('火车站台')).toEqual(['railway', 'station']);
      expect(glossHan('火车站台票')).toEqual(['platform', 'ticket']);
      expect(glossHan('火车票')).toEqual(['train', 'ticket']);
      expect(glossHan('丁龟')).toEqual(['ding', 'turtle']); // the first and the last line
      expect(glossHan('台\u{20000}火')).toEqual(['astral', 'fire']); // no headword starts with 台: skipped
      expect(glossHan('台')).toEqual([]);
    } finally {
      setGlossaryFile(defaultGlossaryFile());
    }
  });

  it('cuts 4,000 random runs as forward maximum matching over the headwords does, whatever they were searched before', () => {
    // Headwords over a few Han characters, one in U+F900 and one astral (their UTF-16 order is not their UTF-8 one),
    // so that runs share first characters and keys: the searches' remembered lines and headwords are used again, and
    // after 32 positions a character's lines are read as one block. 灬 and 轧 are the code points after 火 and 车 (a
    // block's range of headwords ends at the next code unit).
    const alphabet = ['火', '灬', '车', '轧', '站', '票', '台', '丁', '龟', '\uF900', '\u{20000}'];
    let seed = 11;
    const next = (k: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
      return seed % k;
    };
    const word = (n: number): string => Array.from({ length: n }, () => alphabet[next(alphabet.length)]).join('');
    const heads = new Map<string, string>();
    while (heads.size < 300) heads.set(word(1 + next(4)), `w${heads.size} x${heads.size % 7}`);
    const sorted = [...heads].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const file = join(dir, 'random-glossary.tsv');
    writeFileSync(file, sorted.map(([h, w]) => `${h}\t${w}`).join('\n') + '\n');
    const reference = (run: string): string[] => {
      const out: string[] = [];
      for (let i = 0; i < run.length;) {
        let len = Math.min(8, run.length - i);
        while (len > 0 && !heads.has(run.slice(i, i + len))) len--;
        if (len > 0) out.push(...heads.get(run.slice(i, i + len))!.split(' '));
        i += len > 0 ? len : 1;
      }
      return out;
    };
    try {
      setGlossaryFile(file);
      for (let k = 0; k < 4000; k++) {
        const run = word(1 + next(12));
        expect(glossHan(run), run).toEqual(reference(run));
      }
    } finally {
      setGlossaryFile(defaultGlossaryFile());
    }
  });

  it('finds the shipped glossary’s words as before', () => {
    expect(glossHan('查询火车票余票信息')).toEqual(
      expect.arrayContaining(['inquire', 'train', 'ticket', 'remaining', 'information']),
    );
  });
});

describe('stem buckets scanned by groups', () => {
  it('gives every word the row a table that scanned all its words gives', () => {
    // Words over many prefixes with shared stems and clashing ranks (ties go to the first row).
    const stems = ['connect', 'file', 'search', 'index', 'report', 'stream', 'upload', 'deploy', 'merge', 'build'];
    const endings = ['', 's', 'ed', 'ing', 'ion', 'er', 'ers'];
    const words = stems.flatMap((s) => endings.map((e) => s + e));
    const rows = words.map((word, i) => ({ word, rank: (i * 7) % 5, vector: [i % 3, 1, 0] }));
    const bytes = encodeWordVectors(rows, 3);
    const asked = stems.flatMap((s) => [`${s}ings`, `${s}ed`, `${s}ion`, `re${s}`, `${s}x`]);
    const grouped = parseWordVectors(bytes);
    const got = asked.map((w) => lookupWord(grouped, w)); // past the first buckets: scanned by groups
    expect(grouped.byPrefix?.groups).toBeDefined();
    // Each word on a fresh table, which scans the whole table for its one bucket.
    const alone = asked.map((w) => lookupWord(parseWordVectors(bytes), w));
    expect(got).toEqual(alone);
    // And the row is the most frequent word with the word's stem (first row on a tie).
    const best = (w: string): number | undefined => {
      let row: number | undefined;
      rows.forEach((r, i) => {
        if (stem(r.word) === stem(w) && (row === undefined || r.rank < rows[row]!.rank)) row = i;
      });
      return row;
    };
    expect(got).toEqual(asked.map((w) => (words.includes(w) ? words.indexOf(w) : best(w))));
    expect(got.filter((r) => r !== undefined).length).toBe(30); // "-ings", "-ed" and "-ion" of each stem
  });
});
