/** Reading the user's files: one place for missing files, unreadable ones, byte-order marks and bad JSON. */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SmartError } from './errors.js';

/** What a failed read means to the user, by the error's code (the system's own text otherwise). */
const READ_FAILURES: Record<string, string> = {
  EISDIR: 'it is a folder; give the file inside it',
  EACCES: 'permission denied; make it readable (chmod u+r) or give another file',
  EPERM: 'permission denied; make it readable (chmod u+r) or give another file',
  ENOTDIR: 'a part of its path is a file, not a folder',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'the name is too long',
};

/** FILE_UNREADABLE (exit 2) for an error reading `file`, its reason in words where the code is a known one. */
export function unreadable(file: string, e: unknown): SmartError {
  const code = (e as NodeJS.ErrnoException).code;
  const reason = (code !== undefined ? READ_FAILURES[code] : undefined) ?? (e as Error).message;
  return new SmartError('FILE_UNREADABLE', { file, reason }, { cause: e });
}

/** Text without a leading UTF-8 byte-order mark (Windows editors add one). */
export const stripBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/**
 * The file's text, or undefined when it does not exist (also when a folder on its path is a file).
 * `file` is shown as given; it is resolved against `cwd`.
 */
export async function readTextFile(file: string, cwd: string): Promise<string | undefined> {
  try {
    return stripBom(await readFile(resolve(cwd, file), 'utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw unreadable(file, e);
  }
}

/**
 * The file's bytes, or undefined when it does not exist; errors as readTextFile's. Read in one synchronous call:
 * fs/promises reads a big file in 512 KiB steps through the thread pool, several milliseconds more for a snapshot.
 */
export function readFileBytes(file: string, cwd: string): Buffer | undefined {
  try {
    return readFileSync(resolve(cwd, file));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw unreadable(file, e);
  }
}

/**
 * Reads the file in steps: each read goes into the buffer `room()` gives and its bytes are passed to `took`, which
 * returns false to stop. True when the end of the file was reached; false when stopped, or when the file could not
 * be opened or read (readFileBytes says why).
 */
export function readFileChunks(
  file: string,
  cwd: string,
  room: () => Buffer,
  took: (bytes: Buffer) => boolean,
): boolean {
  let fd: number;
  try {
    fd = openSync(resolve(cwd, file), 'r');
  } catch {
    return false;
  }
  try {
    for (;;) {
      const into = room();
      let n: number;
      try {
        n = readSync(fd, into, 0, into.length, null);
      } catch {
        return false;
      }
      if (n === 0) return true;
      if (!took(into.subarray(0, n))) return false;
    }
  } finally {
    closeSync(fd);
  }
}

/** Parses JSON text, naming the file (and line, when given as `file:line`) on failure. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new SmartError('FILE_PARSE', { file, kind: 'JSON', reason: (e as Error).message }, { cause: e });
  }
}

/** The parsed JSON document, or undefined when the file does not exist. */
export async function readJsonFile(file: string, cwd: string): Promise<unknown> {
  const text = await readTextFile(file, cwd);
  return text === undefined ? undefined : parseJsonText(text, file);
}
