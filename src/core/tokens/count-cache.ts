/** On-disk token-count cache: encoding + sha256 of the rendered text → count. The IO edge of tokens/. */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileSafe } from '../../process/safe-write.js';
import type { Encoding } from '../types.js';

const FORMAT = 'mcp-smart/token-counts@1';
/** Keeps the file bounded; the oldest entries go first. */
const MAX_ENTRIES = 200_000;

export interface CountCache {
  /** Keys are `hashText(text)`. */
  get(key: string): number | undefined;
  set(key: string, count: number): void;
  /** Writes the file when anything was added. */
  flush(): Promise<void>;
  readonly file: string;
}

export function hashText(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

export function countCacheFile(cacheDir: string, encoding: Encoding): string {
  return join(cacheDir, 'token-counts', `${encoding}.json`);
}

/** Loads the cache for one encoding; a missing or corrupt file is an empty cache (it is only a cache). */
export async function openCountCache(cacheDir: string, encoding: Encoding): Promise<CountCache> {
  const file = countCacheFile(cacheDir, encoding);
  const entries = new Map<string, number>();
  try {
    const doc = JSON.parse(await readFile(file, 'utf8')) as { format?: unknown; encoding?: unknown; counts?: unknown };
    if (doc.format === FORMAT && doc.encoding === encoding && doc.counts && typeof doc.counts === 'object') {
      for (const [k, v] of Object.entries(doc.counts as Record<string, unknown>)) {
        if (typeof v === 'number' && Number.isInteger(v) && v >= 0) entries.set(k, v);
      }
    }
  } catch {
    // Missing, corrupt or unreadable (EACCES, ENOTDIR, EISDIR…): start empty; it is only a cache.
  }
  let dirty = false;
  // Flushes run one after another, each writing what was added up to its start: a count added while a write is
  // under way stays dirty for the next flush (and an older write never lands after a newer one).
  let writing: Promise<void> = Promise.resolve();
  return {
    file,
    get: (key) => entries.get(key),
    set: (key, count) => {
      entries.set(key, count);
      dirty = true;
    },
    flush: () =>
      (writing = writing.then(async () => {
        if (!dirty) return;
        dirty = false;
        const keys = [...entries.keys()];
        for (const k of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) entries.delete(k);
        // A cache that cannot be written (read-only or misplaced folder) must not fail the run.
        await writeFileSafe(
          file,
          JSON.stringify({ format: FORMAT, encoding, counts: Object.fromEntries(entries) }),
        ).catch(() => undefined);
      })),
  };
}
