/** Reading the user's files: one place for missing files, unreadable ones, byte-order marks and bad JSON. */
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, type Stats } from 'node:fs';
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

const MB = 1024 * 1024;

/** What a file is read as: the words for it, the most read of it, and what to do with one past that. */
export interface ReadAs {
  what: string;
  maxBytes: number;
  advice: string;
}

const NOT_A_FILE =
  'Check that the path names the file you meant, not a device such as /dev/zero or a pipe that never ends.';

/**
 * The limits by kind. Config files are small, but ~/.claude.json keeps each project's history and has been seen past
 * 100 MB; a snapshot of 100,000 tools is about 175 MB, dump writes at most ~512 MB (one JSON string), and a
 * server's message may be 256 MB (MCP_SMART_MAX_MESSAGE_MB): 1 GB leaves room for hand-merged files.
 */
export const READ_AS = {
  config: { what: 'a config file', maxBytes: 256 * MB, advice: NOT_A_FILE },
  manifest: { what: 'a package manifest', maxBytes: 256 * MB, advice: NOT_A_FILE },
  baseline: {
    what: 'a baseline',
    maxBytes: 256 * MB,
    advice: `${NOT_A_FILE} Write it anew with: mcp-smart check --update`,
  },
  intents: { what: 'labelled intents', maxBytes: 256 * MB, advice: `${NOT_A_FILE} Else split it into smaller files.` },
  snapshot: {
    what: 'a snapshot',
    maxBytes: 1024 * MB,
    advice: `${NOT_A_FILE} Else split its servers over several --snapshot files (they are merged by server name).`,
  },
} as const satisfies Record<string, ReadAs>;

/** How long a pipe nobody has opened for writing is waited for (opened blocking, it hung the run for good). */
const WRITER_WAIT_MS = 5000;
const PAUSE_MS = 10;
/** Opened without blocking: a pipe with no writer yet returns at once instead of hanging in open(). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const pause = new Int32Array(new SharedArrayBuffer(4));

/** FILE_UNREADABLE (exit 2) for a file that went on past what `as` may be, naming both and what to do. */
function tooLarge(file: string, as: ReadAs, regular: boolean): SmartError {
  const where = regular ? 'it is larger than' : 'it is not a regular file, and it went on past';
  const size = as.maxBytes >= 1024 * MB ? `${as.maxBytes / 1024 / MB} GB` : `${as.maxBytes / MB} MB`;
  const reason = `${where} ${size}, more than ${as.what} can be; reading stopped there. ${as.advice}`;
  return new SmartError('FILE_UNREADABLE', { file, reason });
}

/**
 * Reads an open file (`st`: its fstat) into the buffers `room()` gives, passing each read's bytes to `took` (false:
 * stop), no more than `as.maxBytes` of them. A pipe that is empty but held open is waited for, as a blocking read
 * would; one nobody has opened for writing, for WRITER_WAIT_MS. True at the end, false when `took` stopped.
 */
function readSteps(
  fd: number,
  file: string,
  as: ReadAs,
  st: Stats,
  room: () => Buffer,
  took: (bytes: Buffer) => boolean,
): boolean {
  const pipe = st.isFIFO();
  let total = 0;
  let waited = 0;
  for (;;) {
    const into = room();
    let n: number;
    try {
      n = readSync(fd, into, 0, into.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(pause, 0, 0, PAUSE_MS);
      continue;
    }
    if (n === 0 && pipe && total === 0 && waited < WRITER_WAIT_MS) {
      Atomics.wait(pause, 0, 0, PAUSE_MS);
      waited += PAUSE_MS;
      continue;
    }
    if (n === 0 && pipe && total === 0) {
      const reason = `it is a pipe nobody wrote into within ${WRITER_WAIT_MS / 1000} s. Start what writes it first, or give a regular file.`;
      throw new SmartError('FILE_UNREADABLE', { file, reason });
    }
    if (n === 0) return true;
    total += n;
    if (total > as.maxBytes) throw tooLarge(file, as, st.isFile());
    if (!took(into.subarray(0, n))) return false;
  }
}

/** The open file descriptor, or undefined when the file does not exist (also when a folder on its path is a file). */
function openFile(file: string, cwd: string): number | undefined {
  try {
    return openSync(resolve(cwd, file), OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw unreadable(file, e);
  }
}

/**
 * The file's bytes, at most `as.maxBytes` of them (past that, FILE_UNREADABLE naming the file and what it is read
 * as), or undefined when it does not exist. A regular file is read in one synchronous call (fs/promises reads a big
 * file in 512 KiB steps through the thread pool, several milliseconds more for a snapshot), after a size check.
 */
export function readFileBytes(file: string, cwd: string, as: ReadAs): Buffer | undefined {
  const fd = openFile(file, cwd);
  if (fd === undefined) return undefined;
  try {
    const st = fstatSync(fd);
    if (st.isFile()) {
      if (st.size > as.maxBytes) throw tooLarge(file, as, true);
      const bytes = readFileSync(fd);
      if (bytes.length > as.maxBytes) throw tooLarge(file, as, true);
      return bytes;
    }
    const chunks: Buffer[] = [];
    readSteps(
      fd,
      file,
      as,
      st,
      () => Buffer.allocUnsafe(64 * 1024),
      (b) => chunks.push(Buffer.from(b)) > 0,
    );
    return Buffer.concat(chunks);
  } catch (e) {
    if (e instanceof SmartError) throw e;
    throw unreadable(file, e);
  } finally {
    closeSync(fd);
  }
}

/** The file's text (byte-order mark dropped), or undefined when it does not exist; bounded as readFileBytes. */
export function readTextFile(file: string, cwd: string, as: ReadAs): Promise<string | undefined> {
  // The executor's throw (FILE_UNREADABLE) is the promise's rejection.
  return new Promise((done) => {
    const bytes = readFileBytes(file, cwd, as);
    done(bytes === undefined ? undefined : stripBom(bytes.toString('utf8')));
  });
}

/**
 * Reads the file in steps: each read goes into the buffer `room()` gives and its bytes are passed to `took`, which
 * returns false to stop. True when the end of the file was reached; false when stopped, or when the file could not
 * be opened or read (readFileBytes says why). A file past `as.maxBytes` is FILE_UNREADABLE, thrown (read again, a
 * device would only go on again).
 */
export function readFileChunks(
  file: string,
  cwd: string,
  as: ReadAs,
  room: () => Buffer,
  took: (bytes: Buffer) => boolean,
): boolean {
  let fd: number;
  try {
    fd = openSync(resolve(cwd, file), OPEN_FLAGS);
  } catch {
    return false;
  }
  try {
    const st = fstatSync(fd);
    if (st.isFile() && st.size > as.maxBytes) throw tooLarge(file, as, true);
    return readSteps(fd, file, as, st, room, took);
  } catch (e) {
    if (e instanceof SmartError) throw e;
    return false;
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
export async function readJsonFile(file: string, cwd: string, as: ReadAs): Promise<unknown> {
  const text = await readTextFile(file, cwd, as);
  return text === undefined ? undefined : parseJsonText(text, file);
}
