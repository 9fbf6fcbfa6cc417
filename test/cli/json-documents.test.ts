// Every command's JSON document (--json) against ../shared/CONTRACT.md: the keys CONTRACT lists appear, in its
// order, and the whole key list is pinned so that a renamed, dropped or reordered key fails here. Inputs are the
// fixture snapshots, so the documents (and their counts) are the same on every machine.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

let dir: string;
beforeAll(async () => {
  dir = tempDir('mcp-smart-json-docs-');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Doc = Record<string, unknown>;
const snap = (name: string): string => fixture('snapshots', name);
async function doc(argv: string[], code: number): Promise<Doc> {
  const r = await runCli(argv, { cwd: dir });
  expect(r.code).toBe(code);
  return JSON.parse(r.stdout) as Doc;
}
const keys = (v: unknown): string[] => Object.keys(v as object);
const first = (v: unknown): unknown => (v as unknown[])[0];
/** CONTRACT's keys, in CONTRACT's order, among the document's keys (added fields may sit between them). */
function expectContractKeys(actual: string[], contract: string[]): void {
  expect(actual.filter((k) => contract.includes(k))).toEqual(contract);
}

describe('JSON documents match CONTRACT', () => {
  it('servers: {servers: [{name, transport, source, enabled}]}', async () => {
    const d = await doc(['--config', fixture('configs', 'project-all', 'mcp-settings.json'), 'servers', '--json'], 0);
    expect(keys(d)).toEqual(['schemaVersion', 'command', 'servers', 'shadowings', 'searched']);
    expect(d.schemaVersion).toBe(1);
    expect(d.command).toBe('servers');
    expectContractKeys(keys(first(d.servers)), ['name', 'transport', 'source', 'enabled']);
    expect(keys(first(d.servers))).toEqual(['name', 'transport', 'source', 'enabled', 'scope']);
  });

  it('dump -o: {schemaVersion, command: "dump", output, servers}', async () => {
    const d = await doc(['--snapshot', snap('check-base.json'), 'dump', '-o', join(dir, 'out.json'), '--json'], 0);
    // CONTRACT lists output before servers; the document has always written servers first (kept as it is).
    expect([...keys(d)].sort()).toEqual(['command', 'output', 'schemaVersion', 'servers']);
    expect(keys(d)).toEqual(['schemaVersion', 'command', 'servers', 'output']);
    expect(d.command).toBe('dump');
    expect(keys(first(d.servers))).toEqual(['name', 'status', 'toolCount']);
  });

  it('audit: {encoding, servers, totals, findings}', async () => {
    const d = await doc(['--snapshot', snap('audit-findings.json'), 'audit', '--json'], 0);
    expectContractKeys(keys(d), ['schemaVersion', 'command', 'encoding', 'servers', 'totals', 'findings']);
    expect(keys(d)).toEqual([
      'schemaVersion',
      'command',
      'encoding',
      'render',
      'window',
      'servers',
      'totals',
      'findings',
    ]);
    expectContractKeys(keys(first(d.servers)), ['name', 'status', 'toolCount', 'tokens', 'tools']);
    const server = first(d.servers) as Doc;
    expect(keys(server.tokens)).toEqual(['full', 'lossless', 'compact', 'minimal']);
    expect(keys(first(server.tools))).toEqual(['id', 'name', 'tokens']);
    const totals = d.totals as Doc;
    expectContractKeys(keys(totals), ['toolCount', 'tokens']);
    expect(keys(totals.tokens)).toEqual(['full', 'lossless', 'compact', 'minimal', 'meta']);
    expectContractKeys(keys(first(d.findings)), ['code', 'severity', 'server', 'message']);
  });

  it('condense: {level, encoding, before: {tokens}, after: {tokens}, servers: [{name, tools}]}', async () => {
    const d = await doc(['--snapshot', snap('check-base.json'), 'condense', '--json'], 0);
    expect(keys(d)).toEqual(['schemaVersion', 'command', 'level', 'encoding', 'render', 'before', 'after', 'servers']);
    expect(keys(d.before)).toEqual(['tokens']);
    expect(keys(d.after)).toEqual(['tokens']);
    expectContractKeys(keys(first(d.servers)), ['name', 'tools']);
  });

  it('discover: {intent, engine, k, fallback, results: [{rank, id, server, tool, score, reasons?}]}', async () => {
    const d = await doc(['--snapshot', snap('discover-ok.json'), 'discover', 'read a file', '--explain', '--json'], 0);
    expect(keys(d)).toEqual(['schemaVersion', 'command', 'intent', 'engine', 'k', 'fallback', 'results']);
    expectContractKeys(keys(first(d.results)), ['rank', 'id', 'server', 'tool', 'score', 'reasons']);
  });

  it('budget: {max, limit, used, fits, servers: [{name, tokens}], plan: [{action, target, tokensSaved}]}', async () => {
    const d = await doc(['--snapshot', snap('check-base.json'), 'budget', '--max', '2000', '--json'], 1);
    expectContractKeys(keys(d), ['schemaVersion', 'command', 'max', 'limit', 'used', 'fits', 'servers', 'plan']);
    expect(keys(d).slice(0, 8)).toEqual([
      'schemaVersion',
      'command',
      'max',
      'limit',
      'used',
      'fits',
      'servers',
      'plan',
    ]);
    expectContractKeys(keys(first(d.servers)), ['name', 'tokens']);
    expectContractKeys(keys(first(d.plan)), ['action', 'target', 'tokensSaved']);
  });

  it('check: {baseline, passed, totals: {before, after, delta}, changes: [{id, kind, before, after, delta}]}', async () => {
    const baseline = join(dir, 'check.lock.json');
    await doc(['--snapshot', snap('check-base.json'), 'check', '--baseline', baseline, '--update', '--json'], 0);
    const d = await doc(['--snapshot', snap('check-grown.json'), 'check', '--baseline', baseline, '--json'], 1);
    expect(keys(d).slice(0, 6)).toEqual(['schemaVersion', 'command', 'baseline', 'passed', 'totals', 'changes']);
    expect(keys(d.totals)).toEqual(['before', 'after', 'delta']);
    expectContractKeys(keys(first(d.changes)), ['id', 'kind', 'before', 'after', 'delta']);
  });

  it('replay: {cases, engines: [{engine, recallAt: {"1", "3", "5"}, mrr}]}', async () => {
    const recordings = fixture('sessions', 'intents', 'labelled.jsonl');
    const d = await doc(['--snapshot', snap('replay-demo.json'), 'replay', recordings, '--json'], 0);
    expect(keys(d).slice(0, 4)).toEqual(['schemaVersion', 'command', 'cases', 'engines']);
    const engine = first(d.engines) as Doc;
    expectContractKeys(keys(engine), ['engine', 'recallAt', 'mrr']);
    expect(keys(engine.recallAt)).toEqual(['1', '3', '5']);
  });

  it('errors: {schemaVersion: 1, error: {code, message}}', async () => {
    const d = await doc(['--snapshot', join(dir, 'missing.json'), 'audit', '--json'], 2);
    expect(keys(d)).toEqual(['schemaVersion', 'error']);
    expect(keys(d.error)).toEqual(['code', 'message']);
  });
});
