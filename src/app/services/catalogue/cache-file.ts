/**
 * What both catalogue start caches share (the one of --snapshot files, app/services/catalogue/snapshot-files.ts, and the one of configured
 * servers answered from the tool-list cache, app/services/catalogue/configured-servers.ts): where an entry lives, the identity of
 * the files it was built from, Git's "racy" rule for files changed too recently to trust, and the sealed file.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE_CACHE_VERSION, catalogueSource, decodeCatalogue } from './payload.js';
import { openSealed, sealOnePass } from '../../../core/sealed-file.js';
import type { SnapshotSet } from '../../../core/snapshot.js';
import { writeFileSafe } from '../../../process/safe-write.js';
import type { ServerSnapshot } from '../../../core/types.js';

/** Older than this (ms, by the file's own times) a file cannot change within the tick it was read in. */
export const RACY_MS = 3000;

/** A file as a start cache trusts it: its identity and when it last changed. */
export interface FileStamp {
  /** Device, inode, size, modification and change time in ns. */
  id: string;
  /** The later of its modification and change time, in ms since the epoch. */
  changedMs: number;
}

/** One stat of a regular file; undefined when it is missing or not a regular file. */
export function stampOf(path: string): FileStamp | undefined {
  let st;
  try {
    st = statSync(path, { bigint: true });
  } catch {
    return undefined;
  }
  if (!st.isFile()) return undefined;
  const changedNs = st.mtimeNs > st.ctimeNs ? st.mtimeNs : st.ctimeNs;
  return {
    id: `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`,
    changedMs: Number(changedNs / 1000n) / 1000,
  };
}

/** True when the file last changed RACY_MS or more before `now` (and not in the future). */
export const settled = (stamp: FileStamp, now: number): boolean => stamp.changedMs <= now - RACY_MS;

/** The entry file of a start cache: `<cacheDir>/catalogue/<prefix><16 hex digits of the parts' hash>.bin`. */
export function catalogueFile(cacheDir: string, prefix: string, parts: readonly string[]): string {
  const name = createHash('sha256')
    .update([CATALOGUE_CACHE_VERSION, ...parts].join('\0'))
    .digest('hex')
    .slice(0, 16);
  return join(cacheDir, 'catalogue', `${prefix}${name}.bin`);
}

/** The catalogue sealed in `file` under `magic` and `key`; null when missing, damaged or sealed under another key. */
export function readSealedCatalogue(file: string, magic: Uint8Array, key: string): SnapshotSet | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return null;
  }
  const payload = openSealed(magic, key, bytes);
  return payload ? decodeCatalogue(payload) : null;
}

/** Seals the servers into `file` under `magic` and `key` (best effort: a failed write only costs the next run). */
export async function writeSealedCatalogue(
  file: string,
  magic: Uint8Array,
  key: string,
  servers: readonly ServerSnapshot[],
  digest: string,
): Promise<void> {
  await writeFileSafe(file, sealOnePass(magic, key, catalogueSource(servers, digest)())).catch(() => undefined);
}
