// The ranking's query-time shortcuts give the numbers of the loops they replace, bit for bit: the cosines in
// WebAssembly SIMD (dot-wasm.ts) are vector-math.ts dot's, and the server-lexical scores from each term's kept
// per-server bests (servers.ts) are those of the pass over every posting.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bm25Query } from '../../src/core/discover/bm25.js';
import { bm25For, buildDiscoverIndex } from '../../src/core/discover/build.js';
import { DOT_ROWS, dotKernel } from '../../src/core/discover/dot-wasm.js';
import { queryVector, scoreDocsMany, scoreSemantic, type SemanticIndex } from '../../src/core/discover/semantic.js';
import { sentenceVector } from '../../src/core/discover/sif.js';
import { serverLexicalScores } from '../../src/core/discover/servers.js';
import { serverGroups } from '../../src/core/discover/signals.js';
import { dot, hypot } from '../../src/core/discover/vector-math.js';
import { defaultVectorsFile, parseWordVectors } from '../../src/core/discover/vectors.js';
import type { ToolRef } from '../../src/core/types.js';

const bytes = (a: Float32Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** The fixture catalogue's tools, as discover indexes them. */
const fixtureTools = (): ToolRef[] => {
  const snap = JSON.parse(readFileSync('fixtures/snapshots/discover-tools.json', 'utf8')) as {
    servers: { name: string; instructions?: string; tools: ToolRef['tool'][] }[];
  };
  return snap.servers.flatMap((s) =>
    s.tools.map((tool) => ({ id: `${s.name}.${tool.name}`, server: s.name, serverInstructions: s.instructions, tool })),
  );
};

/** A deterministic stream of numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The four lane sums' roles in a row that cancels: ±2^60 (they cancel), one near 1, one near 2^-60. */
const ROLES = [2 ** 60, -(2 ** 60), 1.5, 1.25 * 2 ** -60];

/**
 * An index whose rows mix magnitudes 2^-20 … 2^20 with signs (sums that round differently in float32), and
 * whose every third row (from row 1), with a query of ones, have lane sums that cancel (ROLES, in a random lane order): adding them in
 * another order than dot's loses the small ones, so a kernel passes only in dot's own order (the tests show both).
 */
function hardIndex(size: number, dims: number): SemanticIndex {
  const next = random(7);
  const matrix = new Float32Array(size * dims);
  for (let i = 0; i < size; i++) {
    const row = matrix.subarray(i * dims, (i + 1) * dims);
    if (i % 3 !== 1 || dims % 4 !== 0) {
      for (let d = 0; d < dims; d++) row[d] = (next() - 0.5) * 2 ** Math.floor(next() * 41 - 20);
      continue;
    }
    const roles = [...ROLES].sort(() => next() - 0.5);
    roles.forEach((v, lane) => (row[lane + 4 * Math.floor((next() * dims) / 4)] = v));
  }
  return { dims, size, matrix, common: null };
}

/** The cosines by dot(), row by row (what the JavaScript loops compute). */
function byDot(index: SemanticIndex, q: Float32Array, docs: readonly number[]): Float32Array {
  return Float32Array.from(docs, (i) => dot(index.matrix, i * index.dims, q, index.dims));
}

describe('cosines in WebAssembly SIMD', () => {
  const index = hardIndex(203, 128);
  const next = random(11);
  const queries = [
    ...Array.from({ length: 12 }, (_, c) =>
      Float32Array.from({ length: 128 }, () => (next() - 0.5) * 2 ** Math.floor(next() * 41 - 20) * (c + 1)),
    ),
    new Float32Array(128).fill(1),
  ];

  it('sums in dot’s order: float32 sums, or the lane sums added in another order, give other floats here', () => {
    // Sensitivity of the checks below: float32 sums differ from dot on many random rows (query 0), and adding the
    // four lane sums in another order (the last two swapped) on many cancelling rows (the query of ones).
    const lanes = (i: number, q: Float32Array): number[] => {
      const s = new Float64Array(4);
      for (let d = 0; d < 128; d++) s[d % 4] = s[d % 4]! + index.matrix[i * 128 + d]! * q[d]!;
      return [...s];
    };
    let f32Differs = 0;
    let orderDiffers = 0;
    for (let i = 0; i < index.size; i++) {
      let f32 = 0;
      for (let d = 0; d < 128; d++) f32 = Math.fround(f32 + Math.fround(index.matrix[i * 128 + d]! * queries[0]![d]!));
      if (f32 !== Math.fround(dot(index.matrix, i * 128, queries[0]!, 128))) f32Differs++;
      const [s0, s1, s2, s3] = lanes(i, queries.at(-1)!);
      if (Math.fround(s0! + s1! + s3! + s2!) !== Math.fround(dot(index.matrix, i * 128, queries.at(-1)!, 128)))
        orderDiffers++;
    }
    expect(f32Differs).toBeGreaterThan(index.size / 8);
    expect(orderDiffers).toBeGreaterThan(index.size / 16);
  });

  it('gives dot’s float32 for every row of a full scan (scoreSemantic), rows left over by the kernel included', () => {
    const kernel = dotKernel(index);
    expect(kernel).not.toBeNull();
    const all = [...Array(index.size).keys()];
    for (const q of queries) {
      const out = new Float32Array(index.size);
      scoreSemantic(index, q, out);
      expect(bytes(out).equals(bytes(byDot(index, q, all)))).toBe(true);
      // The kernel itself writes whole groups of rows and says how many: the rest is left to the caller.
      const raw = new Float32Array(index.size).fill(-1);
      expect(kernel!.scores(q, null, index.size, raw)).toBe(index.size - (index.size % DOT_ROWS));
      expect(raw[index.size - 1]).toBe(-1);
    }
  });

  it('gives dot’s float32 for scattered doc lists of every length (scoreDocsMany), null queries skipped', () => {
    for (const length of [0, 1, 3, 4, 5, 64, 150, 203]) {
      const docs = Int32Array.from({ length }, () => Math.floor(next() * index.size));
      const out = scoreDocsMany(index, [queries[1]!, null, queries.at(-1)!], docs);
      expect(out[1]).toBeNull();
      expect(bytes(out[0]!).equals(bytes(byDot(index, queries[1]!, [...docs])))).toBe(true);
      expect(bytes(out[2]!).equals(bytes(byDot(index, queries.at(-1)!, [...docs])))).toBe(true);
    }
  });

  it('is not made for rows that are not a multiple of four floats, or for a large index with a sketch', () => {
    expect(dotKernel(hardIndex(10, 6))).toBeNull();
    const sketched: SemanticIndex = { ...hardIndex(10, 8), sketch: {} as NonNullable<SemanticIndex['sketch']> };
    expect(dotKernel(sketched)).toBeNull();
    // And a kernel scores the index it was made for: one per index.
    const other = hardIndex(40, 128);
    expect(dotKernel(other)).not.toBe(dotKernel(index));
  });

  it('gives the fixture catalogue’s cosines for its intents as dot does', () => {
    const vectors = parseWordVectors(readFileSync(defaultVectorsFile()));
    const built = buildDiscoverIndex(fixtureTools(), { vectors });
    const sem = built.semantic!;
    const all = [...Array(sem.size).keys()];
    for (const intent of ['send a message to the team channel', 'list open pull requests', 'weather in Paris']) {
      const q = queryVector(sem, sentenceVector(vectors, intent)!);
      const out = new Float32Array(sem.size);
      scoreSemantic(sem, q, out);
      expect(bytes(out).equals(bytes(byDot(sem, q, all)))).toBe(true);
      expect(out.some((x) => x !== 0)).toBe(true);
    }
  });
});

describe('a vector’s length without spreading it', () => {
  it('is Math.hypot’s number, bit for bit, for vectors of mixed magnitudes and the special values', () => {
    const next = random(17);
    let naiveDiffers = 0;
    for (let t = 0; t < 3000; t++) {
      const v = Float32Array.from({ length: [1, 3, 7, 128][t % 4]! }, () =>
        next() < 0.05 ? 0 : (next() - 0.5) * 2 ** Math.floor(next() * 60 - 30),
      );
      expect(Object.is(hypot(v), Math.hypot(...v))).toBe(true);
      let sq = 0;
      for (const x of v) sq += x * x;
      if (Math.sqrt(sq) !== Math.hypot(...v)) naiveDiffers++;
    }
    // Sensitivity: the plain square root of the sum of squares gives another number on many of these.
    expect(naiveDiffers).toBeGreaterThan(100);
    for (const v of [[], [0, 0], [Infinity, NaN], [NaN, 1], [-3, 4], [2 ** -149, 2 ** -149]])
      expect(Object.is(hypot(Float32Array.from(v)), Math.hypot(...v))).toBe(true);
  });
});

describe('server-lexical scores from each term’s kept per-server bests', () => {
  it('equal the pass over every posting, on the first query of a term and on later ones', () => {
    const index = buildDiscoverIndex(fixtureTools());
    const bm = bm25For(index, index.weights);
    const g = serverGroups(index);
    expect(g.count).toBeGreaterThan(2);
    const every = (): boolean => true; // a filter takes the pass over every posting
    for (let round = 0; round < 2; round++)
      for (const intent of ['send a message to the team channel', 'list issues and pull requests', 'read file']) {
        const q = bm25Query(intent, index.unstemmed);
        const weights = q.terms.map((_, k) => (k % 2 === 0 ? 1 : 0.3));
        const kept = serverLexicalScores(bm, q.terms, g.of, g.count, undefined, weights);
        const walked = serverLexicalScores(bm, q.terms, g.of, g.count, every, weights);
        expect(bytes(kept).equals(bytes(walked)), intent).toBe(true);
        expect(kept.some((x) => x > 0)).toBe(true);
      }
  });
});
