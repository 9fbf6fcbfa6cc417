// A first discover on a big snapshot reads it one server at a time (snapshot-split.ts) and builds its indexes in one
// pass (one-pass.ts): the servers, errors, postings and vectors must be those of the whole parse and the two-pass build.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { splitSnapshot } from '../../src/core/snapshot-split.js';
import { readSnapshotSet } from '../../src/core/snapshot.js';
import { leanServer } from '../../src/app/services/catalogue/payload.js';
import { analyzeFields, paramText, type Bm25Index } from '../../src/core/discover/bm25.js';
import { buildDiscoverIndex, bm25For, toolRefsFromSnapshots } from '../../src/core/discover/build.js';
import { indexInOnePass, semanticWords } from '../../src/core/discover/one-pass.js';
import { PackedPostings, type Posting } from '../../src/core/discover/packed-postings.js';
import { buildSemanticIndex } from '../../src/core/discover/semantic.js';
import { splitWords } from '../../src/core/discover/tokenize.js';
import { loadShippedWordVectors } from '../../src/core/discover/vectors.js';
import { resolveWeights } from '../../src/core/discover/weights.js';
import type { ServerSnapshot } from '../../src/core/types.js';
import { openSealed, sealBytes, sealParts } from '../../src/core/sealed-file.js';
import { writeFileSafe } from '../../src/process/safe-write.js';
import { encodeCatalogue, encodeCatalogueParts } from '../../src/app/services/catalogue/payload.js';
import { encodeIndexCache, encodeIndexCacheParts } from '../../src/core/discover/build.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-one-pass-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const server = (name: string, tools: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name,
  transport: 'stdio',
  status: 'ok',
  tools,
  ...extra,
});
// Strings that a structural cut must step over: quotes after backslashes, brackets and braces, non-ASCII, astral.
const tricky = [
  { name: 'a', description: 'ends in a backslash \\', inputSchema: { type: 'object' } },
  { name: 'b', description: 'quote \\" and {[ ]} "inside"', inputSchema: { type: 'object', properties: { x: {} } } },
  { name: 'c', description: '天气预报 ☃ \u{1F600} é', inputSchema: { type: 'object' } },
];

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('a snapshot cut at its servers', () => {
  it('parses piece by piece to what the whole parse gives, other keys before and after, a byte-order mark', () => {
    const doc = {
      format: 'mcp-smart/snapshot@1',
      servers: [server('one', tricky, { instructions: 'say "hi" \\ }' }), server('two', [])],
      createdAt: '2026-01-01T00:00:00Z',
    };
    const text = `\ufeff \n${JSON.stringify(doc, null, 2)}\n`;
    const bytes = Buffer.from(text, 'utf8');
    const split = splitSnapshot(bytes)!;
    expect(split).toBeDefined();
    const head = JSON.parse(split.head) as Record<string, unknown>;
    const servers = split.servers.map(([from, to]) => JSON.parse(bytes.toString('utf8', from, to)) as unknown);
    expect({ ...head, servers }).toEqual(JSON.parse(text.slice(1)));
    expect(Object.keys(head)).toEqual(['format', 'servers', 'createdAt']);
  });

  it('leaves to the whole parse what it does not cut cleanly', () => {
    const cut = (text: string): unknown => splitSnapshot(Buffer.from(text, 'utf8'));
    expect(cut('[1, 2]')).toBeUndefined();
    expect(cut('{"servers": [], "servers": []}')).toBeUndefined(); // twice: the whole parse keeps the last
    expect(cut('{"servers": {}}')).toBeUndefined();
    expect(cut('{"servers": [] } x')).toBeUndefined();
    expect(cut('{"format": "x"}')).toBeUndefined();
    expect(cut('{"servers": [{"a": "unterminated}]}')).toBeUndefined();
    expect(cut('{"servers": [{}, ]}')).toBeUndefined(); // a trailing comma
    expect(cut('{"servers": [{}], }')).toBeUndefined();
    expect(cut('{"servers": [{} {}]}')).toBeUndefined();
    expect(cut('{"servers": [ ]}')).toEqual({ head: '{"servers": []}', servers: [] });
    expect(cut('{ "a" : 1 , "servers" : [ {} , [2] ] }')).toEqual({
      head: '{ "a" : 1 , "servers" : [] }',
      servers: [
        [26, 28],
        [31, 34],
      ],
    });
  });
});

describe('the pieces of a cut snapshot', () => {
  it('are the elements the whole parse gives, over generated servers with escapes, brackets and non-ASCII', () => {
    // A fixed-seed generator (no Math.random): every run checks the same documents.
    let seed = 7;
    const next = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
    const alphabet = ['a', 'Z', ' ', '\\', '"', '{', '}', '[', ']', ',', ':', 'é', '☃', '\u{1F600}', '\n', '\\"'];
    const text = (): string => Array.from({ length: next(12) }, () => alphabet[next(alphabet.length)]).join('');
    for (let round = 0; round < 200; round++) {
      const servers = Array.from({ length: 1 + next(4) }, (_, i) =>
        server(`s${i}${text()}`, [
          {
            name: text() || 'n',
            description: text(),
            inputSchema: { type: 'object', properties: { [text()]: { description: text(), items: [text(), [{}]] } } },
          },
        ]),
      );
      const doc = { format: 'mcp-smart/snapshot@1', [text() || 'k']: [text(), { x: text() }], servers };
      const bytes = Buffer.from(JSON.stringify(doc, null, next(3)), 'utf8');
      const split = splitSnapshot(bytes)!;
      expect(split.servers.map(([from, to]) => JSON.parse(bytes.toString('utf8', from, to)) as unknown)).toEqual(
        servers,
      );
    }
  });
});

describe('readSnapshotSet one server at a time', () => {
  const doc = { format: 'mcp-smart/snapshot@1', servers: [server('one', tricky), server('two', tricky.slice(1))] };

  it('gives the servers of the whole read, each passed through `each`', async () => {
    const file = write('ok.json', JSON.stringify(doc));
    const whole = await readSnapshotSet([file], dir);
    let calls = 0;
    const lean = await readSnapshotSet([file], dir, undefined, (s) => (calls++, leanServer(s)));
    expect(calls).toBe(2);
    expect(lean.digest).toBe(whole.digest);
    expect(lean.servers).toEqual(whole.servers.map(leanServer));
    // The lean form keeps what ranking reads: the parameter text, no schema.
    const b = lean.servers[0]!.tools[1]!;
    expect(b.inputSchema).toBeUndefined();
    expect(paramText({ id: '', server: 'one', tool: b })).toBe(
      paramText({ id: '', server: 'one', tool: whole.servers[0]!.tools[1]! }),
    );
  });

  it('reports the errors the whole parse reports, a later server’s JSON error before an earlier check', async () => {
    const errorOf = async (file: string, each?: (s: ServerSnapshot) => ServerSnapshot): Promise<string> =>
      readSnapshotSet([file], dir, undefined, each).then(
        () => 'no error',
        (e: Error) => `${(e as { code?: string }).code}: ${e.message}`,
      );
    const badJson = write('bad-json.json', JSON.stringify(doc).replace('"two"', '"two",,'));
    const badServer = write(
      'bad-server.json',
      JSON.stringify({ ...doc, servers: [server('one', tricky), { ...server('two', []), status: 'maybe' }] }),
    );
    const badFormatThenJson = write(
      'bad-both.json',
      JSON.stringify({ ...doc, format: 'other' }).replace('"two"', '"two",,'),
    );
    for (const file of [badJson, badServer, badFormatThenJson]) {
      const whole = await errorOf(file);
      expect(whole).not.toBe('no error');
      expect(await errorOf(file, leanServer)).toBe(whole);
    }
    expect(await errorOf(badFormatThenJson)).toMatch(/^FILE_PARSE/);
  });
});

describe('the index built in one pass', () => {
  it('holds the postings of the BM25F formula over every field, and the vectors of the two-pass build', async () => {
    const read = (f: string): ServerSnapshot[] =>
      (JSON.parse(readFileSync(join('fixtures', 'snapshots', f), 'utf8')) as { servers: ServerSnapshot[] }).servers;
    const tools = toolRefsFromSnapshots([...read('many-tools.json'), ...read('discover-tools.json')]).sort((a, b) =>
      a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
    );
    expect(tools.length).toBeGreaterThan(40);
    const vectors = (await loadShippedWordVectors())!;
    const index = buildDiscoverIndex(tools, { vectors });
    const { bm25: params } = resolveWeights(undefined);
    const pass = indexInOnePass(index.tools, params, index.unstemmed, vectors);

    // The formula written out: per field a 32-bit length-normalised weight, summed per term and doc in 32 bits.
    const servers = new Map<string, string[]>();
    const fields = index.tools.map((t) => analyzeFields(t, undefined, undefined, servers, undefined, index.unstemmed));
    const names = ['name', 'description', 'params', 'server'] as const;
    const avg = names.map((f) => fields.reduce((n, d) => n + d[f].length, 0) / fields.length || 1);
    const tf = new Map<string, Map<number, number>>();
    fields.forEach((d, doc) =>
      names.forEach((f, i) => {
        const norm = Math.fround(params.fields[f] / (1 - params.b + (params.b * d[f].length) / avg[i]!));
        for (const t of d[f]) {
          const docs = tf.get(t) ?? tf.set(t, new Map()).get(t)!;
          const was = docs.get(doc);
          docs.set(doc, was === undefined ? norm : Math.fround(was + norm));
        }
      }),
    );
    const postings = new Map<string, Posting>();
    const expected: Bm25Index = { size: fields.length, postings };
    for (const [t, docs] of tf) {
      const idf = Math.log(1 + (fields.length - docs.size + 0.5) / (docs.size + 0.5));
      postings.set(t, {
        docs: Int32Array.from(docs.keys()),
        contrib: Float32Array.from([...docs.values()].map((x) => (idf * x) / (params.k1 + x))),
      });
    }
    // A built index's postings are packed (packed-postings.ts): as a Map, term for term in the same order.
    const asMap = (bm: Bm25Index): Bm25Index => ({ size: bm.size, postings: new Map(bm.postings) });
    expect(pass.bm25.postings).toBeInstanceOf(PackedPostings);
    expect(asMap(pass.bm25)).toEqual(expected);
    expect([...pass.bm25.postings.keys()]).toEqual([...postings.keys()]);
    expect(asMap(bm25For(index, index.weights))).toEqual(expected);

    const twoPass = buildSemanticIndex(
      vectors,
      index.tools.map((t) =>
        semanticWords(t, splitWords(t.tool.name), splitWords(t.tool.description ?? ''), splitWords(paramText(t))),
      ),
    );
    // Bit for bit. A build's matrix may be a view of the WebAssembly memory its sums were made in (sif-wasm.ts).
    const bytes = (m: Float32Array): Buffer => Buffer.from(m.buffer, m.byteOffset, m.byteLength);
    expect(bytes(pass.semantic!.matrix).equals(bytes(twoPass.matrix))).toBe(true);
    expect(index.semantic!.matrix).toEqual(twoPass.matrix);
  });
});

describe('cache files written in parts', () => {
  it('hold the bytes of the one-array seal, and open as it does', async () => {
    const servers = (
      JSON.parse(readFileSync(join('fixtures', 'snapshots', 'many-tools.json'), 'utf8')) as {
        servers: ServerSnapshot[];
      }
    ).servers;
    const magic = new TextEncoder().encode('test-magic');
    const catalogue = encodeCatalogueParts(servers, 'digest');
    expect(catalogue.length).toBeGreaterThan(1);
    const joined = Buffer.concat(catalogue);
    expect(joined.equals(Buffer.from(encodeCatalogue(servers, 'digest')))).toBe(true);
    const file = join(dir, 'sealed.bin');
    await writeFileSafe(file, sealParts(magic, 'k', catalogue));
    const written = readFileSync(file);
    expect(written.equals(Buffer.from(sealBytes(magic, 'k', joined)))).toBe(true);
    expect(Buffer.from(openSealed(magic, 'k', written)!).equals(joined)).toBe(true);
    expect(openSealed(magic, 'other key', written)).toBeNull();

    const index = buildDiscoverIndex(toolRefsFromSnapshots(servers), { vectors: (await loadShippedWordVectors())! });
    const parts = encodeIndexCacheParts(index);
    expect(Buffer.concat(parts).equals(Buffer.from(encodeIndexCache(index)))).toBe(true);
  });
});
