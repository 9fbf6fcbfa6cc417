// The cuts around a big first discover (issue 40 item 4) must give the bytes of the plain code they replace: the
// sketch's blocked dots, the blocked power iteration, and the BM25, index and catalogue caches written in chunks (or,
// for postings that are views of one pair of arrays, whole).
import { describe, expect, it } from 'vitest';
import { buildSketch } from '../../src/core/discover/sketch.js';
import { eigenvectors, orthonormalize, scatter } from '../../src/core/discover/vector-math.js';
import { bm25IndexSource, decodeBm25Index, encodeBm25Index, type Bm25Index } from '../../src/core/discover/bm25.js';
import { Bm25Collector } from '../../src/core/discover/bm25-collect.js';
import { PackedPostings } from '../../src/core/discover/packed-postings.js';
import { DEFAULT_WEIGHTS } from '../../src/core/discover/weights.js';
import {
  buildDiscoverIndex,
  encodeIndexCache,
  encodeIndexCacheSource,
  toolRefsFromSnapshots,
} from '../../src/core/discover/build.js';
import { loadShippedWordVectors } from '../../src/core/discover/vectors.js';
import { catalogueSource, encodeCatalogue, leanServer } from '../../src/app/services/catalogue/payload.js';
import { sealParts, sealSource } from '../../src/core/sealed-file.js';
import type { ServerSnapshot } from '../../src/core/types.js';

/** A deterministic pseudo-random matrix of unit rows (a few rows zero). */
function unitRows(size: number, dims: number, seed: number): Float32Array {
  let s = seed;
  const next = (): number => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5;
  const m = new Float32Array(size * dims);
  for (let i = 0; i < size; i++) {
    if (i % 97 === 5) continue;
    let n = 0;
    for (let d = 0; d < dims; d++) n += (m[i * dims + d] = next() + (d < 3 ? 0.4 : 0)) ** 2;
    for (let d = 0; d < dims; d++) m[i * dims + d] = m[i * dims + d]! / Math.sqrt(n);
  }
  return m;
}

/** The power iteration one row at a time (the code the blocked one replaced). */
function plainEigenvectors(cov: Float64Array, dims: number, count: number): Float32Array[] {
  const out: Float32Array[] = [];
  const m = Float64Array.from(cov);
  for (let k = 0; k < count; k++) {
    let v = new Float64Array(dims);
    for (let d = 0; d < dims; d++) v[d] = 1 / Math.sqrt(dims) + (k > 0 && d === k % dims ? 0.5 : 0);
    let lambda = 0;
    for (let iter = 0; iter < 50; iter++) {
      const next = new Float64Array(dims);
      for (let a = 0; a < dims; a++) {
        let s = 0;
        for (let b = 0; b < dims; b++) s += m[a * dims + b]! * v[b]!;
        next[a] = s;
      }
      let n = 0;
      for (let a = 0; a < dims; a++) n += next[a]! * next[a]!;
      n = Math.sqrt(n);
      if (n === 0) return out;
      for (let a = 0; a < dims; a++) next[a] = next[a]! / n;
      v = next;
      lambda = n;
    }
    out.push(Float32Array.from(v));
    for (let a = 0; a < dims; a++)
      for (let b = 0; b < dims; b++) m[a * dims + b] = m[a * dims + b]! - lambda * v[a]! * v[b]!;
  }
  return out;
}

/** The sketch one basis vector at a time (the code the blocked one replaced). */
function plainSketch(matrix: Float32Array, size: number, dims: number): { rows: Float32Array; residual: Float32Array } {
  const basis = orthonormalize(plainEigenvectors(scatter(matrix, size, dims), dims, 32));
  const p = basis.length;
  const rows = new Float32Array(size * p);
  const residual = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    let held = 0;
    for (let k = 0; k < p; k++) {
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += matrix[i * dims + d]! * basis[k]![d]!;
      rows[i * p + k] = dot;
      held += dot * dot;
    }
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += matrix[i * dims + d]! ** 2;
    residual[i] = Math.sqrt(Math.max(0, norm - held));
  }
  return { rows, residual };
}

const bytesOf = (a: Float32Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

describe('blocked vector math', () => {
  // 64 dims: 32 basis vectors in blocks of four; 7 dims: 7 vectors, blocks of four and a tail of three.
  for (const [size, dims] of [
    [600, 64],
    [300, 7],
    [200, 30],
  ] as const) {
    it(`gives the plain code's eigenvectors and sketch, bit for bit (${size} × ${dims})`, () => {
      const matrix = unitRows(size, dims, size + dims);
      const cov = scatter(matrix, size, dims);
      const blocked = eigenvectors(cov, dims, 32);
      const plain = plainEigenvectors(cov, dims, 32);
      expect(blocked.length).toBe(plain.length);
      blocked.forEach((v, k) => expect(bytesOf(v).equals(bytesOf(plain[k]!))).toBe(true));
      const sketch = buildSketch({ matrix, size, dims });
      const want = plainSketch(matrix, size, dims);
      expect(sketch.dims).toBe(Math.min(32, dims));
      expect(bytesOf(sketch.rows).equals(bytesOf(want.rows))).toBe(true);
      expect(bytesOf(sketch.residual).equals(bytesOf(want.residual))).toBe(true);
    });
  }

  it("sums the scatter matrix in WebAssembly with the JavaScript loop's bits (odd and even dims, zeros, zero rows)", () => {
    const f64 = (a: Float64Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    let seed = 11;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed / 0x7fffffff);
    for (const dims of [1, 2, 3, 5, 8, 31, 128, 129])
      for (const size of [1, 40, 1500]) {
        const matrix = new Float32Array(size * dims).map(() => {
          const r = rnd();
          return r < 0.1 ? 0 : r < 0.12 ? -0 : (rnd() - 0.5) * (r < 0.5 ? 1e-3 : 10);
        });
        for (let r = 5; r < size; r += 17) matrix.fill(0, r * dims, (r + 1) * dims);
        const js = scatter(matrix, size, dims, true);
        const wasm = scatter(matrix, size, dims);
        expect(wasm.buffer).not.toBe(js.buffer);
        expect(f64(wasm).equals(f64(js))).toBe(true);
        // Symmetric, and not all zero: the sums were made.
        expect(wasm[dims - 1]).toBe(wasm[(dims - 1) * dims]);
        expect(wasm.some((x) => x !== 0)).toBe(true);
      }
  });
});

describe('encodeBm25Index', () => {
  it('writes the plain layout (terms, df, then all docs, then all contributions) and reads back', () => {
    const postings = new Map([
      ['alpha', { docs: Int32Array.of(0, 2, 5), contrib: Float32Array.of(0.5, 1.25, -2) }],
      ['béta', { docs: Int32Array.of(1), contrib: Float32Array.of(3.5) }],
      ['c', { docs: Int32Array.of(3, 4), contrib: Float32Array.of(0.125, 7) }],
    ]);
    const index: Bm25Index = { size: 6, postings };
    const bytes = encodeBm25Index(index);
    const text = Buffer.from('alpha\nbéta\nc', 'utf8');
    const pad = (4 - (text.byteLength % 4)) % 4;
    const want = Buffer.concat([
      Buffer.from(Uint32Array.of(0x424d3231, 6, 3, text.byteLength).buffer),
      text,
      Buffer.alloc(pad),
      Buffer.from(Uint32Array.of(3, 1, 2).buffer),
      Buffer.from(Int32Array.of(0, 2, 5, 1, 3, 4).buffer),
      Buffer.from(Float32Array.of(0.5, 1.25, -2, 3.5, 0.125, 7).buffer),
    ]);
    expect(Buffer.from(bytes).equals(want)).toBe(true);
    // In chunks: postings that fit, postings that span a chunk's end, postings longer than a chunk.
    for (const size of [4, 8, 12, 1 << 20]) {
      const source = bm25IndexSource(index, size);
      expect(source.byteLength).toBe(want.byteLength);
      expect(Buffer.concat(Array.from(source.parts(), (c) => Buffer.from(c))).equals(want)).toBe(true);
    }
    const back = decodeBm25Index(bytes, 6);
    expect([...back!.postings.keys()]).toEqual(['alpha', 'béta', 'c']);
    expect([...back!.postings.get('c')!.contrib]).toEqual([0.125, 7]);
    // Packed postings (a decoded cache's, a fresh build's) go out as their two arrays, with the same bytes; a plain
    // Map of postings (one of them moved elsewhere) goes term by term through the chunks.
    const whole = Array.from(bm25IndexSource(back!, 4).parts(), (c) => Buffer.from(c));
    expect(whole).toHaveLength(4);
    expect(Buffer.concat(whole).equals(want)).toBe(true);
    const moved = new Map(back!.postings);
    moved.set('béta', { docs: Int32Array.of(1), contrib: Float32Array.of(3.5) });
    const copied = Array.from(bm25IndexSource({ size: 6, postings: moved }, 4).parts(), (c) => Buffer.from(c));
    expect(copied.length).toBeGreaterThan(4);
    expect(Buffer.concat(copied).equals(want)).toBe(true);
  });

  it("a fresh build's postings are views of one pair of arrays, written whole", () => {
    const c = new Bm25Collector();
    c.add({ name: ['list', 'event'], description: ['calendar', 'event', 'day'], params: ['date'], server: ['cal'] });
    c.add({ name: ['weather'], description: ['forecast', 'city', 'tomorrow'], params: ['city'], server: ['cal'] });
    const index = c.finish(DEFAULT_WEIGHTS.bm25);
    const buffers = new Set([...index.postings.values()].map((p) => p.docs.buffer));
    expect(buffers.size).toBe(1);
    const parts = Array.from(bm25IndexSource(index).parts(), (p) => Buffer.from(p));
    expect(parts).toHaveLength(4);
    expect(Buffer.concat(parts).equals(Buffer.from(encodeBm25Index(index)))).toBe(true);
    const back = decodeBm25Index(encodeBm25Index(index), 2)!;
    expect([...back.postings.get('event')!.docs]).toEqual([0]);
    expect([...back.postings.get('city')!.docs]).toEqual([1]);
    expect(back.postings.get('cal')!.contrib).toEqual(index.postings.get('cal')!.contrib);
  });

  it("a built or read index's postings act as the Map of their terms, each term's views made once", () => {
    const c = new Bm25Collector();
    c.add({ name: ['list', 'event'], description: ['event', 'day'], params: [], server: ['cal'] });
    c.add({ name: ['weather'], description: ['day'], params: ['city'], server: ['cal'] });
    const built = c.finish(DEFAULT_WEIGHTS.bm25);
    const read = decodeBm25Index(encodeBm25Index(built), 2)!;
    for (const { postings } of [built, read]) {
      expect(postings).toBeInstanceOf(PackedPostings);
      const terms = ['list', 'event', 'day', 'cal', 'weather', 'city'];
      expect(postings.size).toBe(terms.length);
      expect([...postings.keys()]).toEqual(terms);
      expect([...postings.values()].map((p) => [...p.docs])).toEqual([[0], [0], [0, 1], [0, 1], [1], [1]]);
      expect([...postings].map(([t, p]) => `${t}:${p.docs.length}`)).toEqual(
        [...postings.entries()].map(([t, p]) => `${t}:${p.docs.length}`),
      );
      const seen: string[] = [];
      postings.forEach((p, t, map) => seen.push(`${t}:${p.contrib.length}:${map === postings}`));
      expect(seen).toEqual(terms.map((t) => `${t}:${postings.get(t)!.docs.length}:true`));
      expect(postings.get('day')).toBe(postings.get('day'));
      expect(postings.get('nope')).toBeUndefined();
      expect(postings.has('city') && !postings.has('citi')).toBe(true);
      expect(new Map(postings).get('day')!.contrib).toEqual(postings.get('day')!.contrib);
    }
    // A term twice is no file encodeBm25Index writes: the read refuses it (the index is built again).
    const text = new TextEncoder().encode('a\na');
    const twice = Buffer.concat([
      Buffer.from(Uint32Array.of(0x424d3231, 1, 2, text.byteLength).buffer),
      Buffer.from(text),
      Buffer.alloc((4 - (text.byteLength % 4)) % 4),
      Buffer.from(Uint32Array.of(1, 1).buffer),
      Buffer.from(Int32Array.of(0, 0).buffer),
      Buffer.from(Float32Array.of(1, 1).buffer),
    ]);
    expect(decodeBm25Index(twice, 1)).toBeNull();
    twice.write('b', 16 + 2);
    expect([...decodeBm25Index(twice, 1)!.postings.keys()]).toEqual(['a', 'b']);
  });
});

describe('the index cache written in chunks', () => {
  it("gives encodeIndexCache's bytes", async () => {
    const servers: ServerSnapshot[] = [
      {
        name: 'cal',
        transport: 'stdio',
        status: 'ok',
        tools: [
          { name: 'list_events', description: 'List the calendar events of a day', inputSchema: { type: 'object' } },
          { name: 'weather', description: 'Forecast for a city tomorrow', inputSchema: { type: 'object' } },
        ],
      },
    ];
    const index = buildDiscoverIndex(toolRefsFromSnapshots(servers), { vectors: await loadShippedWordVectors() });
    const want = Buffer.from(encodeIndexCache(index));
    const got = Buffer.concat(Array.from(encodeIndexCacheSource(index)(), (c) => Buffer.from(c)));
    expect(got.equals(want)).toBe(true);
  });
});

describe('the catalogue cache written in chunks', () => {
  // Latin-1 and other texts, a lone surrogate and an astral character, texts longer than a chunk.
  const long = 'x'.repeat(50) + 'é';
  const servers = (
    [
      {
        name: 'one',
        transport: 'stdio',
        status: 'ok',
        tools: [
          { name: 'a', description: long, inputSchema: { type: 'object', properties: { q: { description: long } } } },
          { name: 'b', description: '天气预报 \u{1F600} and a lone \ud800 surrogate', inputSchema: { type: 'object' } },
          { name: 'c', inputSchema: { type: 'object' } },
        ],
      },
      { name: 'two', transport: 'http', status: 'ok', tools: [{ name: 'd', description: '☃'.repeat(40) }] },
      // The head's JSON with other characters (in names, titles, annotations): its pieces are cut at no character.
      ...Array.from({ length: 12 }, (_, i) => ({
        name: `天气-${i}`,
        transport: 'stdio',
        status: 'ok',
        tools: Array.from({ length: i % 4 }, (_, j) => ({
          name: `é${j}`,
          title: `Prévision ${'☃'.repeat(i)} \u{1F600}`,
          annotations: { title: `注释 ${j} \ud800`, readOnlyHint: j % 2 === 0 },
          description: j % 2 ? 'plain' : `météo ${j}`,
        })),
      })),
    ] as ServerSnapshot[]
  ).map(leanServer);

  it("gives encodeCatalogue's bytes whatever the chunk size, and sealParts's file", () => {
    const whole = Buffer.from(encodeCatalogue(servers, 'digest'));
    // Every size up to a few pieces' length (each a piece, a text or a chunk boundary somewhere else), and the real one.
    for (const size of [...Array.from({ length: 400 }, (_, i) => i + 2), 1 << 20]) {
      const source = catalogueSource(servers, 'digest', size);
      // Each chunk copied as it comes (the next one reuses its buffer).
      const chunks = Array.from(source(), (c) => Buffer.from(c));
      expect(Buffer.concat(chunks).equals(whole)).toBe(true);
      const sealed = Buffer.concat(
        Array.from(sealSource(new Uint8Array([1, 2]), 'key', source), (c) => Buffer.from(c)),
      );
      expect(sealed.equals(Buffer.concat(sealParts(new Uint8Array([1, 2]), 'key', [whole])))).toBe(true);
    }
  });
});
