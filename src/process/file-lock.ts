/**
 * Cross-process locking of a file we read, change and write back: `<file>.lock` beside it (proper-lockfile),
 * so two processes changing the same file at once both keep their change.
 */
import { mkdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { SmartError } from './errors.js';
import { writeFailureReason } from './safe-write.js';

/** How old a lock must be to be broken: its holder is taken for dead (proper-lockfile refreshes a live one). */
export const LOCK_STALE_MS = 15_000;

/** Runs `job` holding the lock of `file` (its folder is created first); waits for another holder, breaks a stale lock. */
export async function withFileLock<T>(file: string, job: () => Promise<T>): Promise<T> {
  // Loaded only here: the lock library subscribes to SIGINT/SIGTERM when loaded.
  const { lock } = await import('proper-lockfile');
  const options = { realpath: false, stale: LOCK_STALE_MS };
  const release = await (async () => {
    await mkdir(dirname(file), { recursive: true });
    // Waiting is for a lock another process holds: proper-lockfile retries every error, so a folder that refuses the
    // lock would be tried for most of a minute before saying so.
    return lock(file, { ...options, retries: 0 }).catch((e: unknown) => {
      if ((e as NodeJS.ErrnoException).code !== 'ELOCKED') throw e;
      return lock(file, {
        ...options,
        retries: { retries: 200, factor: 1.3, minTimeout: 5, maxTimeout: 250, randomize: true },
      });
    });
  })().catch((e: unknown) => {
    // A folder the user may not write (read-only, another user's): said as the file we could not change, exit 2.
    const reason = writeFailureReason(e);
    if (reason === undefined) throw e;
    throw new SmartError(
      'FILE_UNWRITABLE',
      {
        file,
        reason: `mcp-smart changes it only holding ${basename(file)}.lock beside it, which cannot be made there (${reason}); make its folder writable`,
      },
      { cause: e },
    );
  });
  try {
    return await job();
  } finally {
    await release();
  }
}
