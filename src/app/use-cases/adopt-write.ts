/**
 * Writing mcp-smart.config.json for `adopt`: never through a symbolic link (a cloned repository could point it at
 * another program's file), only over a regular file we own, a replaced file backed up first, and under the file's
 * lock with a compare-and-swap: when two adopt runs race, one writes and the other fails (ADOPT_CONCURRENT), never
 * both "written" with one lost.
 */
import { lstat, readlink } from 'node:fs/promises';
import { SmartError } from '../../process/errors.js';
import { withFileLock } from '../../process/file-lock.js';
import { READ_AS, readFileBytes } from '../../process/read-file.js';
import { writeFileSafe } from '../../process/safe-write.js';

/** The file's bytes (undefined: none), refusing a link (dangling or not) and anything but a regular file. */
export async function readOwnFile(file: string): Promise<Buffer | undefined> {
  const st = await lstat(file).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  });
  if (!st) return undefined;
  if (st.isSymbolicLink()) {
    const target = await readlink(file).catch(() => undefined);
    throw new SmartError('ADOPT_LINK', { file, target });
  }
  if (!st.isFile())
    throw new SmartError('ADOPT_NOT_FILE', { file, kind: st.isDirectory() ? 'a folder' : 'a special file' });
  return readFileBytes(file, '/', READ_AS.config);
}

/** A name beside `file` for its backup: `<file>.adopt-<time>.bak`. */
export function backupName(file: string, now = new Date()): string {
  return `${file}.adopt-${now.toISOString().replace(/[:.]/g, '-')}.bak`;
}

/**
 * Writes `text` to `file` if it still holds `seen` (what the caller read and decided on), under its lock. A different
 * existing file is copied to a backup first; returns the backup's name.
 */
export async function writeOwnFile(file: string, text: string, seen: Buffer | undefined): Promise<string | undefined> {
  return withFileLock(file, async () => {
    const now = await readOwnFile(file);
    const same = now === undefined ? seen === undefined : seen !== undefined && now.equals(seen);
    if (!same) throw new SmartError('ADOPT_CONCURRENT', { file });
    let backup: string | undefined;
    if (now !== undefined) {
      backup = backupName(file);
      if (await lstat(backup).catch(() => undefined))
        throw new SmartError('ADOPT_NOT_FILE', { file: backup, kind: 'a name already taken' });
      const mode = (await lstat(file)).mode & 0o777;
      await writeFileSafe(backup, now, { verbatim: true, mode });
    }
    await writeFileSafe(file, text);
    return backup;
  });
}
