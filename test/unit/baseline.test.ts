import { describe, expect, it } from 'vitest';
import {
  buildBaseline,
  canonicalJson,
  compareBaseline,
  hashTool,
  measureServers,
  parseBaseline,
  parseGrowthLimit,
  serializeBaseline,
  allowedGrowth,
} from '../../src/core/budget/index.js';
import type { ServerSnapshot } from '../../src/core/types.js';

const count = (t: object): number => JSON.stringify(t).length;
const snap = (
  name: string,
  tools: { name: string; description: string }[],
  status: 'ok' | 'error' = 'ok',
): ServerSnapshot => ({
  name,
  transport: 'stdio',
  status,
  tools,
});

describe('thresholds', () => {
  it('parses percentages and token counts', () => {
    expect(parseGrowthLimit('5%')).toEqual({ kind: 'percent', value: 5 });
    expect(parseGrowthLimit('2.5 %')).toEqual({ kind: 'percent', value: 2.5 });
    expect(parseGrowthLimit('500')).toEqual({ kind: 'tokens', value: 500 });
    expect(parseGrowthLimit(40)).toEqual({ kind: 'tokens', value: 40 });
    expect(parseGrowthLimit('five')).toBeUndefined();
    expect(parseGrowthLimit('-3')).toBeUndefined();
    expect(allowedGrowth({ kind: 'percent', value: 5 }, 1000)).toBe(50);
  });
});

describe('baseline', () => {
  it('hashes the canonical JSON, independent of key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 1 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"e":1,"f":2}]},"b":1}',
    );
    expect(hashTool({ name: 'x', description: 'y' })).toBe(hashTool({ description: 'y', name: 'x' }));
    expect(hashTool({ name: 'x', description: 'y' })).not.toBe(hashTool({ name: 'x', description: 'z' }));
    expect(hashTool({ name: 'x' })).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('serialises with sorted keys, no timestamp, and round-trips', () => {
    const measured = measureServers(
      [
        snap('zeta', [
          { name: 'b', description: 'x' },
          { name: 'a', description: 'y' },
        ]),
      ],
      count,
    );
    const text = serializeBaseline(buildBaseline(measured, 'o200k_base', { maxGrowth: '5%' }));
    expect(text).toBe(serializeBaseline(buildBaseline(measured, 'o200k_base', { maxGrowth: '5%' })));
    expect(Object.keys(JSON.parse(text) as object)).toEqual(['encoding', 'format', 'servers', 'thresholds']);
    expect(text).not.toMatch(/createdAt/);
    const parsed = parseBaseline(JSON.parse(text));
    expect(parsed.ok && parsed.value.servers.zeta?.tokens).toBe(60);
  });

  it('rejects a malformed baseline with the key path', () => {
    expect(
      parseBaseline({
        format: 'mcp-smart/baseline@1',
        encoding: 'o200k_base',
        servers: { s: { tokens: 1, tools: { t: { tokens: 'x' } } } },
      }),
    ).toEqual({
      ok: false,
      path: 'servers.s.tools.t',
      reason: 'expected {tokens: number, hash: string}',
    });
    expect(parseBaseline({ format: 'x' })).toMatchObject({ ok: false, path: 'format' });
  });

  it('rejects hand-edited figures no run could write: 1e308 or negative tokens, a max of -1, a negative growth', () => {
    const doc = (servers: unknown, thresholds?: unknown): unknown => ({
      format: 'mcp-smart/baseline@1',
      encoding: 'o200k_base',
      servers,
      ...(thresholds !== undefined ? { thresholds } : {}),
    });
    const ok = { s: { tokens: 5, tools: { t: { tokens: 5, hash: 'h' } } } };
    expect(parseBaseline(doc({ s: { tokens: 1e308, tools: {} } }))).toMatchObject({
      ok: false,
      path: 'servers.s.tokens',
    });
    expect(parseBaseline(doc({ s: { tokens: 5, tools: { t: { tokens: 1e308, hash: 'h' } } } }))).toMatchObject({
      ok: false,
      path: 'servers.s.tools.t.tokens',
    });
    expect(parseBaseline(doc({ s: { tokens: 5, tools: { t: { tokens: -3, hash: 'h' } } } }))).toMatchObject({
      ok: false,
      path: 'servers.s.tools.t.tokens',
    });
    expect(parseBaseline(doc({ s: { tokens: 2.5, tools: {} } }))).toMatchObject({
      ok: false,
      path: 'servers.s.tokens',
    });
    expect(parseBaseline(doc(ok, { max: -1 }))).toMatchObject({ ok: false, path: 'thresholds.max' });
    expect(parseBaseline(doc(ok, { max: 0 }))).toMatchObject({ ok: false, path: 'thresholds.max' });
    expect(parseBaseline(doc(ok, { maxGrowth: '-5%' }))).toMatchObject({ ok: false, path: 'thresholds.maxGrowth' });
    expect(parseBaseline(doc(ok, { minRecall: 2 }))).toMatchObject({ ok: false, path: 'thresholds.minRecall' });
    expect(parseBaseline(doc(ok, { max: 1000, maxGrowth: '5%', minRecall: 0.8 }))).toMatchObject({ ok: true });
  });

  const base = buildBaseline(
    measureServers(
      [
        snap('fs', [
          { name: 'read', description: 'r'.repeat(100) },
          { name: 'write', description: 'w'.repeat(100) },
        ]),
        snap('mem', [{ name: 'get', description: 'g' }]),
      ],
      count,
    ),
    'o200k_base',
    {},
  );

  it('passes an unchanged run and a shrinking one', () => {
    const same = measureServers(
      [
        snap('fs', [
          { name: 'read', description: 'r'.repeat(100) },
          { name: 'write', description: 'w'.repeat(100) },
        ]),
        snap('mem', [{ name: 'get', description: 'g' }]),
      ],
      count,
    );
    const r = compareBaseline(base, same, { thresholds: { maxGrowth: { kind: 'percent', value: 5 } } });
    expect(r).toMatchObject({ passed: true, totals: { before: 297, after: 297, delta: 0 }, changes: [] });
    const shrunk = measureServers(
      [
        snap('fs', [
          { name: 'read', description: 'r' },
          { name: 'write', description: 'w'.repeat(100) },
        ]),
        snap('mem', [{ name: 'get', description: 'g' }]),
      ],
      count,
    );
    const s = compareBaseline(base, shrunk, { thresholds: { maxGrowth: { kind: 'percent', value: 5 } } });
    expect(s.passed).toBe(true);
    expect(s.changes).toEqual([
      {
        id: 'fs.read',
        kind: 'changed',
        before: 132,
        after: 33,
        delta: -99,
        server: 'fs',
        tool: 'read',
        hashChanged: true,
      },
    ]);
  });

  it('fails on growth beyond the limit, lists added/removed/changed, and names the largest growth', () => {
    const grown = measureServers(
      [
        snap('fs', [
          { name: 'read', description: 'r'.repeat(130) },
          { name: 'edit', description: 'e' },
        ]),
        snap('mem', [{ name: 'get', description: 'g' }]),
      ],
      count,
    );
    const r = compareBaseline(base, grown, { thresholds: { maxGrowth: { kind: 'percent', value: 5 } } });
    expect(r.changes.map((c) => [c.id, c.kind, c.delta])).toEqual([
      ['fs.edit', 'added', 33],
      ['fs.read', 'changed', 30],
      ['fs.write', 'removed', -133],
    ]);
    expect(r.passed).toBe(true);
    const tight = compareBaseline(
      base,
      measureServers(
        [
          snap('fs', [
            { name: 'read', description: 'r'.repeat(130) },
            { name: 'write', description: 'w'.repeat(100) },
          ]),
          snap('mem', [{ name: 'get', description: 'g' }]),
        ],
        count,
      ),
      {
        thresholds: { maxGrowth: { kind: 'percent', value: 5 } },
      },
    );
    expect(tight.passed).toBe(false);
    expect(tight.failures).toEqual([
      { code: 'TOTAL_GROWTH', before: 297, after: 327, delta: 30, allowed: 14.85, limit: '5%' },
    ]);
    expect(tight.grown.map((c) => c.id)).toEqual(['fs.read']);
    const byMax = compareBaseline(base, grown, {
      thresholds: { maxGrowth: { kind: 'tokens', value: 1000 }, max: 200 },
    });
    expect(byMax.failures).toEqual([{ code: 'OVER_MAX', after: 227, max: 200 }]);
  });

  it('leaves unreachable servers and unselected servers out of both sides', () => {
    const onlyFs = measureServers(
      [
        snap('fs', [
          { name: 'read', description: 'r'.repeat(100) },
          { name: 'write', description: 'w'.repeat(100) },
        ]),
      ],
      count,
    );
    const r = compareBaseline(base, onlyFs, {
      thresholds: { maxGrowth: { kind: 'tokens', value: 0 } },
      unavailable: ['mem'],
    });
    expect(r.passed).toBe(true);
    expect(r.changes).toEqual([]);
    expect(r.servers.find((s) => s.name === 'mem')?.status).toBe('unavailable');
    const sel = compareBaseline(base, onlyFs, {
      thresholds: { maxGrowth: { kind: 'tokens', value: 0 } },
      only: ['fs'],
    });
    expect(sel.totals).toEqual({ before: 265, after: 265, delta: 0 });
  });
});

describe('baseline: a name listed twice beside a tool really named "<name>#2"', () => {
  const tools = (second: string): ServerSnapshot[] => [
    snap('s', [
      { name: 'dup', description: 'first' },
      { name: 'dup', description: second },
      { name: 'dup#2', description: 'a real tool literally named dup#2' },
    ]),
  ];

  it('keeps every tool in the lock, with the same keys on every run, and fails when the second one grows', () => {
    const measured = measureServers(tools('second'), count);
    const base = buildBaseline(measured, 'o200k_base', {});
    const s = base.servers.s!;
    expect(Object.keys(s.tools).sort()).toEqual(['dup', 'dup#2', 'dup#3']);
    expect(Object.values(s.tools).reduce((n, t) => n + t.tokens, 0)).toBe(s.tokens);
    expect(s.tools['dup#2']!.tokens).toBe(measured[0]!.tools[2]!.tokens);
    expect(buildBaseline(measured, 'o200k_base', {})).toEqual(base);
    const same = compareBaseline(base, measured, { thresholds: { maxGrowth: { kind: 'tokens', value: 0 } } });
    expect(same).toMatchObject({ passed: true, changes: [] });
    const grown = compareBaseline(base, measureServers(tools('second '.repeat(50)), count), {
      thresholds: { maxGrowth: { kind: 'percent', value: 5 } },
    });
    expect(grown.passed).toBe(false);
    expect(grown.changes.map((c) => [c.id, c.kind])).toEqual([['s.dup#3', 'changed']]);
  });

  it('names without such a collision keep the keys earlier lock files hold: dup, dup#2, dup#3', () => {
    const base = buildBaseline(
      measureServers(
        [
          snap(
            's',
            ['a', 'b', 'c'].map((d) => ({ name: 'dup', description: d })),
          ),
        ],
        count,
      ),
      'o200k_base',
      {},
    );
    expect(Object.keys(base.servers.s!.tools)).toEqual(['dup', 'dup#2', 'dup#3']);
  });
});
