// Sealed request state (src/serve/replica/seal.ts): what one replica seals, another with the same key file opens;
// a rotated key still opens what it sealed while it is listed; altered, foreign and expired states are refused
// with their reason; the replica-to-replica MAC verifies only for the same body, key and time window.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StateKeys, StateRefused } from '../../src/serve/replica/seal.js';
import { tempDir } from '../helpers/temp.js';
import { rmSync } from 'node:fs';

const dir = tempDir('mcp-smart-seal-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OLD = 'old-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const NEW = 'new-secret-0123456789abcdefghijklmnopqrstuvwxyz';
let n = 0;
function keyFile(...lines: string[]): string {
  const file = join(dir, `keys-${++n}`);
  writeFileSync(file, lines.join('\n'));
  return file;
}
const keys = (...lines: string[]): StateKeys => StateKeys.fromFile(keyFile(...lines), '--state-key-file');
const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof StateRefused) return e.message;
    throw e;
  }
  return 'opened';
};

const PAYLOAD = { r: 'replica-a', a: 'http://127.0.0.1:1', h: 'held-1', n: 'tools/call sign_up', exp: 2_000 };

describe('sealed request state', () => {
  it('opens on another replica with the same keys, and reveals nothing in the clear', () => {
    const sealed = keys(OLD).seal(PAYLOAD);
    expect(sealed).toMatch(/^ms1\.[0-9a-f]{8}\.[\w-]{16}\.[\w-]+$/);
    expect(sealed).not.toContain('replica-a');
    expect(sealed).not.toContain('held-1');
    expect(keys('# comment', '', OLD).open(sealed, 1_000)).toEqual(PAYLOAD);
  });

  it('rotation: the new key seals, the old one listed after it still opens its states; dropped, they are foreign', () => {
    const byOld = keys(OLD).seal(PAYLOAD);
    const rotated = keys(NEW, OLD);
    expect(rotated.open(byOld, 1_000)).toEqual(PAYLOAD);
    const byNew = rotated.seal(PAYLOAD);
    expect(byNew.split('.')[1]).not.toBe(byOld.split('.')[1]);
    expect(keys(NEW).open(byNew, 1_000)).toEqual(PAYLOAD);
    expect(refusal(() => keys(NEW).open(byOld, 1_000))).toBe(
      'it was sealed with a key this replica does not hold (another gateway, or a key rotated out)',
    );
  });

  it('refuses an altered, an expired and a foreign-format state with the reason', () => {
    const k = keys(OLD);
    const sealed = k.seal(PAYLOAD);
    const last = sealed.length - 3;
    const altered = sealed.slice(0, last) + (sealed[last] === 'A' ? 'B' : 'A') + sealed.slice(last + 1);
    expect(refusal(() => k.open(altered, 1_000))).toBe('it was altered (its seal does not verify)');
    // The key id is bound to the ciphertext: moving a state under another listed key's id fails too.
    const moved = sealed.replace(/^ms1\.[0-9a-f]{8}/, `ms1.${keys(NEW).seal({}).split('.')[1]}`);
    expect(refusal(() => keys(OLD, NEW).open(moved, 1_000))).toBe('it was altered (its seal does not verify)');
    expect(refusal(() => k.open(sealed, 2_001))).toBe('it has expired');
    expect(refusal(() => k.open('a-random-token-from-an-older-serve', 1_000))).toBe(
      'it is not a requestState serve sealed',
    );
    // A random key of another process: foreign.
    expect(refusal(() => StateKeys.random().open(sealed, 1_000))).toMatch(/^it was sealed with a key this replica/);
  });

  it('the replica MAC verifies only the same body, under a listed key, within the time window', () => {
    const k = keys(NEW, OLD);
    const mac = keys(OLD).sign('{"state":"x"}', 10_000);
    expect(k.verify(mac, '{"state":"x"}', 10_000, 60_000)).toBe(true);
    expect(k.verify(mac, '{"state":"y"}', 10_000, 60_000)).toBe(false);
    expect(k.verify(mac, '{"state":"x"}', 80_001, 60_000)).toBe(false);
    expect(keys(NEW).verify(mac, '{"state":"x"}', 10_000, 60_000)).toBe(false);
    expect(k.verify(undefined, '{"state":"x"}', 10_000, 60_000)).toBe(false);
  });

  it('a bad key file is a usage error naming the flag and the file', () => {
    expect(() => StateKeys.fromFile(join(dir, 'absent'), '--state-key-file')).toThrow(
      `Cannot read --state-key-file ${join(dir, 'absent')}: file not found`,
    );
    expect(() => keys('# only a comment')).toThrow(/: keys: no key in it; write one secret per line/);
    expect(() => keys(NEW, 'short')).toThrow(/: key 2: shorter than 32 characters/);
  });
});
