/**
 * A sealed cache file: a magic, a SHA-256 of the key it was written under and a SHA-256 of its payload, then the
 * payload. A file that was edited, truncated, copied under another key or written by another format is not trusted
 * (openSealed returns null and the caller rebuilds). Used by the discover index cache and the catalogue start cache.
 */
import { createHash } from 'node:crypto';

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
 * next written, so the parts may be chunks of one reused buffer (each is used before the next is asked for).
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
