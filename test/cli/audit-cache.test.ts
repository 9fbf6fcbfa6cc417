// The audit cache: a warm re-audit answers each unchanged server from <cache>/audit/ and reports exactly what a
// cold audit (--no-cache) reports; a changed tool misses the cache and is counted anew.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('mcp-smart-audit-cache-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { NO_COLOR: '1', HOME: dir, MCP_SMART_CACHE_DIR: join(dir, 'cache') };
const snapshot = join(dir, 'snap.json');
writeFileSync(snapshot, readFileSync(fixture('snapshots', 'audit-findings.json')));

const audit = async (...extra: string[]): Promise<string> => {
  const r = await runCli(['--snapshot', snapshot, ...extra, '--json', 'audit'], { env, cwd: dir });
  expect(r.code).toBeLessThan(2);
  return r.stdout;
};

describe('audit cache', () => {
  it('a warm audit reports what a cold one does, from the cache file', async () => {
    const cold = await audit('--no-cache');
    expect(existsSync(join(dir, 'cache', 'audit'))).toBe(false);
    const first = await audit();
    const file = join(dir, 'cache', 'audit', 'o200k_base-json.json');
    expect(existsSync(file)).toBe(true);
    const cached = JSON.parse(readFileSync(file, 'utf8')) as { servers: Record<string, unknown>; meta: number };
    const doc = JSON.parse(cold) as { servers: { status: string }[]; totals: { tokens: { meta: number } } };
    expect(Object.keys(cached.servers)).toHaveLength(doc.servers.filter((s) => s.status === 'ok').length);
    expect(cached.meta).toBe(doc.totals.tokens.meta);
    const warm = await audit();
    expect(first).toBe(cold);
    expect(warm).toBe(cold);
  });

  it('a changed description misses the cache and is counted anew', async () => {
    const before = JSON.parse(await audit()) as { totals: { tokens: { full: number } } };
    const snap = JSON.parse(readFileSync(snapshot, 'utf8')) as { servers: { tools: { description?: string }[] }[] };
    const tool = snap.servers.find((s) => s.tools.length > 0)!.tools[0]!;
    tool.description = `${tool.description ?? ''} Now with a much longer description than before, word after word.`;
    writeFileSync(snapshot, JSON.stringify(snap));
    const warm = await audit();
    const cold = await audit('--no-cache');
    expect(warm).toBe(cold);
    expect((JSON.parse(warm) as typeof before).totals.tokens.full).toBeGreaterThan(before.totals.tokens.full);
  });
});
