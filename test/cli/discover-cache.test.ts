import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { runCli } from '../helpers/fake-io.js';
import { tempDir } from '../helpers/temp.js';

const INTENT = 'list the pull requests';

/** A copy of a fixture snapshot in its own folder (the tests edit it), with a cache folder beside it. */
function setup(): { dir: string; snap: string; cache: string; env: Record<string, string> } {
  const dir = tempDir('mcp-smart-discover-cache-');
  const snap = join(dir, 'tools.snapshot.json');
  copyFileSync(fixture('snapshots', 'discover-ok.json'), snap);
  const cache = join(dir, 'cache');
  return { dir, snap, cache, env: { NO_COLOR: '1', MCP_SMART_CACHE_DIR: cache, MCP_SMART_DATA_DIR: dir, HOME: dir } };
}

const indexFiles = (cache: string): string[] => readdirSync(join(cache, 'discover-index')).sort();

describe('discover index cache of a --snapshot run', () => {
  it('a cache hit prints byte-identical output to --no-cache, in every format and engine', async () => {
    const { snap, cache, env } = setup();
    for (const extra of [[], ['--json'], ['--format', 'markdown']])
      for (const engine of ['hybrid', 'semantic', 'bm25']) {
        const argv = ['--snapshot', snap, ...extra, 'discover', INTENT, '--engine', engine, '--explain'];
        const fresh = await runCli(['--no-cache', ...argv], { env });
        const miss = await runCli(argv, { env });
        const hit = await runCli(argv, { env });
        expect(miss.stdout).toBe(fresh.stdout);
        expect(hit.stdout).toBe(fresh.stdout);
        expect(hit.stderr).toBe(fresh.stderr);
        expect(hit.code).toBe(fresh.code);
      }
    expect(indexFiles(cache)).toHaveLength(2); // the bm25-only index and the one with the vector table
  });

  it('a changed snapshot misses the cache and ranks its new tools; --server selects another index', async () => {
    const { snap, cache, env } = setup();
    const argv = ['--snapshot', snap, '--json', 'discover', 'archive the quarterly ledger'];
    const before = JSON.parse((await runCli(argv, { env })).stdout) as { results: { id: string }[] };
    expect(before.results.map((r) => r.id)).not.toContain('github.archiveLedger');
    const doc = JSON.parse(readFileSync(snap, 'utf8')) as {
      servers: { name: string; tools: { name: string; description?: string; inputSchema: object }[] }[];
    };
    const github = doc.servers.find((s) => s.name === 'github')!;
    github.tools.push({
      name: 'archiveLedger',
      description: 'Archive the quarterly ledger',
      inputSchema: { type: 'object' },
    });
    writeFileSync(snap, JSON.stringify(doc, null, 2));
    const after = JSON.parse((await runCli(argv, { env })).stdout) as { results: { id: string }[] };
    expect(after.results[0]!.id).toBe('github.archiveLedger');
    expect(indexFiles(cache)).toHaveLength(2);
    // The same bytes with one server selected are other tools: another index, not the whole file's.
    const one = await runCli(['--snapshot', snap, '--server', 'github', '--json', 'discover', 'list files'], { env });
    const ids = (JSON.parse(one.stdout) as { results: { id: string }[] }).results.map((r) => r.id);
    expect(ids.every((id) => id.startsWith('github.'))).toBe(true);
    expect(indexFiles(cache)).toHaveLength(3);
  });

  it('an altered, truncated or swapped cache file is not trusted: the index is rebuilt and rewritten', async () => {
    const { snap, cache, env } = setup();
    const argv = ['--snapshot', snap, '--json', 'discover', INTENT, '--explain'];
    const expected = (await runCli(['--no-cache', ...argv], { env })).stdout;
    await runCli(argv, { env });
    const [name] = indexFiles(cache);
    const file = join(cache, 'discover-index', name!);
    const good = readFileSync(file);
    // Scores depend on every payload byte: flip one in the middle of the BM25 part.
    const flipped = Buffer.from(good);
    flipped[Math.floor(good.byteLength / 3)]! ^= 0x40;
    for (const bad of [flipped, good.subarray(0, good.byteLength - 4), Buffer.from('not an index')]) {
      writeFileSync(file, bad);
      const r = await runCli(argv, { env });
      expect(r.stdout).toBe(expected);
      expect(readFileSync(file).equals(good)).toBe(true);
    }
    // A good file of other tools copied under this key is refused too (the key is sealed in the file).
    const other = setup();
    writeFileSync(other.snap, readFileSync(fixture('snapshots', 'discover-tools.json')));
    await runCli(['--snapshot', other.snap, '--json', 'discover', INTENT], { env });
    const otherFile = indexFiles(cache).find((f) => f !== name)!;
    writeFileSync(file, readFileSync(join(cache, 'discover-index', otherFile)));
    expect((await runCli(argv, { env })).stdout).toBe(expected);
    expect(readFileSync(file).equals(good)).toBe(true);
  });

  it("a snapshot run still reads the folder's mcp-smart.config.json (and a broken one is still an error)", async () => {
    const { dir, snap, env } = setup();
    const argv = ['--snapshot', snap, '--json', 'discover', INTENT];
    const top = async (): Promise<{ code: number; ids: string[] }> => {
      const r = await runCli(argv, { env, cwd: dir });
      return {
        code: r.code,
        ids: r.code === 0 ? (JSON.parse(r.stdout) as { results: { id: string }[] }).results.map((t) => t.id) : [],
      };
    };
    expect((await top()).ids[0]).toBe('github.listPullRequests');
    const config = join(dir, 'mcp-smart.config.json');
    writeFileSync(
      config,
      JSON.stringify({ patterns: { rules: [{ match: 'github.listPullRequests', exclude: true }] } }),
    );
    expect((await top()).ids).not.toContain('github.listPullRequests');
    writeFileSync(config, '{ "patterns": ');
    expect((await top()).code).toBe(2);
  });

  it('a snapshot read again skips only the depth walk of files recorded well-formed; a deep tool is caught every time', async () => {
    const { dir, snap, cache, env } = setup();
    const digestOf = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
    const argv = (file: string): string[] => ['--snapshot', file, '--json', 'discover', INTENT];
    const first = await runCli(argv(snap), { env });
    const record = join(cache, 'snapshot-checked', digestOf(snap));
    expect(readFileSync(record, 'utf8')).toBe(`mcp-smart/snapshot-checked@1 ${digestOf(snap)} well-formed\n`);
    expect((await runCli(argv(snap), { env })).stdout).toBe(first.stdout);
    // A tool nested past the limit: never recorded, so its note comes on every run.
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 210; i++) schema = { type: 'object', properties: { x: schema } };
    const deep = join(dir, 'deep.snapshot.json');
    const doc = JSON.parse(readFileSync(snap, 'utf8')) as { servers: { tools: object[] }[] };
    doc.servers[0]!.tools.push({ name: 'too_deep', inputSchema: schema });
    writeFileSync(deep, JSON.stringify(doc));
    for (let run = 0; run < 2; run++) {
      const r = await runCli(argv(deep), { env });
      expect(r.stderr).toContain('nested more than 200 levels deep');
    }
    expect(existsSync(join(cache, 'snapshot-checked', digestOf(deep)))).toBe(false);
    // A record that does not name the bytes it stands for (edited, or copied from another file) is not trusted.
    writeFileSync(join(cache, 'snapshot-checked', digestOf(deep)), readFileSync(record));
    expect((await runCli(argv(deep), { env })).stderr).toContain('nested more than 200 levels deep');
    // --no-cache records nothing.
    const other = setup();
    await runCli(['--no-cache', ...argv(other.snap)], { env: other.env });
    expect(existsSync(other.cache)).toBe(false);
  });
});
