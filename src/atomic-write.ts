/** Writing our own files safely: a temp file beside the target, then rename over it. */
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SmartError } from './errors.js';

let counter = 0;

/**
 * Writes `data` to `file` atomically: readers see the old or the new content, never half of it.
 * `mode` (e.g. 0o600 for credentials) is used instead of the existing file's mode; the folder is then made 0o700.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  opts: { mode?: number } = {},
): Promise<void> {
  const dir = dirname(file);
  const tmp = join(dir, `.${basename(file)}.${process.pid}.${++counter}.tmp`);
  try {
    await mkdir(dir, { recursive: true, ...(opts.mode !== undefined ? { mode: 0o700 } : {}) });
    // Users commit some of these files (config, baseline, workflow): keep an existing file's mode, else the umask's.
    const mode =
      opts.mode ??
      (await stat(file).then(
        (st) => st.mode & 0o777,
        () => 0o666,
      ));
    await writeFile(tmp, data, typeof data === 'string' ? { encoding: 'utf8', mode } : { mode });
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw unwritable(file, e);
  }
}

const WRITE_FAILURES: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  EISDIR: 'it is a folder; give a file name',
  ENOTDIR: 'a part of the path is a file, not a folder',
  ENOENT: 'the folder cannot be created there',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENAMETOOLONG: 'the name is too long',
  EEXIST: 'a part of the path is a file, not a folder',
};

/** A failure the user can fix (permissions, a folder in the way, …) becomes FILE_UNWRITABLE (exit 2) naming the target. */
function unwritable(file: string, e: unknown): unknown {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const reason = code !== undefined ? WRITE_FAILURES[code] : undefined;
  return reason === undefined ? e : new SmartError('FILE_UNWRITABLE', { file, reason }, { cause: e });
}
