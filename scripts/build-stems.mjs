#!/usr/bin/env node
// Builds data/word-vectors.stems, the stem table shipped beside the word vectors: the Porter stem of every table
// word (src/core/discover/stem-table.ts), so a first `discover` does not stem ~9,000 table words to find the rows
// of words the table lacks. Made from the shipped table alone (nothing downloaded); run it after
// scripts/build-vectors.mjs, or after the stemmer package changes (test/unit/stem-table.test.ts checks that the
// shipped file is what the stemmer gives for every word):
//   npm run build && node scripts/build-stems.mjs
// Options: --vectors FILE (default data/word-vectors.bin); the table is written beside it.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileSafe } from '../dist/process/safe-write.js';
import { encodeStemTable, stemsFileFor } from '../dist/core/discover/stem-table.js';
import { stem } from '../dist/core/discover/tokenize.js';
import { parseWordVectors } from '../dist/core/discover/vectors.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const VECTORS = resolve(args.vectors ?? join(REPO, 'data', 'word-vectors.bin'));
const vectors = parseWordVectors(readFileSync(VECTORS));
// The rows lookupWord's stem buckets take: Latin words whose index entry is this row (a repeated word keeps its last).
const text = encodeStemTable(vectors.words, stem, (w, row) => vectors.index.get(w) === row && /^[a-z]+$/.test(w));
const out = stemsFileFor(VECTORS);
await writeFileSafe(out, Buffer.from(text, 'utf8'));
console.log(`${vectors.size} words → ${Buffer.byteLength(text)} bytes → ${out}`);
