// Names a server or a file sends are data, never object plumbing: tools and servers named `__proto__`,
// `constructor`, `hasOwnProperty` survive every format we read and write (snapshot, baseline, usage store).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildBaseline, compareBaseline, parseBaseline, serializeBaseline } from '../../src/core/budget/baseline.js';
import { readUsageStore, updateUsageStore } from '../../src/core/session/usage-store.js';
import { runCli } from '../helpers/fake-io.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-proto-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NAMES = ['__proto__', 'constructor', 'hasOwnProperty', 'toString'];
const tool = (name: string, description: string) => ({
  name,
  description,
  inputSchema: JSON.parse(
    '{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"number"}}}',
  ) as object,
});
function snapshot(file: string, grow: number): string {
  const path = join(dir, file);
  // JSON text, not an object literal: `{__proto__: …}` in JS source would set a prototype, not a key.
  const servers = ['__proto__', 'constructor', 'plain'].map((server) => ({
    name: server,
    transport: 'stdio',
    status: 'ok',
    tools: NAMES.map((n) => tool(n, `Does ${n}.${n === '__proto__' ? ' More words.'.repeat(grow) : ''}`)),
  }));
  writeFileSync(path, JSON.stringify({ format: 'mcp-smart/snapshot@1', createdAt: 'x', servers }));
  return path;
}

describe('names that are Object.prototype members', () => {
  const small = snapshot('small.json', 0);
  const grown = snapshot('grown.json', 200);

  it('the baseline keeps every such server and tool, and check sees the __proto__ tool grow', async () => {
    const baseline = join(dir, 'mcp-smart.lock.json');
    const up = await runCli(['--snapshot', small, 'check', '--update', '--baseline', baseline]);
    expect(up.code, up.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(baseline, 'utf8')) as { servers: Record<string, { tools: object }> };
    expect(Object.keys(doc.servers).sort()).toEqual(['__proto__', 'constructor', 'plain']);
    for (const s of Object.values(doc.servers)) expect(Object.keys(s.tools).sort()).toEqual([...NAMES].sort());

    const same = await runCli(['--snapshot', small, 'check', '--baseline', baseline, '--json']);
    expect(same.code, same.stderr).toBe(0);
    expect(JSON.parse(same.stdout).changes).toEqual([]);

    const r = await runCli(['--snapshot', grown, 'check', '--baseline', baseline, '--json']);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { changes: { id: string; kind: string }[] };
    expect(out.changes.map((c) => `${c.id}:${c.kind}`)).toEqual([
      '__proto__.__proto__:changed',
      'constructor.__proto__:changed',
      'plain.__proto__:changed',
    ]);
  });

  it('audit counts every such tool of every such server', async () => {
    const r = await runCli(['--snapshot', small, 'audit', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { servers: { name: string; toolCount: number }[] };
    expect(out.servers.map((s) => [s.name, s.toolCount]).sort()).toEqual([
      ['__proto__', 4],
      ['constructor', 4],
      ['plain', 4],
    ]);
  });

  it('every discover engine and replay rank tools and servers with such names', async () => {
    for (const engine of ['keyword', 'bm25', 'hybrid']) {
      const r = await runCli(['--snapshot', small, 'discover', 'constructor', '--engine', engine, '--json']);
      expect(r.code, `${engine}: ${r.stderr}`).toBe(0);
      const ids = (JSON.parse(r.stdout) as { results: { id: string }[] }).results.map((x) => x.id);
      expect(ids).toContain('constructor.constructor');
    }
    const intents = join(dir, 'intents.jsonl');
    writeFileSync(intents, JSON.stringify({ intent: 'constructor', expected: ['__proto__.constructor'] }) + '\n');
    const r = await runCli(['--snapshot', small, 'replay', intents, '--learn', '--store', join(dir, 'learned.json')]);
    expect(r.code, r.stderr).toBe(0);
    const learned = JSON.parse(readFileSync(join(dir, 'learned.json'), 'utf8')) as { tools: object };
    expect(Object.keys(learned.tools)).toEqual(['__proto__.constructor']);
  });

  it('condense keeps schema properties named __proto__ and constructor', async () => {
    const r = await runCli(['--snapshot', small, 'condense', '--level', 'lossless', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { servers: { tools: { inputSchema: { properties: object } }[] }[] };
    expect(Object.keys(out.servers[0]!.tools[0]!.inputSchema.properties)).toEqual(['__proto__', 'constructor']);
  });

  it('baseline functions: a parsed baseline answers only its own keys', () => {
    const parsed = parseBaseline(
      JSON.parse(
        '{"format":"mcp-smart/baseline@1","encoding":"o200k_base","servers":{"__proto__":{"tokens":5,"tools":{"__proto__":{"tokens":5,"hash":"h"}}}}}',
      ),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const cmp = compareBaseline(
      parsed.value,
      [{ name: 'x', tokens: 3, tools: [{ name: 'constructor', tokens: 3, hash: 'c' }] }],
      {
        thresholds: { maxGrowth: { kind: 'percent', value: 5 } },
      } as never,
    );
    expect(cmp.changes.map((c) => `${c.id}:${c.kind}`)).toEqual(['__proto__.__proto__:removed', 'x.constructor:added']);
    const text = serializeBaseline(
      buildBaseline(
        [{ name: '__proto__', tokens: 1, tools: [{ name: '__proto__', tokens: 1, hash: 'h' }] }] as never,
        'o200k_base',
        {},
      ),
    );
    expect(text).toContain('"__proto__": {');
  });

  it('the usage store keeps sessions and tools with such names through a read-modify-write', async () => {
    const store = join(dir, 'usage.json');
    const tools =
      '{"__proto__":{"success":1,"failure":0,"lastUsed":1,"categories":{}},"constructor":{"success":2,"failure":0,"lastUsed":1,"categories":{}}}';
    writeFileSync(
      store,
      `{"format":"mcp-smart/usage@1","updatedAt":"x","tools":${tools},"sessions":{"__proto__":3,"hasOwnProperty":1}}`,
    );
    const read = await readUsageStore(store, 2);
    expect(Object.keys(read.doc.tools).sort()).toEqual(['__proto__', 'constructor']);
    expect(read.doc.sessions.constructor).toBeUndefined();
    await updateUsageStore(store, (d) => d, { now: 2, memory: { ttlDays: 0 } });
    const doc = JSON.parse(readFileSync(store, 'utf8')) as { tools: object; sessions: object };
    expect(Object.keys(doc.tools).sort()).toEqual(['__proto__', 'constructor']);
    expect(Object.keys(doc.sessions).sort()).toEqual(['__proto__', 'hasOwnProperty']);
  });
});
