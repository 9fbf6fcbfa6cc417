// A big catalogue's fresh index build runs its one pass on two threads (app/services/index-workers.ts): the main
// thread's ranges from the front, a worker thread's from the back, joined in tool order. The index must be the
// one-thread build's byte for byte (its cache bytes), and a worker that fails must leave its ranges to the main
// thread, not hang. The worker runs from dist/ (a worker cannot load the .ts sources): `npm run build` first.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SPLIT_MIN_TOOLS, splitOnePass, type SplitOptions } from '../../src/app/services/index-workers.js';
import { Bm25Collector } from '../../src/core/discover/bm25-collect.js';
import { buildDiscoverIndex, encodeIndexCache, toolRefsFromSnapshots } from '../../src/core/discover/build.js';
import { loadShippedWordVectors } from '../../src/core/discover/vectors.js';
import type { ServerSnapshot, ToolRef } from '../../src/core/types.js';

const WORKER = resolve('dist', 'app', 'services', 'index-worker.js');
const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-index-workers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fixtureTools(): ToolRef[] {
  const read = (f: string): ServerSnapshot[] =>
    (JSON.parse(readFileSync(join('fixtures', 'snapshots', f), 'utf8')) as { servers: ServerSnapshot[] }).servers;
  const servers = [...read('many-tools.json'), ...read('discover-tools.json')];
  // Copies under other server names, with instructions on some: ~10 ranges, terms first seen in later ranges.
  const copies = Array.from({ length: 40 }, (_, k) =>
    servers.map((s) => ({
      ...s,
      name: `${s.name}-${k}`,
      ...(k % 3 === 0 ? { instructions: `Copy ${k} of Acme's ${s.name}; use it for word${k}x tasks.` } : {}),
      tools: s.tools.map((t) => ({ ...t, description: `${t.description ?? ''} variant${k}` })),
    })),
  );
  return toolRefsFromSnapshots([...servers, ...copies.flat()]);
}

async function bothBuilds(opts: SplitOptions): Promise<{ one: Uint8Array; split: Uint8Array; workerRanges: number }> {
  const tools = fixtureTools();
  const vectors = (await loadShippedWordVectors())!;
  const one = encodeIndexCache(buildDiscoverIndex(tools, { vectors }));
  let workerRanges = -1;
  const vectors2 = (await loadShippedWordVectors())!;
  const onePass = splitOnePass({
    minTools: 0,
    workerFile: WORKER,
    ...opts,
    report: (r) => (workerRanges = r.workerRanges),
  });
  const split = encodeIndexCache(buildDiscoverIndex(tools, { vectors: vectors2, onePass }));
  return { one, split, workerRanges };
}

describe('the one pass on two threads', () => {
  it('builds the index of the one-thread build, byte for byte, with ranges built by the worker', async () => {
    const { one, split, workerRanges } = await bothBuilds({ workerFirst: true });
    expect(fixtureTools().length).toBeGreaterThan(2000);
    expect(workerRanges).toBeGreaterThan(0);
    expect(Buffer.from(split).equals(Buffer.from(one))).toBe(true);
  });

  it('builds the worker’s ranges on the main thread when the worker fails, or stops answering', async () => {
    // A worker that claims the last range and throws; one that claims it and never answers.
    const throws = join(dir, 'throws.mjs');
    writeFileSync(
      throws,
      "import { workerData } from 'node:worker_threads';\n" +
        'Atomics.add(new Int32Array(workerData.control), 0, 1);\nthrow new Error("boom");\n',
    );
    const hangs = join(dir, 'hangs.mjs');
    writeFileSync(
      hangs,
      "import { workerData } from 'node:worker_threads';\n" +
        'const c = new Int32Array(workerData.control);\nAtomics.add(c, 0, 1);\nAtomics.wait(c, 3, 0);\n',
    );
    for (const workerFile of [throws, hangs]) {
      let report = { workerRanges: -1, failed: false };
      const tools = fixtureTools();
      const vectors = (await loadShippedWordVectors())!;
      const onePass = splitOnePass({
        minTools: 0,
        workerFile,
        workerFirst: true,
        patienceMs: 300,
        report: (r) => (report = r),
      });
      const split = encodeIndexCache(buildDiscoverIndex(tools, { vectors, onePass }));
      const one = encodeIndexCache(buildDiscoverIndex(tools, { vectors: (await loadShippedWordVectors())! }));
      expect(report).toEqual({ workerRanges: 0, failed: true });
      expect(Buffer.from(split).equals(Buffer.from(one))).toBe(true);
    }
  });

  it('stays on one thread below its threshold', async () => {
    let reported = false;
    const tools = fixtureTools();
    const onePass = splitOnePass({ workerFile: WORKER, report: () => (reported = true) });
    buildDiscoverIndex(tools, { vectors: (await loadShippedWordVectors())!, onePass });
    expect(tools.length).toBeLessThan(SPLIT_MIN_TOOLS);
    expect(reported).toBe(false);
  });
});

describe('a collector joined from parts', () => {
  it('numbers the terms as one collector fed every document would', () => {
    const docs = [
      { name: ['a', 'b'], description: ['c'], params: [], server: ['s'] },
      { name: ['d'], description: ['a', 'e'], params: ['b'], server: ['s'] },
      { name: ['e', 'f'], description: [], params: ['g', 'd'], server: ['t'] },
      { name: ['h'], description: ['f', 'a'], params: [], server: ['t'] },
    ];
    const params = { k1: 1.2, b: 0.75, fields: { name: 3, description: 1, params: 1, server: 0.5 } };
    const whole = new Bm25Collector();
    for (const d of docs) whole.add(d);
    const head = new Bm25Collector(2);
    head.add(docs[0]!);
    const tail = new Bm25Collector(2);
    for (const d of docs.slice(1)) tail.add(d);
    head.append(tail.cut());
    const joined = head.finish(params);
    const expected = whole.finish(params);
    expect([...joined.postings.keys()]).toEqual([...expected.postings.keys()]);
    expect(joined).toEqual(expected);

    // As a worker sends them: ranges built from the back on one collector, each cut with the terms it numbered first.
    const worker = new Bm25Collector(2);
    worker.add(docs[2]!);
    worker.add(docs[3]!);
    const back = worker.cut();
    worker.add(docs[1]!);
    const front = worker.cut();
    expect([back.firstTerm, front.firstTerm]).toEqual([0, back.terms.length]);
    const main = new Bm25Collector(2);
    main.add(docs[0]!);
    const terms = [...back.terms, ...front.terms];
    const remap = new Int32Array(terms.length).fill(-1);
    main.append(front, terms, remap);
    main.append(back, terms, remap);
    const fromRanges = main.finish(params);
    expect([...fromRanges.postings.keys()]).toEqual([...expected.postings.keys()]);
    expect(fromRanges).toEqual(expected);
  });
});
