/**
 * Cross-process locking of a file we read, change and write back: `<file>.lock` beside it (proper-lockfile),
 * so two processes changing the same file at once both keep their change.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

/** How old a lock must be to be broken: its holder is taken for dead (proper-lockfile refreshes a live one). */
export const LOCK_STALE_MS = 15_000;

/** Runs `job` holding the lock of `file` (its folder is created first); waits for another holder, breaks a stale lock. */
export async function withFileLock<T>(file: string, job: () => Promise<T>): Promise<T> {
  await mkdir(dirname(file), { recursive: true });
  // Loaded only here: the lock library subscribes to SIGINT/SIGTERM when loaded.
  const { lock } = await import('proper-lockfile');
  const release = await lock(file, {
    realpath: false,
    stale: LOCK_STALE_MS,
    retries: { retries: 200, factor: 1.3, minTimeout: 5, maxTimeout: 250, randomize: true },
  });
  try {
    return await job();
  } finally {
    await release();
  }
}
