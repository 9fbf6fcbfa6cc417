/**
 * The catalogue start cache (cache folder `catalogue/`): what a run on the same --snapshot files needs to rank and
 * answer, without parsing and checking the whole snapshot again (app/services/catalogue/payload.ts holds the payload).
 *
 * It is found by the files' paths and trusted only while every file is the one it was built from: the same device,
 * inode, size, modification time and change time (nanoseconds). Any write to a file, a rename over it or a restored
 * modification time changes its change time, which no user call sets. The one gap, an edit within the same
 * timestamp tick as the read that built the cache, is closed as Git closes its "racy" index entries: a file changed
 * less than RACY_MS before it was read is not cached (read in full until it is older), and the files are stat'ed
 * before and after the read, so a change while reading is not cached either. The entry is sealed (sealed-file.ts)
 * under a key holding those stats: a damaged, truncated or stale file is rebuilt, never trusted.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CATALOGUE_CACHE_VERSION, leanServer } from './payload.js';
import { readSnapshotSet, type CheckedSnapshots, type SnapshotSet } from '../../../core/snapshot.js';
import { writeFileSafe } from '../../../process/safe-write.js';
import {
  catalogueFile,
  readSealedCatalogue,
  settled,
  stampOf,
  writeSealedCatalogue,
  type FileStamp,
} from './cache-file.js';
import type { SetupPaths } from '../paths.js';

export { RACY_MS } from './cache-file.js';

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
  /** Takes the cache write instead of awaiting it here, to run it after the answer is printed (SetupLoad.later). */
  later?: (write: () => Promise<void>) => void;
  /**
   * The command reads no schemas (discover): a full read also cuts each tool to its lean form as its server is read
   * (leanServer), so a big snapshot is never held whole. `lean` stays false (the tools did not come from the cache).
   */
  leanTools?: boolean;
}

/** Each file's stamp and identity line (absolute path, then the stamp's id); undefined when one is missing or special. */
function stamps(files: readonly string[], cwd: string): { line: string; stamp: FileStamp }[] | undefined {
  const out: { line: string; stamp: FileStamp }[] = [];
  for (const f of files) {
    const path = resolve(cwd, f);
    const stamp = stampOf(path);
    if (stamp === undefined) return undefined; // the full read reports it
    out.push({ line: `${path}\0${stamp.id}`, stamp });
  }
  return out;
}

/** The cache file of these paths (one per list of files: a changed file replaces its entry). */
export function catalogueCacheFile(cacheDir: string, files: readonly string[], cwd: string): string {
  return catalogueFile(cacheDir, '', [files.map((f) => resolve(cwd, f)).join('\0')]);
}

/**
 * The snapshot files' servers: from the start cache when it was built from these very files, else read in full
 * (readSnapshotSet, with every check and error it makes) and cached for the next run when the files are settled.
 */
export async function readCatalogue(files: string[], cwd: string, opts: CatalogueOptions): Promise<CatalogueSet> {
  const each = opts.leanTools ? leanServer : undefined;
  const before = opts.cacheDir !== undefined ? stamps(files, cwd) : undefined;
  if (before === undefined || opts.cacheDir === undefined)
    return { ...(await readSnapshotSet(files, cwd, opts.checked, each)), lean: false };
  const file = catalogueCacheFile(opts.cacheDir, files, cwd);
  const key = `${CATALOGUE_CACHE_VERSION}\n${before.map((b) => b.line).join('\n')}`;
  const cached = readSealedCatalogue(file, MAGIC, key);
  if (cached) return { ...cached, lean: true };
  const set = await readSnapshotSet(files, cwd, opts.checked, each);
  // Stat'ed again after the read: a file changed while it was read, or changed too recently, is not cached.
  const after = stamps(files, cwd);
  if (after !== undefined && after.every((a, i) => a.line === before[i]!.line)) {
    const now = opts.now();
    if (after.every((a) => settled(a.stamp, now))) {
      const write = (): Promise<void> => writeSealedCatalogue(file, MAGIC, key, set.servers, set.digest);
      if (opts.later) opts.later(write);
      else await write();
    }
  }
  return { ...set, lean: false };
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
    none: async () => (await readdir(join(dir, 'snapshot-checked')).catch(() => [])).length === 0,
  };
}
