// readMessage against the SDK's own deserializeMessage (JSONRPCMessageSchema.parse): on every line both give the
// same verdict, and when they accept it the same object, key order and -0 included; the common shapes take the
// plain path (no zod), and everything the plain check is unsure of goes to the SDK and gets its exact error.
import { describe, expect, it } from 'vitest';
import { deserializeMessage as clientDeserialize } from '@modelcontextprotocol/client';
import { deserializeMessage as serverDeserialize } from '@modelcontextprotocol/server';
import { plainMessage, readMessage } from '../../src/core/wire/jsonrpc-message.js';

/** A value with every object's keys in order and -0 kept apart from 0 (toEqual ignores both). */
function ordered(v: unknown): unknown {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0 (number)' : v;
  if (Array.isArray(v)) return v.map(ordered);
  if (typeof v === 'object' && v !== null) return Object.entries(v).map(([k, x]) => [k, ordered(x)]);
  return v;
}

type Verdict = { ok: true; value: unknown } | { ok: false; error: string };

function verdict(read: () => unknown): Verdict {
  try {
    return { ok: true, value: ordered(read()) };
  } catch (e) {
    return { ok: false, error: `${(e as Error).constructor.name}: ${(e as Error).message}` };
  }
}

const line = (m: unknown): string => (typeof m === 'string' ? m : JSON.stringify(m));

/** Messages the SDKs send every call: the plain path must take them. */
const COMMON: unknown[] = [
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } },
  { jsonrpc: '2.0', id: 'a-1', method: 'tools/list' },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 3, progress: 1, total: 2 } },
  { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 4, reason: 'gone' } },
  '{"result":{"content":[{"type":"text","text":"hi"}]},"jsonrpc":"2.0","id":2}', // SDK v1 / v2 servers' key order
  { jsonrpc: '2.0', id: 7, result: {} },
  { jsonrpc: '2.0', id: 7, result: { _meta: { a: 1 }, content: [], isError: true } },
  { jsonrpc: '2.0', id: 8, error: { code: -32601, message: 'Method not found' } },
  { jsonrpc: '2.0', id: 8, error: { code: -32602, message: 'bad', data: { why: ['x'] } } },
  { jsonrpc: '2.0', id: 8, error: { code: -32602, message: 'bad', data: null } },
  { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } },
  // 2026-07-28: everything in the request's _meta.
  {
    jsonrpc: '2.0',
    id: 9,
    method: 'tools/call',
    params: {
      name: 'echo',
      arguments: {},
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        progressToken: 'p',
      },
    },
  },
  { jsonrpc: '2.0', id: 9, result: { resultType: 'complete', content: [], _meta: { x: 1 } } },
  // Key orders the schema changes: the plain path rebuilds them in its order.
  '{"id":1,"method":"x","jsonrpc":"2.0","params":{"a":1}}',
  '{"params":{"b":2,"_meta":{"z":1,"progressToken":5},"a":1},"method":"x","id":"q","jsonrpc":"2.0"}',
  '{"jsonrpc":"2.0","id":1,"result":{"b":1,"_meta":{"x":1},"a":2}}',
  '{"jsonrpc":"2.0","id":1,"error":{"message":"m","extra":{"y":1},"code":1}}',
  '{"jsonrpc":"2.0","id":1,"method":"x","params":{"1":2,"a":1,"_meta":{}}}',
  // Ids at the schema's edges.
  { jsonrpc: '2.0', id: 9007199254740991, method: 'x' },
  { jsonrpc: '2.0', id: -9007199254740991, method: 'x' },
  '{"jsonrpc":"2.0","id":-0,"method":"x"}',
  '{"jsonrpc":"2.0","id":1E2,"method":"x"}',
  '{"jsonrpc":"2.0","id":1.0,"method":"x"}',
  { jsonrpc: '2.0', id: '', method: '' },
];

/** Lines the schema refuses or rewrites in ways the plain check leaves to it. */
const OTHERS: unknown[] = [
  'not json',
  '',
  '{"jsonrpc":"2.0","id":1,"method":"x"',
  'null',
  '[]',
  '[{"jsonrpc":"2.0","id":1,"method":"x"}]',
  '"2.0"',
  '42',
  {},
  { id: 1, method: 'x' }, // missing jsonrpc
  { jsonrpc: '2.0' },
  { jsonrpc: '1.0', id: 1, method: 'x' },
  { jsonrpc: 2, id: 1, method: 'x' },
  { jsonrpc: '2.0', id: null, method: 'x' },
  { jsonrpc: '2.0', id: 1.5, method: 'x' },
  { jsonrpc: '2.0', id: true, method: 'x' },
  { jsonrpc: '2.0', id: {}, method: 'x' },
  '{"jsonrpc":"2.0","id":9007199254740992,"method":"x"}',
  '{"jsonrpc":"2.0","id":1e400,"method":"x"}',
  '{"jsonrpc":"2.0","id":5e-324,"method":"x"}',
  { jsonrpc: '2.0', id: 1, method: 7 },
  { jsonrpc: '2.0', id: 1, method: null },
  { jsonrpc: '2.0', id: 1, method: 'x', params: [1, 2] },
  { jsonrpc: '2.0', id: 1, method: 'x', params: null },
  { jsonrpc: '2.0', id: 1, method: 'x', params: 'p' },
  { jsonrpc: '2.0', method: 'x', params: [] },
  { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: null } },
  { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: [] } },
  { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { progressToken: 1.5 } } },
  { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { progressToken: null } } },
  { jsonrpc: '2.0', method: 'x', params: { _meta: { progressToken: {} } } },
  // Rewritten by the schema: a related-task entry loses unknown keys; a bad serverInfo becomes undefined.
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'x',
    params: { _meta: { 'io.modelcontextprotocol/related-task': { taskId: 'a', x: 2 } } },
  },
  { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { 'io.modelcontextprotocol/related-task': 5 } } },
  { jsonrpc: '2.0', id: 1, result: { _meta: { 'io.modelcontextprotocol/serverInfo': 5 } } },
  {
    jsonrpc: '2.0',
    id: 1,
    result: { _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'a', version: '1', x: 2 } } },
  },
  '{"jsonrpc":"2.0","id":1,"method":"x","__proto__":{"a":1}}',
  '{"jsonrpc":"2.0","id":1,"method":"x","params":{"__proto__":{"a":1}}}',
  '{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"__proto__":{"a":1}}}}',
  '{"jsonrpc":"2.0","id":1,"result":{"__proto__":{"a":1}}}',
  '{"jsonrpc":"2.0","id":1,"result":{"_meta":{"__proto__":1}}}',
  { jsonrpc: '2.0', method: 'x', extra: 1 },
  { jsonrpc: '2.0', id: 1, method: 'x', result: {} },
  { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'm' } },
  { jsonrpc: '2.0', result: {} }, // a result without an id
  { jsonrpc: '2.0', id: 1, result: null },
  { jsonrpc: '2.0', id: 1, result: [] },
  { jsonrpc: '2.0', id: 1, result: 'done' },
  { jsonrpc: '2.0', id: 1, result: { _meta: 'm' } },
  { jsonrpc: '2.0', id: 1, error: { message: 'no code' } },
  { jsonrpc: '2.0', id: 1, error: { code: 1 } },
  { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'm' } },
  { jsonrpc: '2.0', id: 1, error: { code: '1', message: 'm' } },
  { jsonrpc: '2.0', id: 1, error: { code: 1, message: 2 } },
  { jsonrpc: '2.0', id: 1, error: null },
  { jsonrpc: '2.0', id: 1, error: [] },
  { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
];

const SDKS = [
  ['@modelcontextprotocol/client', clientDeserialize],
  ['@modelcontextprotocol/server', serverDeserialize],
] as const;

describe.each(SDKS)('readMessage against %s deserializeMessage', (_, deserialize) => {
  it.each(COMMON.map((m) => [line(m)]))('takes the plain path and gives the same message: %s', (text) => {
    expect(plainMessage(JSON.parse(text))).toBeDefined();
    const expected = verdict(() => deserialize(text));
    expect(expected.ok).toBe(true);
    expect(verdict(() => readMessage(text, deserialize))).toEqual(expected);
  });

  it.each(OTHERS.map((m) => [line(m)]))('leaves it to the SDK, same verdict: %s', (text) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    expect(plainMessage(parsed)).toBeUndefined();
    expect(verdict(() => readMessage(text, deserialize))).toEqual(verdict(() => deserialize(text)));
  });
});

/** A seeded generator (mulberry32): the same random messages on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('readMessage on random messages', () => {
  const next = random(27);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const ids = [1, 0, -3, 'a', '', 7, 'b-2', null, 1.5, true, 2 ** 53, -(2 ** 53 - 1), {}, []];
  const metas = [
    {},
    { progressToken: 1 },
    { progressToken: 'p', z: 1 },
    { z: 1, progressToken: 2 },
    { progressToken: 0.5 },
    { progressToken: null },
    { 'io.modelcontextprotocol/related-task': { taskId: 't' } },
    { 'io.modelcontextprotocol/serverInfo': { name: 'n', version: '1' } },
    { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', other: [1] },
    null,
    [],
    'm',
  ];
  const loose = (): unknown => {
    const shape = pick([0, 1, 2, 3, 4, 5, 6, 7]);
    if (shape === 0) return pick([null, [], 'x', 3]);
    const o: Record<string, unknown> = {};
    const keys = ['a', '_meta', 'b', '7'].filter(() => next() < 0.6).sort(() => next() - 0.5);
    for (const k of keys) o[k] = k === '_meta' ? pick(metas) : pick([1, 'v', null, { deep: { x: [1] } }]);
    return o;
  };
  const errors = (): unknown =>
    pick([
      { code: 1, message: 'm' },
      { message: 'm', code: -32000, data: { x: 1 } },
      { code: 1, message: 'm', extra: true },
      { code: 1.5, message: 'm' },
      { code: 1 },
      { message: 'm' },
      null,
      [],
    ]);
  /** Mostly one of the four kinds with valid-looking parts; now and then a key missing, doubled or extra. */
  const message = (): unknown => {
    const body: [string, () => unknown][] = pick([
      [
        ['method', () => pick(['tools/call', 'x', '', 'x', 1, null])],
        ['params', loose],
      ],
      [['method', () => pick(['notifications/progress', 'y'])]],
      [['result', loose]],
      [['error', errors]],
    ] as [string, () => unknown][][]);
    const parts: [string, () => unknown][] = [
      ['jsonrpc', () => pick(['2.0', '2.0', '2.0', '2.0', '1.0', 2, null])],
      ['id', () => pick(ids)],
      ...body,
    ];
    const extras: [string, () => unknown][] = [
      ['params', loose],
      ['result', loose],
      ['error', errors],
      ['other', () => 1],
    ];
    const chosen = parts.filter(([k]) => next() < (k === 'id' ? 0.75 : k === 'params' ? 0.7 : 0.97));
    if (next() < 0.1) chosen.push(pick(extras));
    chosen.sort(() => next() - 0.5);
    return Object.fromEntries(chosen.map(([k, v]) => [k, v()]));
  };

  it('5,000 random messages: the same verdict as the SDK on every one, and a good share on the plain path', () => {
    let plain = 0;
    let accepted = 0;
    for (let i = 0; i < 5000; i++) {
      const text = JSON.stringify(message());
      const expected = verdict(() => serverDeserialize(text));
      expect(
        verdict(() => readMessage(text, serverDeserialize)),
        text,
      ).toEqual(expected);
      if (expected.ok) accepted++;
      if (plainMessage(JSON.parse(text)) !== undefined) plain++;
    }
    // The generator makes both kinds, and the plain path takes most of what the SDK accepts.
    expect(accepted).toBeGreaterThan(500);
    expect(accepted).toBeLessThan(4500);
    expect(plain).toBeGreaterThan(accepted / 2);
  });
});
