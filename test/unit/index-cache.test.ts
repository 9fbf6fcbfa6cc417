import { describe, expect, it } from 'vitest';
import { openIndexCache, sealIndexCache, snapshotIndexKey } from '../../src/core/discover/index-cache.js';

describe('discover index cache envelope', () => {
  const payload = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);

  it('opens what it sealed under the same key, at an 8-aligned offset', () => {
    const sealed = sealIndexCache('abc', payload);
    const opened = openIndexCache('abc', sealed)!;
    expect([...opened]).toEqual([...payload]);
    expect(opened.byteOffset % 8).toBe(0);
  });

  it('refuses another key, an altered payload or header, a truncated file', () => {
    const sealed = sealIndexCache('abc', payload);
    expect(openIndexCache('abd', sealed)).toBeNull();
    for (const at of [0, 30, 70, sealed.byteLength - 1]) {
      const bad = new Uint8Array(sealed);
      bad[at]! ^= 1;
      expect(openIndexCache('abc', bad)).toBeNull();
    }
    expect(openIndexCache('abc', sealed.subarray(0, sealed.byteLength - 1))).toBeNull();
    expect(openIndexCache('abc', new Uint8Array(10))).toBeNull();
  });

  it('keys a snapshot index by the bytes digest, the selected servers (as a set) and the BM25 parameters', () => {
    const key = snapshotIndexKey('d1', [], undefined);
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    expect(snapshotIndexKey('d1', [], undefined)).toBe(key);
    expect(snapshotIndexKey('d2', [], undefined)).not.toBe(key);
    expect(snapshotIndexKey('d1', ['a'], undefined)).not.toBe(key);
    expect(snapshotIndexKey('d1', ['b', 'a', 'a'], undefined)).toBe(snapshotIndexKey('d1', ['a', 'b'], undefined));
    expect(snapshotIndexKey('d1', [], undefined, { bm25: { k1: 1 } })).not.toBe(key);
  });
});
