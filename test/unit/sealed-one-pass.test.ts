// The discover caches are sealed in one pass (sealed-file.ts sealOnePass): a head of zeros, the payload hashed as it
// is written, then the real head written over the zeros before the rename (safe-write.ts HeadLast). The file must be
// the two-pass sealer's, byte for byte, whatever the parts, and open as it does.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSealed, sealBytes, sealOnePass, sealSource } from '../../src/core/sealed-file.js';
import { writeFileSafe } from '../../src/process/safe-write.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-seal-one-pass-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const magic = new TextEncoder().encode('test/one-pass');

/** A payload of `size` bytes (not periodic: a part written at the wrong place changes the hash). */
function payloadOf(size: number): Buffer {
  const out = Buffer.alloc(size);
  let x = 2463534242;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/**
 * The payload as chunks of one reused buffer, each refilled when the next is asked for (as catalogueSource's are):
 * a sealer that hashed or wrote a chunk after asking for the next would see other bytes.
 */
function reusedChunks(payload: Buffer, chunk: number): () => Iterable<Uint8Array> {
  return function* () {
    const buf = Buffer.alloc(chunk);
    for (let at = 0; at < payload.byteLength; at += chunk) {
      const n = payload.copy(buf, 0, at, at + chunk);
      yield buf.subarray(0, n);
      buf.fill(0xee); // the chunk's bytes are gone once the next one is asked for
    }
  };
}

describe('sealOnePass', () => {
  it("writes the two-pass sealer's bytes for chunk sizes 1 to 40 and payloads up to 97 bytes", async () => {
    const file = join(dir, 'sealed.bin');
    for (const size of [0, 1, 2, 31, 32, 33, 64, 97])
      for (let chunk = 1; chunk <= 40; chunk++) {
        const payload = payloadOf(size);
        const source = reusedChunks(payload, chunk);
        await writeFileSafe(file, sealOnePass(magic, 'key', source()));
        const written = readFileSync(file);
        const twoPass = Buffer.concat(Array.from(sealSource(magic, 'key', source), (c) => Buffer.from(c)));
        expect(written.equals(twoPass), `size ${size}, chunk ${chunk}`).toBe(true);
        expect(written.equals(Buffer.from(sealBytes(magic, 'key', payload)))).toBe(true);
        expect(Buffer.from(openSealed(magic, 'key', written)!).equals(payload)).toBe(true);
      }
  });

  it('writes parts of many megabytes whole, between small ones, at their places', async () => {
    const file = join(dir, 'big-parts.bin');
    const payload = payloadOf(7 * 1024 * 1024 + 3);
    const cuts = [0, 1, 5, 3 * 1024 * 1024 + 5, 3 * 1024 * 1024 + 6, payload.byteLength];
    const parts = cuts.slice(1).map((end, i) => payload.subarray(cuts[i], end));
    await writeFileSafe(file, sealOnePass(magic, 'key', parts));
    expect(readFileSync(file).equals(Buffer.from(sealBytes(magic, 'key', payload)))).toBe(true);
    await writeFileSafe(file, parts);
    expect(readFileSync(file).equals(payload)).toBe(true);
  });

  it('gives a file that a reader rejects once its body, its head or its key differ', async () => {
    const file = join(dir, 'tampered.bin');
    const payload = payloadOf(5000);
    await writeFileSafe(file, sealOnePass(magic, 'key', reusedChunks(payload, 1024)()));
    const written = readFileSync(file);
    expect(Buffer.from(openSealed(magic, 'key', written)!).equals(payload)).toBe(true);
    expect(openSealed(magic, 'other key', written)).toBeNull();
    const head = magic.byteLength + 64;
    for (const at of [head, head + 1023, head + 1024, written.byteLength - 1, head - 1, magic.byteLength]) {
      const changed = Buffer.from(written);
      changed[at] = changed[at]! ^ 1;
      expect(openSealed(magic, 'key', changed), `byte ${at} changed`).toBeNull();
    }
    // The stand-in head alone (zeros where the sums go), as a write that stopped before its head would leave it.
    const zeros = Buffer.from(written);
    zeros.fill(0, magic.byteLength, head);
    expect(openSealed(magic, 'key', zeros)).toBeNull();
  });

  it('asks for its head only once every part was given', () => {
    const sealed = sealOnePass(magic, 'key', [payloadOf(10)]);
    expect(() => sealed.head()).toThrow(/before its payload/);
    const parts = [...sealed.parts];
    expect(parts[0]).toEqual(new Uint8Array(magic.byteLength + 64));
    expect(Buffer.from(sealed.head()).equals(Buffer.from(sealBytes(magic, 'key', payloadOf(10)).subarray(0, 77)))).toBe(
      true,
    );
  });

  it('replaces a file atomically and leaves no temp file; refuses a pipe, leaving it a pipe', async () => {
    const sub = mkdtempSync(join(dir, 'atomic-'));
    const file = join(sub, 'cache.bin');
    writeFileSync(file, 'old');
    await writeFileSafe(file, sealOnePass(magic, 'key', [payloadOf(100)]));
    expect(readdirSync(sub)).toEqual(['cache.bin']);
    expect(openSealed(magic, 'key', readFileSync(file))).not.toBeNull();

    const fifo = join(sub, 'pipe.bin');
    execFileSync('mkfifo', [fifo]);
    await expect(writeFileSafe(fifo, sealOnePass(magic, 'key', [payloadOf(100)]))).rejects.toThrow(/pipe or a device/);
    expect(statSync(fifo).isFIFO()).toBe(true);
  });
});
