// Writes dist/ranks/<encoding>.bin for the encodings we count with, from the installed gpt-tokenizer's own rank
// tables (nothing is downloaded), in the form src/core/tokens/rank-table.ts loads in milliseconds instead of
// requiring a 2.4 MB JavaScript module. Runs after tsc (it uses dist/core/tokens/rank-table.js).
//
//   node scripts/build-ranks.mjs
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(REPO, 'dist', 'ranks');
export const ENCODINGS = ['o200k_base', 'cl100k_base'];

export async function buildRanks({ out = OUT } = {}) {
  const { encodeRankTable } = await import(pathToFileURL(join(REPO, 'dist', 'core', 'tokens', 'rank-table.js')).href);
  const require = createRequire(join(REPO, 'package.json'));
  const { version } = require('gpt-tokenizer/package.json');
  mkdirSync(out, { recursive: true });
  const written = [];
  for (const encoding of ENCODINGS) {
    const ranks = require(`gpt-tokenizer/bpeRanks/${encoding}`).default;
    const bytes = encodeRankTable(ranks, { encoding, gptTokenizer: version });
    const file = join(out, `${encoding}.bin`);
    writeFileSync(`${file}.tmp`, bytes);
    renameSync(`${file}.tmp`, file);
    written.push([file, bytes.length]);
  }
  return written;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [file, n] of await buildRanks()) console.log(`ranks: ${relative(REPO, file)} ${(n / 1024).toFixed(0)} KB`);
}
