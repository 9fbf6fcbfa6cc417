/**
 * A sealed cache file: a magic, a SHA-256 of the key it was written under and a SHA-256 of its payload, then the
 * payload. A file that was edited, truncated, copied under another key or written by another format is not trusted
 * (openSealed returns null and the caller rebuilds). Used by the discover index cache and the catalogue start cache.
 */
import { createHash } from 'node:crypto';
import type { HeadLast } from '../process/safe-write.js';

const KEY_BYTES = 32;
const SUM_BYTES = 32;

/** The file's bytes: `magic`, SHA-256 of the key, SHA-256 of the payload, payload. */
export function sealBytes(magic: Uint8Array, key: string, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(magic.byteLength + KEY_BYTES + SUM_BYTES + payload.byteLength);
  out.set(magic, 0);
  out.set(createHash('sha256').update(key).digest(), magic.byteLength);
  out.set(createHash('sha256').update(payload).digest(), magic.byteLength + KEY_BYTES);
  out.set(payload, magic.byteLength + KEY_BYTES + SUM_BYTES);
  return out;
}

/**
 * sealBytes's file as a list of arrays written one after the other: the 32-byte head, then the payload's parts
 * as given (a big payload is hashed part by part and never copied into one array).
 */
export function sealParts(magic: Uint8Array, key: string, parts: readonly Uint8Array[]): Uint8Array[] {
  return [...sealSource(magic, key, () => parts)];
}

/**
 * sealParts's file for a payload given as a source that gives its parts anew at each call: one pass is hashed, the
 * next written, so the parts may be chunks of one reused buffer (each is used before the next is asked for). The
 * reference for sealOnePass, which the cache files are written with.
 */
export function sealSource(magic: Uint8Array, key: string, payload: () => Iterable<Uint8Array>): Iterable<Uint8Array> {
  const sum = createHash('sha256');
  for (const p of payload()) sum.update(p);
  const head = new Uint8Array(magic.byteLength + KEY_BYTES + SUM_BYTES);
  head.set(magic, 0);
  head.set(createHash('sha256').update(key).digest(), magic.byteLength);
  head.set(sum.digest(), magic.byteLength + KEY_BYTES);
  return (function* () {
    yield head;
    yield* payload();
  })();
}

/**
 * sealSource's file in one pass over the payload (process/safe-write.ts writes a HeadLast): a head of zeros, then
 * each part hashed as it is given out and written; the head with the payload's sum is then written over the zeros.
 * The same bytes, with each part made once instead of twice.
 */
export function sealOnePass(magic: Uint8Array, key: string, payload: Iterable<Uint8Array>): HeadLast {
  const sum = createHash('sha256');
  const bytes = magic.byteLength + KEY_BYTES + SUM_BYTES;
  let summed: Uint8Array | undefined;
  return {
    parts: (function* () {
      yield new Uint8Array(bytes); // zeros: the head is written over them once the payload's sum is known
      for (const p of payload) {
        sum.update(p);
        yield p;
      }
      summed = sum.digest();
    })(),
    head: () => {
      if (!summed) throw new Error('the head of a sealed file is asked for before its payload was given');
      const head = new Uint8Array(bytes);
      head.set(magic, 0);
      head.set(createHash('sha256').update(key).digest(), magic.byteLength);
      head.set(summed, magic.byteLength + KEY_BYTES);
      return head;
    },
  };
}

/** The payload sealed under `key`, or null when the file is not one, was written under another key, or was altered. */
export function openSealed(magic: Uint8Array, key: string, file: Uint8Array): Uint8Array | null {
  const head = magic.byteLength + KEY_BYTES + SUM_BYTES;
  if (file.byteLength < head) return null;
  for (let i = 0; i < magic.byteLength; i++) if (file[i] !== magic[i]) return null;
  const payload = file.subarray(head);
  const same = (a: Uint8Array, at: number): boolean => a.every((b, i) => file[at + i] === b);
  if (!same(createHash('sha256').update(key).digest(), magic.byteLength)) return null;
  if (!same(createHash('sha256').update(payload).digest(), magic.byteLength + KEY_BYTES)) return null;
  return payload;
}
