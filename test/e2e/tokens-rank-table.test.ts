// The built CLI counts from the rank tables the build writes (dist/ranks/, scripts/build-ranks.mjs): they are the
// installed gpt-tokenizer's tables, the CLI no longer requires gpt-tokenizer's 2.4 MB rank module, and a cold-cache
// audit gives the same counts with the tables as without them (hidden by test/helpers/record-requires.cjs).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodeRankTable } from '../../src/core/tokens/rank-table.js';
import type { Encoding } from '../../src/core/types.js';
import { fixture, REPO, requireBuild } from '../helpers/paths.js';
import { gptTokenizerRanks, gptTokenizerVersion } from '../helpers/rank-table.js';
import { sandboxEnv, spawnCli } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

requireBuild();
const HOOK = fileURLToPath(new URL('../helpers/record-requires.cjs', import.meta.url));

interface AuditDoc {
  totals: { toolCount: number; tokens: Record<string, number> };
  servers: { name: string; tools: { name: string; tokens: Record<string, number> }[] }[];
}

/** `audit --json` of a 2-server snapshot with an empty cache; what it printed and the modules it required. */
async function coldAudit(encoding: Encoding, hideTables: boolean): Promise<{ doc: AuditDoc; requires: string[] }> {
  const dir = tempDir('mcp-smart-ranks-e2e-');
  const record = join(dir, 'requires.txt');
  const snapshots = ['many-tools.json', 'audit-findings.json'].flatMap((f) => ['--snapshot', fixture('snapshots', f)]);
  const r = await spawnCli([...snapshots, 'audit', '--encoding', encoding, '--json'], {
    cwd: dir,
    env: sandboxEnv(dir, {
      NODE_OPTIONS: `--require=${HOOK}`,
      MCP_SMART_RECORD_REQUIRES: record,
      MCP_SMART_HIDE_RANK_TABLES: hideTables ? '1' : '',
    }),
    timeoutMs: 120_000,
  });
  expect(r.code, r.stderr).toBe(0);
  let requires: string[] = [];
  try {
    requires = readFileSync(record, 'utf8').split('\n').filter(Boolean);
  } catch {
    // nothing required
  }
  return { doc: JSON.parse(r.stdout) as AuditDoc, requires };
}

describe.each(['o200k_base', 'cl100k_base'] as Encoding[])('the built rank table (%s)', (encoding) => {
  it('is the installed gpt-tokenizer’s table, byte for byte as the build writes it', () => {
    const built = readFileSync(join(REPO, 'dist', 'ranks', `${encoding}.bin`));
    const expected = encodeRankTable(gptTokenizerRanks(encoding), { encoding, gptTokenizer: gptTokenizerVersion() });
    expect(built.equals(Buffer.from(expected))).toBe(true);
  });

  it('a cold audit counts from it, without gpt-tokenizer’s rank module, and gives the same counts', async () => {
    const [fast, before] = await Promise.all([coldAudit(encoding, false), coldAudit(encoding, true)]);
    const rankModule = new RegExp(`gpt-tokenizer/cjs/bpeRanks/${encoding}\\.js$`);
    expect(before.requires.filter((r) => r.includes('bpeRanks/'))).toEqual([expect.stringMatching(rankModule)]);
    expect(fast.requires.filter((r) => r.includes('bpeRanks/'))).toEqual([]);
    expect(fast.doc.totals.toolCount).toBeGreaterThan(10);
    expect(fast.doc.totals.tokens.full).toBeGreaterThan(1_000);
    expect(fast.doc.totals).toEqual(before.doc.totals);
    const perTool = (d: AuditDoc): string[] =>
      d.servers.flatMap((s) => s.tools.map((t) => `${s.name}/${t.name} ${JSON.stringify(t.tokens)}`));
    expect(perTool(fast.doc)).toEqual(perTool(before.doc));
  }, 240_000);
});
