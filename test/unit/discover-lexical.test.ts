import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { EXPANSION_WEIGHT, bm25Query } from '../../src/core/discover/bm25.js';
import { buildDiscoverIndex, rankTools } from '../../src/core/discover/index.js';
import { lexicalExpansions, setLexicalFile } from '../../src/core/discover/lexical.js';
import { readingNotes } from '../../src/core/discover/named.js';
import { readIntent } from '../../src/core/discover/intent.js';
import { stem } from '../../src/core/discover/tokenize.js';

const shipped = (): void => setLexicalFile(new URL('../../data/wordnet-lexical.tsv.gz', import.meta.url).pathname);
const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-lexical-'));
afterEach(shipped);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('WordNet attributes and agents (data/wordnet-lexical.tsv.gz)', () => {
  it('reads "how <adjective>" as its attribute, through the head adjective of a satellite', () => {
    const words = (intent: string) => lexicalExpansions(intent).map((e) => `${e.from}>${e.word}:${e.kind}`);
    expect(words('how big is report.pdf?')).toEqual(['big>size:attribute', 'big>importance:attribute']);
    expect(words('How far is it from Berlin to Munich?')[0]).toBe('far>distance:attribute');
    expect(words('how old is this branch')).toEqual(['old>age:attribute']);
    expect(words('how heavy is the parcel')).toEqual(['heavy>weight:attribute']);
    expect(words('how long will the build take')).toEqual(['long>duration:attribute', 'long>length:attribute']);
  });

  it('reads "how <adverb>" as the attribute of the adjective it comes from, that word\'s own', () => {
    expect(lexicalExpansions('how quickly does the page load?').map((e) => e.word)).toEqual(['speed']);
    expect(lexicalExpansions('how deeply is it nested').map((e) => e.word)).toEqual(['depth']);
    // An adjective that is also an adverb keeps the adjective's attributes ("far" → distance first).
    expect(lexicalExpansions('how far is it').map((e) => e.word)[0]).toBe('distance');
  });

  it('reads "who <verb>" as the person WordNet derives from it, whatever its inflection', () => {
    expect(lexicalExpansions('who owns the billing repo?')).toEqual([{ word: 'owner', from: 'owns', kind: 'agent' }]);
    expect(lexicalExpansions('who sends the invoices').map((e) => e.word)).toEqual(['sender']);
    expect(lexicalExpansions('who analyzed the incident').map((e) => e.word)).toEqual(['analyst']);
  });

  it('keeps a person WordNet derives only from a rarer sense of the noun out ("create" is no "creature")', () => {
    expect(lexicalExpansions('who created this page?')).toEqual([]);
  });

  it('finds nothing in a request without "how <word>" or "who <word>", nor after a stop word', () => {
    expect(lexicalExpansions('get the size of report.pdf')).toEqual([]);
    expect(lexicalExpansions('how do I delete a branch?')).toEqual([]);
    expect(lexicalExpansions('who is on call today?')).toEqual([]);
  });

  it('reads the table only when a request asks how or who <word>, and no expansion without it', () => {
    const file = join(dir, 'lexical.tsv.gz');
    setLexicalFile(file);
    writeFileSync(file, gzipSync('big\tbulk\t\n'));
    expect(lexicalExpansions('how do I list the files')).toEqual([]);
    // Not read yet: the file written now is the one read.
    writeFileSync(file, gzipSync('big\tmagnitude\t\nown\t\tholder\n'));
    expect(lexicalExpansions('how big is it, and who owns it').map((e) => e.word)).toEqual(['magnitude', 'holder']);
    setLexicalFile(join(dir, 'missing.tsv.gz'));
    expect(lexicalExpansions('how big is it')).toEqual([]);
    setLexicalFile(null);
    expect(lexicalExpansions('how big is it')).toEqual([]);
  });

  it("adds the attribute to the query below a literal word's weight, once, and names it for --explain", () => {
    const q = bm25Query('how big is report.pdf');
    const k = q.terms.indexOf(stem('size'));
    expect(k).toBeGreaterThanOrEqual(q.literal.length);
    expect(q.weights[k]).toBe(EXPANSION_WEIGHT);
    expect(EXPANSION_WEIGHT).toBeLessThan(1);
    expect(q.expansions.map((e) => e.word)).toEqual(['size', 'importance']);
    // The intent saying the attribute itself keeps it literal, at full weight.
    const literal = bm25Query('how big is the size of report.pdf');
    expect(literal.weights[literal.terms.indexOf(stem('size'))]).toBe(1);
    expect(literal.expansions.map((e) => e.word)).toEqual(['importance']);
    expect(readingNotes(readIntent('how big is report.pdf'), [], [], q.expansions)).toEqual([
      '"how big" asks for the size (WordNet attribute)',
      '"how big" asks for the importance (WordNet attribute)',
    ]);
  });

  it('ranks the tool naming the attribute first, and explains why in the reading', () => {
    const ref = (name: string, description: string) => ({
      id: `files.${name}`,
      server: 'files',
      tool: { name, description, inputSchema: { type: 'object' } },
    });
    const index = buildDiscoverIndex([
      ref('get_file_info', 'Get the size and modification time of a file'),
      ref('read_file', 'Read the contents of a file'),
      ref('move_file', 'Move or rename a file'),
    ]);
    const intent = 'how big is the file notes.txt?';
    const ranked = rankTools(index, intent, { engine: 'bm25', k: 3 });
    expect(ranked.results[0]!.id).toBe('files.get_file_info');
    expect(ranked.reading).toContain('"how big" asks for the size (WordNet attribute)');
    setLexicalFile(null);
    const without = rankTools(index, intent, { engine: 'bm25', k: 3 });
    // Without the table, "file" alone ties the three tools; the shorter descriptions win.
    expect(without.results[0]!.id).not.toBe('files.get_file_info');
    expect(without.reading ?? []).not.toContain('"how big" asks for the size (WordNet attribute)');
  });
});
