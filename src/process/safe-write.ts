/**
 * The one way mcp-smart writes a file. A regular file (or a new one) is replaced atomically: a temp file
 * beside it, then a rename, so readers see the old or the new content. A symlink is followed to its target
 * (the link stays a link). A FIFO or a character device (a pipe, /dev/stdout, /dev/null) is written directly
 * and never replaced. Anything else (a folder, a socket, a block device) is refused, left untouched, and so is a
 * regular file that is read-only or belongs to another user (a rename would replace it anyway). With a `kind`, an
 * existing file that is not empty and not of that kind (an output file named by mistake) is refused too.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, rename, rm } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { resolveWriteTarget } from './link-target.js';
import { SmartError } from './errors.js';
import { onStop, throwIfStopped, whileHandlingSignals } from './signals.js';
import { scrubOutput } from './secrets.js';

/**
 * Bytes written in one pass whose first bytes are known only at the end (a sealed cache file's hash of its payload,
 * core/sealed-file.ts sealOnePass): `parts` in order, the first of them a stand-in, then `head()` written over the
 * file's first bytes before the file is renamed into place. Only a regular file is written so; a pipe or a device,
 * which cannot be written twice at one place, is refused.
 */
export interface HeadLast {
  parts: Iterable<Uint8Array>;
  /** The file's first bytes, asked for once every part is written. */
  head: () => Uint8Array;
}

/** What writeFileSafe writes: a text, bytes, a list of byte arrays written one after the other, or a HeadLast. */
export type WriteData = string | Uint8Array | Iterable<Uint8Array> | HeadLast;

/**
 * What a file of one kind that mcp-smart writes holds in its first bytes (a snapshot's "format", a document's
 * "command"): an existing file at the path is replaced only when it holds the mark, or is empty, so `dump -o
 * package.json` typed by mistake leaves package.json as it was.
 */
export interface OwnedKind {
  mark: RegExp;
  /** Named in the refusal: "an mcp-smart snapshot". */
  what: string;
}

/** How far into an existing file its kind's mark is looked for. */
const MARK_BYTES = 4096;

export interface WriteOptions {
  /** The kind of file written: an existing file that is not one (nor empty) is refused, left untouched. */
  kind?: OwnedKind;
  /** The file's mode (0o600 for credentials) instead of the existing file's; its folder is then created 0o700. */
  mode?: number;
  /**
   * Written as given, without the secret scrub: only for the credential store, whose whole content is secret
   * and must round-trip (it is never shown).
   */
  verbatim?: boolean;
}

/** Writes `data` to `file` without ever replacing a link, a pipe or a device; throws FILE_UNWRITABLE (exit 2). */
export async function writeFileSafe(file: string, data: WriteData, opts: WriteOptions = {}): Promise<void> {
  throwIfStopped();
  const { target, stats } = await refusedOrTarget(file, opts.kind);
  const bytes = typeof data === 'string' && !opts.verbatim ? scrubOutput(data) : data;
  // A temp file exists during the write: the signal path removes it rather than the process dying mid-way.
  if (stats && (stats.isFIFO() || stats.isCharacterDevice())) {
    if (isHeadLast(bytes))
      throw new SmartError('FILE_UNWRITABLE', {
        file,
        reason:
          'it is a pipe or a device, and this file is written in one pass then completed in place; give a file name',
      });
    return whileHandlingSignals(() => writeDirect(file, target, bytes));
  }
  return whileHandlingSignals(() => writeAtomic(file, target, bytes, stats, opts.mode));
}

/**
 * Throws the refusal writeFileSafe would give for `file` (a folder, a socket, a file we may not replace), without
 * writing: a command whose output file is named up front checks it before connecting to anything, so a long run
 * does not end in an error it could have given at once. A missing file passes (it is created).
 */
export async function checkWriteTarget(file: string, kind?: OwnedKind): Promise<void> {
  await refusedOrTarget(file, kind);
}

/**
 * Where a write to `file` lands, or FILE_UNWRITABLE: a folder, a socket or block device, a file we may not replace,
 * or (with `kind`) a file that holds something else.
 */
async function refusedOrTarget(file: string, kind?: OwnedKind): Promise<{ target: string; stats?: Stats }> {
  let resolved: { target: string; stats?: Stats };
  try {
    resolved = await resolveWriteTarget(file);
  } catch (e) {
    throw unwritable(file, e);
  }
  const { target, stats } = resolved;
  if (!stats || stats.isFIFO() || stats.isCharacterDevice()) return resolved;
  if (stats.isDirectory()) throw new SmartError('FILE_UNWRITABLE', { file, reason: WRITE_FAILURES.EISDIR });
  if (!stats.isFile())
    throw new SmartError('FILE_UNWRITABLE', {
      file,
      reason: 'it is not a regular file (a socket or a block device); give a file name',
    });
  const refusal = (await replaceRefusal(target, stats)) ?? (kind && (await foreignRefusal(target, stats, kind)));
  if (refusal) throw new SmartError('FILE_UNWRITABLE', { file, reason: refusal });
  return resolved;
}

/** Why an existing regular file is not one of `kind` (its mark is not in its first bytes), or undefined. */
async function foreignRefusal(
  target: string,
  stats: Stats,
  kind: OwnedKind,
  verb = 'replaces only',
): Promise<string | undefined> {
  if (stats.size === 0) return undefined;
  const handle = await open(target, 'r');
  let head: string;
  try {
    const buffer = Buffer.alloc(Math.min(MARK_BYTES, stats.size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    head = buffer.toString('utf8', 0, bytesRead);
  } finally {
    await handle.close();
  }
  if (kind.mark.test(head)) return undefined;
  return `it holds something other than ${kind.what}, and mcp-smart ${verb} a file of that kind (or an empty one); give a new file name, or move this one away first`;
}

/**
 * Why an existing regular file must not be replaced, or undefined. A rename would replace a read-only file (the
 * folder is what the rename needs) and would hand another user's file to us: only a file we own and may write is
 * replaced (root too: it is held to the file's write bits).
 */
export async function replaceRefusal(target: string, stats: Stats): Promise<string | undefined> {
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid)
    return `it belongs to another user (uid ${stats.uid}); mcp-smart replaces only files it owns`;
  // access() says yes to root for any file: root is held to the file's write bits.
  const writable =
    (await access(target, constants.W_OK).then(
      () => true,
      () => false,
    )) &&
    (uid !== 0 || (stats.mode & 0o222) !== 0);
  if (!writable)
    return `it is read-only (mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')}); mcp-smart never replaces a file it may not write — make it writable (chmod u+w) or give another file`;
  return undefined;
}

async function writeAtomic(
  file: string,
  target: string,
  /** A list of byte arrays is written one after the other (a big cache file is not first copied into one). */
  data: WriteData,
  stats?: Stats,
  fixedMode?: number,
): Promise<void> {
  const dir = dirname(target);
  // A random name created exclusively (O_EXCL, 0600): in a shared folder another user's symlink or file at a
  // guessable temp name is never followed or reused, and nobody else can read the content while it is written.
  const tmp = join(dir, `.${basename(target)}.${randomBytes(8).toString('hex')}.tmp`);
  let created = false;
  // Only a temp file this write created is removed: a name taken by someone else is left alone.
  const removeTmp = (): Promise<void> => (created ? rm(tmp, { force: true }) : Promise.resolve());
  // A signal between the temp write and the rename must not leave the temp file behind.
  const dispose = onStop(removeTmp);
  try {
    await mkdir(dir, { recursive: true, ...(fixedMode !== undefined ? { mode: 0o700 } : {}) });
    // Users commit some of these files (config, baseline, workflow): keep an existing file's mode, else the umask's.
    const mode = fixedMode ?? (stats ? stats.mode & 0o777 : 0o666 & ~process.umask());
    const handle = await open(tmp, 'wx', 0o600);
    created = true;
    try {
      if (isHeadLast(data)) {
        await writeAll(handle, data.parts);
        const head = data.head();
        const { bytesWritten } = await handle.write(head, 0, head.byteLength, 0);
        if (bytesWritten !== head.byteLength) throw new Error(`short write of the head: ${bytesWritten} bytes`);
      } else await writeAll(handle, data);
      if (mode !== 0o600) await handle.chmod(mode);
    } finally {
      await handle.close();
    }
    await rename(tmp, target);
  } catch (e) {
    await removeTmp().catch(() => undefined);
    throw unwritable(file, e);
  } finally {
    dispose();
  }
}

/** A pipe or device is written in place. A FIFO nobody reads is refused rather than waited on forever. */
async function writeDirect(
  file: string,
  target: string,
  data: string | Uint8Array | Iterable<Uint8Array>,
): Promise<void> {
  let probe;
  try {
    probe = await open(target, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENXIO')
      throw new SmartError('FILE_UNWRITABLE', { file, reason: 'it is a pipe (FIFO) that nothing is reading' });
    throw unwritable(file, e);
  }
  try {
    const handle = await open(target, constants.O_WRONLY);
    try {
      await writeAll(handle, data);
    } finally {
      await handle.close();
    }
  } catch (e) {
    throw unwritable(file, e);
  } finally {
    await probe.close();
  }
}

/**
 * Appends `data` to `file` (created if missing): a regular file, or a FIFO or device that something reads.
 * The open never blocks: a FIFO nobody reads is refused (FILE_UNWRITABLE) instead of hanging the process,
 * which would also keep it from answering signals. `mode`: the permissions of a file it creates.
 */
export async function appendFileSafe(
  file: string,
  data: string,
  opts: { mode?: number; kind?: OwnedKind } = {},
): Promise<void> {
  const mode = opts.mode ?? 0o666;
  let handle;
  try {
    await mkdir(dirname(resolve(file)), { recursive: true });
    handle = await open(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, mode);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENXIO')
      throw new SmartError('FILE_UNWRITABLE', { file, reason: 'it is a pipe (FIFO) that nothing is reading' });
    throw unwritable(file, e);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile() && !st.isFIFO() && !st.isCharacterDevice())
      throw new SmartError('FILE_UNWRITABLE', { file, reason: 'it is not a regular file; give a file name' });
    // Appending lines to someone's file (`--record package.json`) would damage it as surely as replacing it.
    const foreign =
      opts.kind && st.isFile() ? await foreignRefusal(file, st, opts.kind, 'adds lines only to') : undefined;
    if (foreign) throw new SmartError('FILE_UNWRITABLE', { file, reason: foreign });
    if (data !== '') await handle.writeFile(scrubOutput(data));
  } catch (e) {
    throw unwritable(file, e);
  } finally {
    await handle.close();
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
  ELOOP: 'too many levels of symbolic links',
  EPIPE: 'the reader closed the pipe',
};

/** The reason text for a write failure's errno code, if it is one the user can fix. */
export function writeFailureReason(e: unknown): string | undefined {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined ? WRITE_FAILURES[code] : undefined;
}

/** A failure the user can fix (permissions, a folder in the way, …) becomes FILE_UNWRITABLE (exit 2) naming the target. */
function unwritable(file: string, e: unknown): unknown {
  if (e instanceof SmartError) return e;
  const reason = writeFailureReason(e);
  return reason === undefined ? e : new SmartError('FILE_UNWRITABLE', { file, reason }, { cause: e });
}

function isHeadLast(data: WriteData): data is HeadLast {
  return typeof data === 'object' && 'head' in data && typeof data.head === 'function';
}

/**
 * Writes `data` from the handle's position: a list of arrays one after the other (each writeFile goes on from there).
 * Each part is written before the next is asked for, so a generator may give chunks of one reused buffer.
 */
async function writeAll(handle: FileHandle, data: string | Uint8Array | Iterable<Uint8Array>): Promise<void> {
  if (typeof data === 'string' || data instanceof Uint8Array) return handle.writeFile(data);
  for (const part of data) await writePart(handle, part);
}

/**
 * One part from the handle's position, in as few calls as the system takes (writeFile would cut it into 512 KiB
 * calls, each a round trip to the thread pool: a 100 MB cache file made ~200 of them more).
 */
async function writePart(handle: FileHandle, part: Uint8Array): Promise<void> {
  for (let at = 0; at < part.byteLength;) {
    const { bytesWritten } = await handle.write(part, at, part.byteLength - at);
    if (bytesWritten <= 0) throw new Error(`nothing written at byte ${at} of a part`);
    at += bytesWritten;
  }
}
