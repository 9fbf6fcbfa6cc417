import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import {
  loadUsageStats,
  readUsageStore,
  updateUsageStore,
  usageStorePath,
} from '../../src/core/session/usage-store.js';
import { DAY_MS } from '../../src/core/session/usage.js';
import { REPO } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('mcp-smart-store-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NOW = Date.UTC(2025, 8, 10);
const bump =
  (id: string, ok = true) =>
  (d: Parameters<Parameters<typeof updateUsageStore>[1]>[0]) => {
    const u = d.tools[id] ?? { success: 0, failure: 0, lastUsed: 0, categories: {} };
    return {
      ...d,
      tools: {
        ...d.tools,
        [id]: { ...u, success: u.success + (ok ? 1 : 0), failure: u.failure + (ok ? 0 : 1), lastUsed: NOW },
      },
    };
  };

describe('usage store', () => {
  it('lives in the data folder, MCP_SMART_DATA_DIR overriding', () => {
    expect(usageStorePath({ env: { MCP_SMART_DATA_DIR: '/d' }, platform: 'linux', home: '/h' })).toBe(
      join('/d', 'usage.json'),
    );
    expect(usageStorePath({ env: {}, platform: 'linux', home: '/h' })).toBe(
      join('/h', '.local', 'share', 'mcp-smart', 'usage.json'),
    );
  });

  it('starts empty, writes atomically, and applies the TTL when loading', async () => {
    const file = join(dir, 'a', 'usage.json');
    expect((await readUsageStore(file, NOW)).doc.tools).toEqual({});
    await updateUsageStore(file, bump('fs.read'), { now: NOW });
    await updateUsageStore(file, bump('fs.read', false), { now: NOW });
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc.format).toBe('mcp-smart/usage@1');
    expect(doc.tools['fs.read']).toMatchObject({ success: 1, failure: 1, lastUsed: NOW });
    expect(readdirSync(join(dir, 'a')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // Memory is measured from the newest recording, not the wall clock: a year later the store still knows it.
    const later = await loadUsageStats(file, NOW + 365 * DAY_MS);
    expect(Object.keys(later.stats.tools)).toEqual(['fs.read']);
    expect(later.reference).toBe(NOW);
  });

  it('forgets by decay and a cap relative to the newest recording', async () => {
    const file = join(dir, 'memory', 'usage.json');
    const at = (id: string, time: number) => (d: Parameters<Parameters<typeof updateUsageStore>[1]>[0]) => ({
      ...d,
      tools: { ...d.tools, [id]: { success: 4, failure: 0, lastUsed: time, categories: { other: 4 } } },
    });
    await updateUsageStore(file, at('a.new', NOW), { now: NOW, memory: { ttlDays: 0 } });
    await updateUsageStore(file, at('b.month', NOW - 30 * DAY_MS), { now: NOW, memory: { ttlDays: 0 } });
    await updateUsageStore(file, at('c.old', NOW - 100 * DAY_MS), { now: NOW, memory: { ttlDays: 0 } });
    const r = await loadUsageStats(file, NOW + 1000 * DAY_MS);
    // Default: counts halve every 30 days before the newest recording; beyond 90 days a tool is forgotten.
    expect(r.reference).toBe(NOW);
    expect(Object.keys(r.stats.tools)).toEqual(['a.new', 'b.month']);
    expect(r.stats.tools['a.new']!.success).toBe(4);
    expect(r.stats.tools['b.month']!.success).toBeCloseTo(2, 10);
    expect(r.stats.tools['b.month']!.categories.other).toBeCloseTo(2, 10);
    const capped = await loadUsageStats(file, NOW, { ttlDays: 7 });
    expect(Object.keys(capped.stats.tools)).toEqual(['a.new']);
    const all = await loadUsageStats(file, NOW, { ttlDays: 0, halfLifeDays: 0 });
    expect(Object.keys(all.stats.tools)).toEqual(['a.new', 'b.month', 'c.old']);
    expect(all.stats.tools['c.old']!.success).toBe(4);
    // The write-time cap is relative to the newest recording as well: a 7-day cap drops only the older tools, at
    // most half the store per write (the oldest first, store/retention.ts), so the second write takes the last one.
    const first = await updateUsageStore(file, (d) => d, { now: NOW + 1000 * DAY_MS, memory: { ttlDays: 7 } });
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).tools)).toEqual(['a.new', 'b.month']);
    expect(first.warnings.join('\n')).toContain('the retention cap forgot 1 of 3 tools in this write and kept 1 more');
    await updateUsageStore(file, (d) => d, { now: NOW + 1000 * DAY_MS, memory: { ttlDays: 7 } });
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).tools)).toEqual(['a.new']);
  });

  it('reads a plain usage document (no "format"; tools at the top or under stats/usage) and never writes over it', async () => {
    const use = { success: 3, failure: 1, lastUsed: NOW, categories: { other: 4 } };
    for (const [name, body] of [
      ['top', { tools: { 'a.x': use } }],
      ['stats', { stats: { tools: { 'a.x': use } } }],
      ['usage', { usage: { tools: { 'a.x': use, 'a.bad': { success: 'many' } } } }],
    ] as const) {
      const file = join(dir, `plain-${name}.json`);
      const text = JSON.stringify(body);
      writeFileSync(file, text);
      const read = await readUsageStore(file, NOW);
      expect(read.plain).toBe(true);
      expect(read.doc.tools).toEqual({ 'a.x': use });
      expect(read.warnings).toEqual(name === 'usage' ? [`usage store ${file}: ignored 1 malformed tool entry`] : []);
      expect((await loadUsageStats(file, NOW)).stats.tools['a.x']?.success).toBe(3);
      await expect(updateUsageStore(file, bump('a.x'), { now: NOW })).rejects.toThrow(
        /plain usage document .* never writes over\. It was left untouched; learn into another file/,
      );
      expect(readFileSync(file, 'utf8')).toBe(text);
      expect(existsSync(`${file}.lock`)).toBe(false);
    }
    const missing = await readUsageStore(join(dir, 'none.json'), NOW);
    expect(missing.missing).toBe(true);
  });

  it('an update warns once about malformed entries (it reads the store twice: before and under the lock)', async () => {
    const file = join(dir, 'malformed.json');
    writeFileSync(
      file,
      JSON.stringify({ format: 'mcp-smart/usage@1', tools: { 'a.bad': { success: 'x' } }, sessions: {} }),
    );
    const r = await updateUsageStore(file, bump('a.x'), { now: NOW });
    expect(r.warnings).toEqual([`usage store ${file}: ignored 1 malformed tool entry`]);
  });

  it('moves a corrupt file aside with a warning instead of failing', async () => {
    const file = join(dir, 'corrupt', 'usage.json');
    mkdirSync(join(dir, 'corrupt'));
    writeFileSync(file, '{"format": "mcp-smart/usage@1", "tools": {');
    const r = await loadUsageStats(file, NOW);
    expect(r.stats.tools).toEqual({});
    expect(r.warnings[0]).toMatch(/unreadable.*moved it to .*usage\.json\.corrupt-/);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(join(dir, 'corrupt')).some((f) => f.startsWith('usage.json.corrupt-'))).toBe(true);
  });

  it('loses no update when two processes update it at once', async () => {
    const child = join(REPO, 'node_modules', '.cache', `usage-store-child-${process.pid}.mjs`);
    mkdirSync(join(REPO, 'node_modules', '.cache'), { recursive: true });
    writeFileSync(
      `${child}.ts`,
      `import { updateUsageStore } from ${JSON.stringify(join(REPO, 'src/core/session/usage-store.ts'))};
const [file, tag, n] = process.argv.slice(2);
for (let i = 0; i < Number(n); i++) {
  await updateUsageStore(file, (d) => {
    const shared = d.tools['shared.tool'] ?? { success: 0, failure: 0, lastUsed: 0, categories: {} };
    const own = d.tools[tag + '.tool'] ?? { success: 0, failure: 0, lastUsed: 0, categories: {} };
    return { ...d, tools: { ...d.tools, 'shared.tool': { ...shared, success: shared.success + 1, lastUsed: 1 }, [tag + '.tool']: { ...own, success: own.success + 1, lastUsed: 1 } } };
  }, { now: 2, memory: { ttlDays: 0 } });
}
`,
    );
    buildSync({
      entryPoints: [`${child}.ts`],
      outfile: child,
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'silent',
    });
    const file = join(dir, 'race', 'usage.json');
    const N = 25;
    const run = (tag: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const p = spawn(process.execPath, [child, file, tag, String(N)], {
          stdio: ['ignore', 'ignore', 'pipe'],
          timeout: 60_000,
        });
        let err = '';
        p.stderr.on('data', (d) => (err += d));
        p.on('error', reject);
        p.on('close', (code) =>
          code === 0 ? resolve(code) : reject(new Error(`child ${tag} exited ${code}: ${err}`)),
        );
      });
    try {
      await Promise.all([run('a'), run('b')]);
    } finally {
      rmSync(child, { force: true });
      rmSync(`${child}.ts`, { force: true });
    }
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc.tools['shared.tool'].success).toBe(2 * N);
    expect(doc.tools['a.tool'].success).toBe(N);
    expect(doc.tools['b.tool'].success).toBe(N);
  });
});
