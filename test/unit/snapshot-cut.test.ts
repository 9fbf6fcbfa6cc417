// A snapshot read in steps is cut as its bytes come (snapshot-cut.ts): whatever the sizes of the reads, the pieces
// and the head must be those of the cut of the whole buffer (snapshot-split.ts), and what that cut refuses it refuses.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChunkedCut } from '../../src/core/snapshot-cut.js';
import { parseServerText, splitSnapshot } from '../../src/core/snapshot-split.js';
import { readSnapshotSet, type CheckedSnapshots } from '../../src/core/snapshot.js';
import { READ_AS, readFileChunks } from '../../src/process/read-file.js';
import { leanServer } from '../../src/app/services/catalogue/payload.js';
import { jsonDepth } from '../../src/core/tool-validate.js';
import { tempDir } from '../helpers/temp.js';

/** The cut of `bytes` fed in reads whose sizes `size()` gives (each at most the room offered), from a small buffer. */
function cutInSteps(
  bytes: Buffer,
  size: () => number,
  bufferBytes = 16,
): { head: string; servers: string[] } | undefined {
  const servers: string[] = [];
  const cut = new ChunkedCut((b, from, to) => servers.push(b.toString('utf8', from, to)), bufferBytes);
  for (let at = 0; at < bytes.length;) {
    const room = cut.room();
    const n = Math.min(room.length, Math.max(1, size()), bytes.length - at);
    bytes.copy(room, 0, at, at + n);
    at += n;
    if (!cut.add(n)) return undefined;
  }
  const head = cut.end();
  return head === undefined ? undefined : { head, servers };
}

/** The whole-buffer cut, its pieces as text. */
function cutWhole(bytes: Buffer): { head: string; servers: string[] } | undefined {
  const split = splitSnapshot(bytes);
  return split && { head: split.head, servers: split.servers.map(([f, t]) => bytes.toString('utf8', f, t)) };
}

// A fixed-seed generator (no Math.random): every run checks the same documents and read sizes.
let seed = 11;
const next = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
const alphabet = ['a', 'Z', ' ', '\\', '\\\\', '"', '{', '}', '[', ']', ',', ':', 'é', '☃', '\u{1F600}', '\n', '\\"'];
const text = (): string => Array.from({ length: next(14) }, () => alphabet[next(alphabet.length)]).join('');
const server = (i: number): Record<string, unknown> => ({
  name: `s${i}${text()}`,
  transport: 'stdio',
  status: 'ok',
  instructions: text(),
  tools: [
    {
      name: text() || 'n',
      description: text(),
      inputSchema: { type: 'object', properties: { [text()]: { description: text(), items: [text(), [{}], 1.5e3] } } },
    },
  ],
});
const documentText = (): string => {
  const doc = {
    [text() || 'k']: [text(), { x: text() }, null, -2],
    format: 'mcp-smart/snapshot@1',
    servers: Array.from({ length: next(5) }, (_, i) => server(i)),
    createdAt: text(),
  };
  return `${next(2) === 0 ? '\ufeff' : ''}${next(2) === 0 ? '\n ' : ''}${JSON.stringify(doc, null, next(3))}\n`;
};

describe('a snapshot cut in steps', () => {
  it('gives the pieces and head of the whole cut, whatever the read sizes (1 byte up)', () => {
    for (let round = 0; round < 150; round++) {
      const bytes = Buffer.from(documentText(), 'utf8');
      const whole = cutWhole(bytes);
      expect(whole).toBeDefined();
      const limit = [1, 2, 3, 7, 64, 1 << 20][round % 6]!;
      expect(cutInSteps(bytes, () => 1 + next(limit), 1 + next(64))).toEqual(whole);
    }
  });

  it('carries a backslash at the end of a read into the next (a quote after it does not end the string)', () => {
    // Every read ends after a backslash somewhere: 1-byte reads, and reads cut just after each backslash.
    const doc = `{"format":"f","servers":[{"name":"a\\"]},{","d":"\\\\"},{"e":"\\\\\\"x\\\\"}],"z":"\\\\\\""}`;
    const bytes = Buffer.from(doc, 'utf8');
    const whole = cutWhole(bytes)!;
    expect(whole.servers).toEqual(['{"name":"a\\"]},{","d":"\\\\"}', '{"e":"\\\\\\"x\\\\"}']);
    expect(cutInSteps(bytes, () => 1)).toEqual(whole);
    const slashes = [...bytes.keys()].filter((i) => bytes[i] === 0x5c);
    for (const s of slashes) {
      let sizes = [s + 1, bytes.length];
      expect(cutInSteps(bytes, () => sizes.shift()!, 4096)).toEqual(whole);
      sizes = [s, 1, bytes.length];
      expect(cutInSteps(bytes, () => sizes.shift()!, 4096)).toEqual(whole);
    }
  });

  it("tells each element's nesting depth as jsonDepth counts it, whatever the read sizes", () => {
    // The depth lets a server skip the depth walk of its tools (snapshot.ts readByServer); one counted too low would
    // let a tool nested past MAX_SCHEMA_DEPTH through unchecked.
    const nest = (n: number): unknown => (n === 0 ? 'x' : n % 2 ? { a: nest(n - 1), s: '[[{' } : [1, nest(n - 1)]);
    for (let round = 0; round < 60; round++) {
      const doc = JSON.parse(documentText().replace(/^\ufeff/, '')) as { servers: unknown[] };
      doc.servers.push(nest(next(300)), 'a string', 7, nest(round));
      const bytes = Buffer.from(JSON.stringify(doc, null, next(3)), 'utf8');
      const seen: [string, number][] = [];
      const cut = new ChunkedCut((b, from, to, depth) => seen.push([b.toString('utf8', from, to), depth]), 16);
      for (let at = 0; at < bytes.length;) {
        const room = cut.room();
        const n = Math.min(room.length, 1 + next([1, 5, 200, 1 << 20][round % 4]!), bytes.length - at);
        bytes.copy(room, 0, at, at + n);
        at += n;
        expect(cut.add(n)).toBe(true);
      }
      expect(cut.end()).toBeDefined();
      expect(seen.map(([piece]) => JSON.parse(piece) as unknown)).toEqual(doc.servers);
      for (const [piece, depth] of seen) expect(depth).toBe(jsonDepth(JSON.parse(piece), Infinity));
    }
  });

  it('refuses, in any steps, what the whole cut refuses', () => {
    const refused = [
      '[1, 2]',
      '{"servers": [], "servers": []}',
      '{"servers": {}}',
      '{"servers": [] } x',
      '{"format": "x"}',
      '{"servers": [{"a": "unterminated}]}',
      '{"servers": [{}, ]}',
      '{"servers": [{}], }',
      '{"servers": [{} {}]}',
      '{"servers": [,{}]}',
      '{}',
      '',
      '{"servers": [{}]',
    ];
    for (const doc of refused) {
      const bytes = Buffer.from(doc, 'utf8');
      expect(cutWhole(bytes)).toBeUndefined();
      expect(cutInSteps(bytes, () => 1)).toBeUndefined();
      expect(cutInSteps(bytes, () => 1 << 20, 4096)).toBeUndefined();
    }
    const ok = Buffer.from('{ "a" : 1 , "servers" : [ {} , [2] , "x" ] }', 'utf8');
    expect(cutInSteps(ok, () => 1)).toEqual({ head: '{ "a" : 1 , "servers" : [] }', servers: ['{}', '[2]', '"x"'] });
  });
});

describe('a big server parsed tool by tool', () => {
  const big = (): string => `é${text()}`.repeat(1200) + '☃';
  const parsed = (json: string): unknown => {
    const bytes = Buffer.from(`xx${json}yy`, 'utf8');
    return parseServerText(bytes, 2, bytes.length - 2);
  };

  it('gives what JSON.parse gives: the same values, keys in the same order', () => {
    for (let round = 0; round < 20; round++) {
      const s = server(round);
      s.tools = Array.from({ length: 3 + next(20) }, (_, i) => ({ name: `t${i}${text()}`, description: big() }));
      const json = JSON.stringify({ ...s, after: [text(), { tools: text() }] }, null, next(3));
      expect(Buffer.byteLength(json)).toBeGreaterThan(32 << 10);
      const whole = JSON.parse(json) as unknown;
      const cut = parsed(json);
      expect(cut).toEqual(whole);
      expect(JSON.stringify(cut)).toBe(JSON.stringify(whole)); // the key order too
    }
  });

  it('parses whole what it does not cut cleanly (tools twice, not a list), and throws what JSON.parse throws', () => {
    const desc = JSON.stringify(big().repeat(20));
    for (const json of [
      `{"tools": [{"d": ${desc}}], "tools": [1]}`,
      `{"tools": {"d": ${desc}}}`,
      `{"tool\u0073": [{"d": ${desc}}], "x": 1}`,
      `{"a": ${desc}}`,
    ])
      expect(parsed(json)).toEqual(JSON.parse(json));
    for (const json of [`{"tools": [{"d": ${desc}},]}`, `{"tools": [{"d": ${desc}}], "x": }`])
      expect(() => parsed(json)).toThrow(SyntaxError);
  });
});

describe('readSnapshotSet in steps', () => {
  const dir = tempDir('mcp-smart-cut-');
  const doc = {
    format: 'mcp-smart/snapshot@1',
    servers: [server(0), server(1), { ...server(2), tools: [{ name: 'bad', inputSchema: 7 }] }],
  };
  writeFileSync(join(dir, 'snap.json'), JSON.stringify(doc));
  mkdirSync(join(dir, 'folder'));

  it('reads what the whole read gives, and checks in full unless no record exists', async () => {
    const whole = await readSnapshotSet(['snap.json'], dir);
    const asked: string[] = [];
    const checked = (none: boolean): CheckedSnapshots => ({
      known: (d) => (asked.push(d), Promise.resolve(false)),
      remember: () => Promise.resolve(),
      none: () => Promise.resolve(none),
    });
    const stepped = await readSnapshotSet(['snap.json'], dir, checked(true), leanServer);
    expect(stepped.digest).toBe(whole.digest);
    expect(stepped.servers).toEqual(whole.servers.map(leanServer));
    expect(stepped.servers[2]!.notes).toEqual(whole.servers[2]!.notes); // the malformed tool's note
    expect(asked).toEqual([]); // no record: the digest was never asked about
    const recorded = await readSnapshotSet(['snap.json'], dir, checked(false), leanServer);
    expect(recorded).toEqual(stepped);
    expect(asked).toHaveLength(1);
  });

  it('reports a missing file and a folder as the whole read does', async () => {
    const errorOf = (file: string): Promise<unknown> =>
      readSnapshotSet([file], dir, undefined, leanServer).then(
        () => 'no error',
        (e: { code?: string }) => e.code,
      );
    expect(await errorOf('nope.json')).toBe('FILE_NOT_FOUND');
    expect(await errorOf('folder')).toBe('FILE_UNREADABLE');
    expect(
      readFileChunks(
        'folder',
        dir,
        READ_AS.snapshot,
        () => Buffer.alloc(8),
        () => true,
      ),
    ).toBe(false);
    expect(
      readFileChunks(
        'nope.json',
        dir,
        READ_AS.snapshot,
        () => Buffer.alloc(8),
        () => true,
      ),
    ).toBe(false);
  });
});
