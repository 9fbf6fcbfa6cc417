/**
 * Where a path leads through its symbolic links: the file a write lands in (which may not exist yet), and a link that
 * points at nothing (a dotfile link that broke), which a reader otherwise takes for a missing file.
 */
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { SmartError } from './errors.js';

/** Where a write to `file` really lands: the file itself, or the end of its symlink chain (which may not exist yet). */
export async function resolveWriteTarget(file: string): Promise<{ target: string; stats?: Stats }> {
  let target = resolve(file);
  for (let hops = 0; hops < 40; hops++) {
    const st = await lstat(target).catch((e: unknown) => {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    });
    if (!st) return { target };
    if (!st.isSymbolicLink()) return { target, stats: st };
    // Prefer the fully resolved path; a dangling link resolves hop by hop.
    const real = await realpath(target).catch(() => undefined);
    if (real !== undefined) return { target: real, stats: await stat(real) };
    // A link with no path at its end that still opens: /dev/stdout (/proc/self/fd/1) to a pipe or a socket.
    const end = await stat(target).catch(() => undefined);
    if (end !== undefined) return { target, stats: end };
    target = resolve(dirname(target), await readlink(target));
  }
  throw new SmartError('FILE_UNWRITABLE', { file, reason: 'too many levels of symbolic links' });
}

/** The missing file `file` points to when it is a symbolic link to nothing, else undefined (also when unreadable). */
export async function danglingLinkTarget(file: string): Promise<string | undefined> {
  const st = await lstat(file).catch(() => undefined);
  if (st?.isSymbolicLink() !== true) return undefined;
  const end = await resolveWriteTarget(file).catch(() => undefined);
  return end !== undefined && end.stats === undefined ? end.target : undefined;
}
