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
import { describe, expect, it } from 'vitest';
import { RACY_MS, catalogueCacheFile, readCatalogue } from '../../src/app/catalogue.js';
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
      expect(hit.stderr).toContain('debug: snapshot read from the catalogue start cache');
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
    await readCatalogue([snap], dir, { cacheDir: cache, now: later });
    expect((await readCatalogue([snap], dir, { cacheDir: cache, now: later })).lean).toBe(true);
    const { atime, mtime, size } = statSync(snap);
    await sleep(50); // past the file system's timestamp tick
    const text = readFileSync(snap, 'utf8');
    const edited = text.replace('listPullRequests', 'listPullRequestz');
    expect(edited).not.toBe(text);
    writeFileSync(snap, edited);
    utimesSync(snap, atime, mtime);
    expect(statSync(snap).size).toBe(size);
    expect(statSync(snap).mtimeMs).toBe(mtime.getTime());
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
