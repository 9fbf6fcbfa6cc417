/**
 * A big file's SHA-256 computed on another thread while this one goes on (a 175 MB snapshot hashes in 0.1–0.6 s,
 * which the parse of its servers would otherwise wait for). The bytes are read into shared memory, so the hashing
 * thread reads them where they are: no copy (crypto.subtle.digest copies its input first, on this thread). Same
 * digest as createHash('sha256'); anything that keeps the thread from answering falls back to hashing here.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { fileReadError } from './read-file.js';

/** From this size on a file is hashed on another thread; below it a thread's start costs more than it saves. */
export const THREAD_MIN_BYTES = 16 << 20;

/** The hashing thread: CommonJS run from this text (eval), so it needs no file of its own beside the bundle. */
const HASHER = `const { parentPort, workerData: w } = require('node:worker_threads');
const bytes = new Uint8Array(w.buffer, w.offset, w.length);
parentPort.postMessage(require('node:crypto').createHash('sha256').update(bytes).digest('hex'));`;

const hashHere = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The SHA-256 (hex) of the bytes: on another thread when they are big and shared, else here (still a promise). */
export function sha256Hex(bytes: Uint8Array): Promise<string> {
  if (bytes.byteLength < THREAD_MIN_BYTES || !(bytes.buffer instanceof SharedArrayBuffer))
    return Promise.resolve(hashHere(bytes));
  return new Promise((done) => {
    let answered = false;
    const answer = (hex: string): void => {
      if (answered) return;
      answered = true;
      done(hex);
    };
    try {
      const worker = new Worker(HASHER, {
        eval: true,
        workerData: { buffer: bytes.buffer, offset: bytes.byteOffset, length: bytes.byteLength },
        stdout: true,
        stderr: true,
      });
      worker.once('message', (hex: unknown) => answer(typeof hex === 'string' ? hex : hashHere(bytes)));
      worker.once('error', () => answer(hashHere(bytes)));
      worker.once('exit', () => answer(hashHere(bytes)));
    } catch {
      answer(hashHere(bytes));
    }
  });
}

/**
 * The file's bytes (undefined when it does not exist; errors as readFileBytes'), in shared memory when the file is
 * THREAD_MIN_BYTES or more, so that sha256Hex hashes them on another thread.
 */
export function readFileShared(file: string, cwd: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(resolve(cwd, file), 'r');
  } catch (e) {
    return fileReadError(file, e);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size < THREAD_MIN_BYTES) return readFileSync(fd);
    const bytes = Buffer.from(new SharedArrayBuffer(st.size));
    let at = 0;
    for (let n = 1; at < st.size && n > 0; at += n) n = readSync(fd, bytes, at, st.size - at, null);
    // A file that shrank while read: what was there; one that grew: read again whole, as readFileBytes reads it.
    if (at < st.size) return bytes.subarray(0, at);
    return readSync(fd, Buffer.alloc(1), 0, 1, null) === 0 ? bytes : readFileSync(resolve(cwd, file));
  } catch (e) {
    return fileReadError(file, e);
  } finally {
    closeSync(fd);
  }
}
