// The rank table the build writes (scripts/build-ranks.mjs), written here from the installed gpt-tokenizer into a
// test's own folder: tests under src/ find no dist/ranks/ and would otherwise only ever load gpt-tokenizer's module.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { encodeRankTable, type RankTableMeta } from '../../src/core/tokens/rank-table.js';
import type { Encoding } from '../../src/core/types.js';
import { tempDir } from './temp.js';

const require = createRequire(import.meta.url);

/** gpt-tokenizer's own rank array of `encoding` (what its core is built from). */
export const gptTokenizerRanks = (encoding: Encoding): (string | number[])[] =>
  (require(`gpt-tokenizer/bpeRanks/${encoding}`) as { default: (string | number[])[] }).default;

export const gptTokenizerVersion = (): string => (require('gpt-tokenizer/package.json') as { version: string }).version;

/** Writes the encoding's table as the build does (or with other `meta`) and gives its URL for `loadEncodingCore`. */
export function writeRankTable(encoding: Encoding, meta: Partial<RankTableMeta> = {}): URL {
  const file = join(tempDir('mcp-smart-ranks-'), `${encoding}.bin`);
  writeFileSync(
    file,
    encodeRankTable(gptTokenizerRanks(encoding), { encoding, gptTokenizer: gptTokenizerVersion(), ...meta }),
  );
  return pathToFileURL(file);
}
