/**
 * The catalogue start cache (cache folder `catalogue/`): what a run on the same --snapshot files needs to rank and
 * answer, without parsing and checking the whole snapshot again (core/catalogue-cache.ts holds the payload).
 *
 * It is found by the files' paths and trusted only while every file is the one it was built from: the same device,
 * inode, size, modification time and change time (nanoseconds). Any write to a file, a rename over it or a restored
 * modification time changes its change time, which no user call sets. The one gap, an edit within the same
 * timestamp tick as the read that built the cache, is closed as Git closes its "racy" index entries: a file changed
 * less than RACY_MS before it was read is not cached (read in full until it is older), and the files are stat'ed
 * before and after the read, so a change while reading is not cached either. The entry is sealed (sealed-file.ts)
 * under a key holding those stats: a damaged, truncated or stale file is rebuilt, never trusted.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CATALOGUE_CACHE_VERSION, decodeCatalogue, encodeCatalogue } from '../core/catalogue-cache.js';
import { openSealed, sealBytes } from '../core/sealed-file.js';
import { readSnapshotSet, type CheckedSnapshots, type SnapshotSet } from '../core/snapshot.js';
import { writeFileSafe } from '../safe-write.js';
import type { SetupPaths } from './paths.js';

/** Older than this (ms, by the file's own times) a file cannot change within the tick it was read in. */
export const RACY_MS = 3000;

const MAGIC = new TextEncoder().encode('mcp-smart/catalogue-cache'); // 25 bytes

/** A snapshot set, and whether it came from the start cache (its tools then carry no schemas: LeanTool). */
export interface CatalogueSet extends SnapshotSet {
  lean: boolean;
}

export interface CatalogueOptions {
  /** The cache folder; undefined with --no-cache (the files are then read in full). */
  cacheDir: string | undefined;
  checked?: CheckedSnapshots;
  /** ms since the epoch, read after the files were (the racy check compares the files' times with it). */
  now: () => number;
}

/** The files' identities as one line each: absolute path, device, inode, size, mtime and ctime in ns. */
function identities(files: readonly string[], cwd: string): string[] | undefined {
  try {
    return files.map((f) => {
      const path = resolve(cwd, f);
      const st = statSync(path, { bigint: true });
      if (!st.isFile()) throw new Error('not a file');
      return `${path}\0${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    });
  } catch {
    return undefined; // missing or special: the full read reports it
  }
}

/** True when every file was last changed RACY_MS or more before `now` (and not in the future). */
function settled(files: readonly string[], cwd: string, now: number): boolean {
  return files.every((f) => {
    const st = statSync(resolve(cwd, f));
    const changed = Math.max(st.mtimeMs, st.ctimeMs);
    return changed <= now - RACY_MS;
  });
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The cache file of these paths (one per list of files: a changed file replaces its entry). */
export function catalogueCacheFile(cacheDir: string, files: readonly string[], cwd: string): string {
  const name = sha256(`${CATALOGUE_CACHE_VERSION}\0${files.map((f) => resolve(cwd, f)).join('\0')}`).slice(0, 16);
  return join(cacheDir, 'catalogue', `${name}.bin`);
}

/**
 * The snapshot files' servers: from the start cache when it was built from these very files, else read in full
 * (readSnapshotSet, with every check and error it makes) and cached for the next run when the files are settled.
 */
export async function readCatalogue(files: string[], cwd: string, opts: CatalogueOptions): Promise<CatalogueSet> {
  const before = opts.cacheDir !== undefined ? identities(files, cwd) : undefined;
  if (before === undefined || opts.cacheDir === undefined)
    return { ...(await readSnapshotSet(files, cwd, opts.checked)), lean: false };
  const file = catalogueCacheFile(opts.cacheDir, files, cwd);
  const key = `${CATALOGUE_CACHE_VERSION}\n${before.join('\n')}`;
  const cached = readCached(file, key);
  if (cached) return { ...cached, lean: true };
  const set = await readSnapshotSet(files, cwd, opts.checked);
  const after = identities(files, cwd);
  const unchanged = after !== undefined && after.every((line, i) => line === before[i]);
  if (unchanged && settled(files, cwd, opts.now()))
    await writeFileSafe(file, sealBytes(MAGIC, key, encodeCatalogue(set.servers, set.digest))).catch(() => undefined);
  return { ...set, lean: false };
}

function readCached(file: string, key: string): SnapshotSet | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return null;
  }
  const payload = openSealed(MAGIC, key, bytes);
  return payload ? decodeCatalogue(payload) : null;
}

/**
 * The record of snapshot files already checked (cache folder `snapshot-checked/<sha256 of the bytes>`), so a big
 * snapshot read again skips the depth walk of its tools. A record holds the digest it was written for: an edited,
 * truncated or renamed record is not trusted. Best effort: nothing is recorded with --no-cache or on a write error.
 */
export function checkedSnapshots(paths: SetupPaths): CheckedSnapshots | undefined {
  const dir = paths.activeCacheDir;
  if (dir === undefined) return undefined;
  const record = (digest: string): string => `mcp-smart/snapshot-checked@1 ${digest} well-formed\n`;
  const file = (digest: string): string => join(dir, 'snapshot-checked', digest);
  return {
    known: async (digest) => (await readFile(file(digest), 'utf8').catch(() => '')) === record(digest),
    remember: (digest) => writeFileSafe(file(digest), record(digest)).catch(() => undefined),
  };
}
