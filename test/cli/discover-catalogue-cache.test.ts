import {
  copyFileSync,
  existsSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RACY_MS, catalogueCacheFile, readCatalogue } from '../../src/app/services/catalogue/snapshot-files.js';
import { readSnapshotSet } from '../../src/core/snapshot.js';
import { fixture } from '../helpers/paths.js';
import { runCli } from '../helpers/fake-io.js';
import { tempDir } from '../helpers/temp.js';

/** A copy of a fixture snapshot in its own folder, with a cache folder beside it. */
function setup(name = 'discover-ok.json'): { dir: string; snap: string; cache: string; env: Record<string, string> } {
  const dir = tempDir('mcp-smart-catalogue-cache-');
  const snap = join(dir, 'tools.snapshot.json');
  copyFileSync(fixture('snapshots', name), snap);
  const cache = join(dir, 'cache');
  return { dir, snap, cache, env: { NO_COLOR: '1', MCP_SMART_CACHE_DIR: cache, MCP_SMART_DATA_DIR: dir, HOME: dir } };
}

/** A clock RACY_MS past now: the files just written count as settled (a run some seconds later). */
const later = (): number => Date.now() + RACY_MS + 1000;

const toolNames = (servers: { name: string; tools: { name: string }[] }[]): string[] =>
  servers.flatMap((s) => s.tools.map((t) => `${s.name}.${t.name}`));

describe('catalogue start cache of a --snapshot run', () => {
  it('a settled snapshot is cached once; the next runs rank from it and print byte-identical output', async () => {
    const { dir, snap, cache, env } = setup('many-tools.json');
    const full = await readSnapshotSet([snap], dir);
    const first = await readCatalogue([snap], dir, { cacheDir: cache, now: later });
    expect(first.lean).toBe(false);
    const file = catalogueCacheFile(cache, [snap], dir);
    expect(existsSync(file)).toBe(true);
    const second = await readCatalogue([snap], dir, { cacheDir: cache, now: later });
    expect(second.lean).toBe(true);
    expect(second.digest).toBe(full.digest);
    expect(toolNames(second.servers)).toEqual(toolNames(full.servers));
    expect(second.servers.flatMap((s) => s.tools).every((t) => t.inputSchema === undefined)).toBe(true);

    for (const argv of [
      ['--json', 'discover', 'list the open issues', '--explain'],
      ['discover', 'send a message to the team', '--explain'],
      ['discover', 'delete the branch', '--engine', 'bm25', '-k', '8'],
      ['discover', 'search the docs', '--engine', 'keyword'],
      ['--format', 'markdown', 'discover', 'read a file', '--engine', 'semantic'],
    ]) {
      const fresh = await runCli(['--no-cache', '--snapshot', snap, ...argv], { env });
      const hit = await runCli(['--debug', '--snapshot', snap, ...argv], { env });
      expect(hit.stderr).toContain('debug: tool lists read from the catalogue start cache');
      expect(hit.stdout).toBe(fresh.stdout);
      expect(hit.code).toBe(fresh.code);
    }
    expect(readdirSync(join(cache, 'catalogue'))).toHaveLength(1);
  });

  it('a file changed less than RACY_MS ago is read in full and not cached (an edit in the same tick would hide)', async () => {
    const { dir, snap, cache, env } = setup();
    for (let run = 0; run < 2; run++)
      expect((await readCatalogue([snap], dir, { cacheDir: cache, now: Date.now })).lean).toBe(false);
    await runCli(['--snapshot', snap, 'discover', 'list the pull requests'], { env });
    expect(existsSync(join(cache, 'catalogue'))).toBe(false);
  });

  it('a same-size edit with the modification time put back is seen (its change time moved): never stale', async () => {
    const { dir, snap, cache } = setup();
    // Whole seconds, so that the times put back below are exactly these (utimes takes seconds as a double).
    const stamp = Math.floor(Date.now() / 1000) - 60;
    utimesSync(snap, stamp, stamp);
    await readCatalogue([snap], dir, { cacheDir: cache, now: later });
    expect((await readCatalogue([snap], dir, { cacheDir: cache, now: later })).lean).toBe(true);
    const { mtimeNs, size } = statSync(snap, { bigint: true });
    await sleep(50); // past the file system's timestamp tick
    const text = readFileSync(snap, 'utf8');
    const edited = text.replace('listPullRequests', 'listPullRequestz');
    expect(edited).not.toBe(text);
    writeFileSync(snap, edited);
    utimesSync(snap, stamp, stamp);
    expect(statSync(snap, { bigint: true }).size).toBe(size);
    expect(statSync(snap, { bigint: true }).mtimeNs).toBe(mtimeNs);
    const after = await readCatalogue([snap], dir, { cacheDir: cache, now: later });
    expect(after.lean).toBe(false);
    expect(toolNames(after.servers)).toContain('github.listPullRequestz');
    expect((await readCatalogue([snap], dir, { cacheDir: cache, now: later })).lean).toBe(true);
  });

  it('an altered, truncated or swapped cache file is not trusted: the snapshot is read in full and the entry rewritten', async () => {
    const { dir, snap, cache, env } = setup();
    await readCatalogue([snap], dir, { cacheDir: cache, now: later });
    const file = catalogueCacheFile(cache, [snap], dir);
    const good = readFileSync(file);
    const argv = ['--snapshot', snap, '--json', 'discover', 'list the pull requests', '--explain'];
    const expected = (await runCli(['--no-cache', ...argv], { env })).stdout;
    // Another catalogue's good entry, copied under this one's name.
    const other = setup('discover-tools.json');
    await readCatalogue([other.snap], other.dir, { cacheDir: cache, now: later });
    const swapped = readFileSync(catalogueCacheFile(cache, [other.snap], other.dir));
    const flipped = Buffer.from(good);
    flipped[Math.floor(good.byteLength / 2)]! ^= 0x20;
    for (const bad of [flipped, good.subarray(0, good.byteLength - 3), Buffer.from('not a cache'), swapped]) {
      writeFileSync(file, bad);
      const r = await readCatalogue([snap], dir, { cacheDir: cache, now: later });
      expect(r.lean).toBe(false);
      expect(readFileSync(file).equals(good)).toBe(true);
      writeFileSync(file, bad);
      const cli = await runCli(argv, { env });
      expect(cli.stdout).toBe(expected);
    }
  });

  it('--no-cache writes nothing; a snapshot removed after it was cached is still "not found"', async () => {
    const { dir, snap, cache, env } = setup();
    expect((await readCatalogue([snap], dir, { cacheDir: undefined, now: later })).lean).toBe(false);
    expect(existsSync(cache)).toBe(false);
    await readCatalogue([snap], dir, { cacheDir: cache, now: later });
    rmSync(snap);
    const r = await runCli(['--snapshot', snap, 'discover', 'list the pull requests'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('tools.snapshot.json');
  });
});

describe('catalogue start cache of configured servers answered from the tool-list cache', () => {
  const SERVER = fixture('servers', 'catalog-server.mjs');

  /** Two configured fixture servers, listed once live so that their lists are in the tool-list cache. */
  async function configured(): Promise<{ dir: string; config: string; cache: string; env: Record<string, string> }> {
    const dir = tempDir('mcp-smart-catalogue-configured-');
    const catalog = join(dir, 'notes.json');
    copyFileSync(fixture('servers', 'catalogs', 'tiny.json'), catalog);
    const config = join(dir, 'servers.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          notes: { command: process.execPath, args: [SERVER, catalog] },
          more: { command: process.execPath, args: [SERVER, fixture('servers', 'catalogs', 'duplicate-names.json')] },
        },
      }),
    );
    const cache = join(dir, 'cache');
    const env = { NO_COLOR: '1', MCP_SMART_CACHE_DIR: cache, MCP_SMART_DATA_DIR: dir, HOME: dir };
    expect((await runCli(['-c', config, 'discover', 'search my notes'], { env, cwd: dir })).code).toBe(0);
    return { dir, config, cache, env };
  }

  afterEach(() => vi.useRealTimers());

  it('lists all from the cache: cached once settled, then ranked from it with the same output; never past their lifetime', async () => {
    const { dir, config, cache, env } = await configured();
    const argv = ['--debug', '-c', config, '--json', 'discover', 'delete a note', '--explain'];
    const live = await runCli(argv, { env, cwd: dir });
    expect(live.stderr).not.toContain('catalogue start cache');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + RACY_MS + 1000 });
    const writes = await runCli(argv, { env, cwd: dir });
    expect(writes.stderr).not.toContain('catalogue start cache');
    const hit = await runCli(argv, { env, cwd: dir });
    expect(hit.stderr).toContain('debug: tool lists read from the catalogue start cache');
    expect(hit.stdout).toBe(live.stdout);
    expect(hit.stdout).toContain('notes.delete_note');
    // A damaged start-cache file is not trusted: the lists are read from the tool-list cache and the file rewritten.
    const startFile = readdirSync(join(cache, 'catalogue')).map((f) => join(cache, 'catalogue', f))[0]!;
    const good = readFileSync(startFile);
    const bad = Buffer.from(good);
    bad[Math.floor(good.byteLength / 2)]! ^= 0x20;
    writeFileSync(startFile, bad);
    const damaged = await runCli(argv, { env, cwd: dir });
    expect(damaged.stderr).not.toContain('catalogue start cache');
    expect(damaged.stdout).toBe(live.stdout);
    expect(readFileSync(startFile).equals(good)).toBe(true);
    // Two hours on, the tool-list entries have expired: the servers are listed live, not taken from the start cache.
    vi.setSystemTime(Date.now() + 2 * 3600_000);
    const expired = await runCli(argv, { env, cwd: dir });
    expect(expired.stderr).not.toContain('catalogue start cache');
    expect(expired.stdout).toBe(live.stdout);
  }, 30_000);

  it('a tool-list entry rewritten since is seen: its new text ranks, nothing stale is served', async () => {
    const { dir, config, cache, env } = await configured();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + RACY_MS + 1000 });
    const argv = ['--debug', '-c', config, '--json', 'discover', 'archive the quarterly ledger'];
    await runCli(argv, { env, cwd: dir });
    expect((await runCli(argv, { env, cwd: dir })).stderr).toContain('catalogue start cache');
    const entries = readdirSync(join(cache, 'tool-lists')).map((f) => join(cache, 'tool-lists', f));
    // The notes server's entry: the only one with echo (both catalogues have a search_notes).
    const notes = entries.find((f) => readFileSync(f, 'utf8').includes('Echo the message back.'))!;
    writeFileSync(
      notes,
      readFileSync(notes, 'utf8').replace('Echo the message back.', 'Archive the quarterly ledger.'),
    );
    const after = await runCli(argv, { env, cwd: dir });
    expect(after.stderr).not.toContain('catalogue start cache');
    const top = (JSON.parse(after.stdout) as { results: { id: string }[] }).results[0]!.id;
    expect(top).toBe('notes.echo');
  }, 30_000);
});
