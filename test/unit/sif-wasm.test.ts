// The sentence-vector sums of a fresh build in WebAssembly give addWords' floats bit for bit, and an index built
// with them is the index built without them, byte for byte.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildDiscoverIndex, encodeIndexCache } from '../../src/core/discover/build.js';
import { addWords } from '../../src/core/discover/sif.js';
import { sifSummer } from '../../src/core/discover/sif-wasm.js';
import { splitWords } from '../../src/core/discover/tokenize.js';
import { defaultVectorsFile, parseWordVectors, type WordVectors } from '../../src/core/discover/vectors.js';
import type { ToolRef } from '../../src/core/types.js';

const table = (): WordVectors => parseWordVectors(readFileSync(defaultVectorsFile()));
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

describe('sentence-vector sums in WebAssembly', () => {
  it('gives the floats addWords gives, row by row, for short and very long word lists', () => {
    const texts = fixtureTools().map((t) => `${t.tool.name} ${t.tool.description ?? ''}`);
    // One list longer than a batch of row addresses (4,096), so it is summed in several calls.
    const all = texts.join(' ');
    const long = Array.from({ length: Math.ceil(9000 / splitWords(all).length) }, () => all).join(' ');
    const lists = [...texts, long, '', 'zzzq qqqz'].map((t) => splitWords(t));
    expect(lists.at(-3)!.length).toBeGreaterThan(9000);
    const wasm = table();
    const summer = sifSummer(wasm, lists.length);
    expect(summer).toBeDefined();
    const plain = table();
    const matrix = new Float32Array(lists.length * plain.dims);
    lists.forEach((words, i) => {
      expect(summer!.add(words, i), `list ${i}`).toBe(addWords(plain, words, matrix, i * plain.dims));
    });
    expect(bytes(summer!.matrix).equals(bytes(matrix))).toBe(true);
    expect(matrix.some((x) => x !== 0)).toBe(true);
    // Rows are not all the same: a list's sum lands in its own row.
    expect(bytes(matrix.subarray(0, plain.dims)).equals(bytes(matrix.subarray(plain.dims, 2 * plain.dims)))).toBe(
      false,
    );
  });

  it('is not used once weighted rows were filled in ordinary memory (a process that ranked before)', () => {
    const v = table();
    addWords(v, ['calendar'], new Float32Array(v.dims), 0);
    expect(sifSummer(v, 3)).toBeUndefined();
  });

  it('builds the index a build without it builds, byte for byte', () => {
    const tools = fixtureTools();
    const withWasm = table();
    const a = encodeIndexCache(buildDiscoverIndex(tools, { vectors: withWasm }));
    // The build weighted its rows in the module's memory only (the JavaScript sums fill the table's own).
    expect(withWasm.weighted).toBeUndefined();
    const without = table();
    addWords(without, ['calendar'], new Float32Array(without.dims), 0); // weighted rows made first: the JavaScript sums
    const b = encodeIndexCache(buildDiscoverIndex(tools, { vectors: without }));
    expect(without.weighted!.byteLength).toBe(without.weighted!.buffer.byteLength);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });
});
