// Issue 36.7: the documentation's counts agree with what the code has — how many meta-tools serve answers (the README
// once said "four" where five are served) and which search location mcp-smart.config.json is (it once said 6 where
// the table numbers it 8) — in README.md and every page of docs/, and the other mismatches issue 36.7 saw stay gone.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { metaTools } from '../../src/core/condense/meta.js';
import { REPO } from '../helpers/paths.js';

const FILES = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const README = FILES.map((f) => readFileSync(join(REPO, f), 'utf8')).join('\n');
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

describe('README and docs/ counts', () => {
  it('reads the README and the pages that hold the counts', () => {
    expect(FILES).toEqual(expect.arrayContaining(['README.md', 'docs/config.md', 'docs/serve-and-adopt.md']));
  });

  it("no page counts serve's tools twice, or claims a saving of 0 cases", () => {
    // serve's summary once read "64 tools served … behind it 64 tools" (128 for 64 tools).
    expect(README).not.toMatch(/tools served[^\n]*behind it \d+ tools/);
    // replay once printed "100.0 % saved" for 0 cases; the docs show no such figure.
    expect(README).not.toMatch(/\b0 cases\b[\s\S]{0,200}saved/);
    // --omit=optional leaving the demo servers out is run by test/e2e/package-install.test.ts.
  });

  it('every "<n> meta-tools" is the number of meta-tools, each of them named', () => {
    const names = metaTools().map((t) => t.name);
    expect(names).toHaveLength(5);
    const said = [...README.matchAll(/\b(\w+) meta-tools\b/g)]
      .map((m) => m[1]!.toLowerCase())
      .filter((w) => WORDS.includes(w) || /^\d+$/.test(w));
    for (const w of said) expect(WORDS.includes(w) ? WORDS.indexOf(w) : Number(w)).toBe(names.length);
    // Where the README lists them, it lists all of them.
    for (const m of README.matchAll(/meta-tools \(([^)]*find_tool[^)]*)\)/g))
      expect(m[1]!.split(',').map((s) => s.trim().replace(/`/g, ''))).toEqual(names);
  });

  it('"search location N" of mcp-smart.config.json is its row in the sources table', () => {
    const row = /^\| (\d+) \| `<cwd>\/mcp-smart\.config\.json` \|/m.exec(README);
    expect(row).not.toBeNull();
    const said = [...README.matchAll(/search location (\d+)/g)].map((m) => m[1]);
    expect(said.length).toBeGreaterThan(0);
    expect(said).toEqual(said.map(() => row![1]));
  });
});
