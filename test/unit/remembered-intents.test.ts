import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildDiscoverIndex,
  loadWordVectors,
  rankTools,
  toolRefsFromSnapshots,
} from '../../src/core/discover/index.js';
import type { ReplayCase } from '../../src/core/session/cases.js';
import { replayCases } from '../../src/core/session/replay.js';
import { loadUsageStats, updateUsageStore } from '../../src/core/session/usage-store.js';
import {
  MAX_INTENT_CHARS,
  MAX_INTENTS_PER_TOOL,
  capIntents,
  emptyUsage,
  learnFromCases,
  mergeUsage,
  recordCalls,
} from '../../src/core/session/usage.js';
import type { ServerSnapshot, UsageStats } from '../../src/core/types.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const snapshot = JSON.parse(readFileSync(fixture('snapshots', 'replay-demo.json'), 'utf8')) as {
  servers: ServerSnapshot[];
};
const index = buildDiscoverIndex(toolRefsFromSnapshots(snapshot.servers), { vectors: await loadWordVectors() });
const dir = tempDir('mcp-smart-remembered-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const call = (id: string, ok = true) => ({ id, ok, known: true });
const kase = (intent: string, time: number, ids: string[]): ReplayCase => ({
  id: `s#${time}`,
  sessionId: 's',
  file: 'f',
  line: time,
  intent,
  time,
  expected: ids,
  calls: ids.map((id) => call(id)),
  success: true,
});
const rankOf = (intent: string, usage: UsageStats | undefined, id: string): number =>
  rankTools(index, intent, { engine: 'hybrid', k: 100, usage, now: 1000 }).results.findIndex((r) => r.id === id) + 1;

describe('remembered intents', () => {
  it('remembers the intent for each tool that served it, once per text ignoring case, never for a failed call', () => {
    const u = emptyUsage();
    recordCalls(u, [call('m.add'), call('m.add'), call('fs.read', false)], 'other', 10, 'Jot down  that Dana is out');
    recordCalls(u, [call('m.add')], 'other', 20, 'jot down that dana is out');
    recordCalls(u, [call('m.add')], 'other', 5, 'note: Bob likes tea');
    expect(u.intents).toEqual({
      'm.add': [
        { text: 'Jot down that Dana is out', count: 2, last: 20 },
        { text: 'note: Bob likes tea', count: 1, last: 5 },
      ],
    });
    // Without an intent (or with one that has no word) nothing is remembered.
    recordCalls(u, [call('x.y')], 'other', 30);
    recordCalls(u, [call('x.y')], 'other', 30, ' --- ');
    expect(u.intents?.['x.y']).toBeUndefined();
  });

  it('redacts tokens and URL credentials, cuts long intents, and keeps the most used intents per tool', () => {
    const u = emptyUsage();
    recordCalls(
      u,
      [call('t.x')],
      'other',
      1,
      'call https://me:hunter22@api.example.com/x?key=abc with Bearer abcdefgh1234',
    );
    const text = u.intents!['t.x']![0]!.text;
    expect(text).not.toContain('hunter22');
    expect(text).not.toContain('abcdefgh1234');
    expect(text).not.toContain('key=abc');
    recordCalls(u, [call('t.long')], 'other', 1, 'word '.repeat(200));
    expect(u.intents!['t.long']![0]!.text.length).toBeLessThanOrEqual(MAX_INTENT_CHARS);
    // The first intent is used twice; MAX_INTENTS_PER_TOOL more single ones push out the oldest single one.
    recordCalls(u, [call('t.cap')], 'other', 1, 'intent keep');
    recordCalls(u, [call('t.cap')], 'other', 2, 'intent keep');
    for (let i = 0; i < MAX_INTENTS_PER_TOOL; i++) recordCalls(u, [call('t.cap')], 'other', 10 + i, `intent ${i}`);
    const texts = u.intents!['t.cap']!.map((r) => r.text);
    expect(texts).toHaveLength(MAX_INTENTS_PER_TOOL);
    expect(texts).toContain('intent keep');
    expect(texts).not.toContain('intent 0');
    expect(texts).toContain(`intent ${MAX_INTENTS_PER_TOOL - 1}`);
  });

  it('merges counts of the same text, and the store-wide cap keeps the newest intents', () => {
    const a = emptyUsage();
    recordCalls(a, [call('t.x')], 'other', 1, 'open the file');
    const b = emptyUsage();
    recordCalls(b, [call('t.x')], 'other', 9, 'Open the file');
    recordCalls(b, [call('t.y')], 'other', 3, 'list folders');
    const m = mergeUsage(a, b);
    expect(m.intents).toEqual({
      't.x': [{ text: 'open the file', count: 2, last: 9 }],
      't.y': [{ text: 'list folders', count: 1, last: 3 }],
    });
    // The inputs are snapshots: merging changed neither.
    expect(a.intents!['t.x']![0]!.count).toBe(1);
    capIntents(m, 1);
    expect(m.intents).toEqual({ 't.x': [{ text: 'open the file', count: 2, last: 9 }] });
  });

  it('lifts the tool a team called for an intent to the top for that intent, and says which intent matched', () => {
    const intent = 'remember that alice works at acme';
    const target = 'memory.create_entities';
    const before = rankOf(intent, undefined, target);
    // Out of the box it is 3rd (issue 29: the kept clause is not ranked on); what the team called puts it first.
    expect(before).toBeGreaterThan(1);
    const learned = learnFromCases(emptyUsage(), [kase(intent, 1000, [target])], () => 'other', 0);
    expect(rankOf(intent, learned, target)).toBe(1);
    const row = rankTools(index, intent, { engine: 'hybrid', k: 10, usage: learned, now: 1000 }).results.find(
      (r) => r.id === target,
    )!;
    expect(row.remembered).toBe(intent);
    expect(row.reasons?.intents).toBeGreaterThan(1);
    // An unrelated intent is not pulled towards the remembered tool: it ranks it as the counts alone do.
    const other = 'list the files in the src folder';
    expect(rankOf(other, learned, target)).toBe(rankOf(other, { tools: learned.tools }, target));
    // Weight 0 turns the signal off.
    const off = rankTools(index, intent, {
      engine: 'hybrid',
      k: 100,
      usage: learned,
      now: 1000,
      weights: { fusion: { intents: 0 } },
    }).results;
    expect(off.find((r) => r.id === target)?.remembered).toBeUndefined();
  });

  it('replay learns intents as it goes: a repeated phrasing ranks its tool first the second time', () => {
    const intent = 'jot down that Dana is out on Friday';
    const cases = [kase(intent, 1, ['memory.add_observations']), kase(intent, 2, ['memory.add_observations'])];
    const rr: number[] = [];
    const rank = (q: string, usage: UsageStats, now: number) =>
      rankTools(index, q, { engine: 'hybrid', k: 37, usage, now }).results.map((r) => r.id);
    replayCases(cases, {
      engines: [{ engine: 'hybrid', rank }],
      categorize: () => 'other',
      onCase: (_e, r) => rr.push(r),
    });
    expect(rr[0]).toBeLessThan(1);
    expect(rr[1]).toBe(1);
    const counts: number[] = [];
    replayCases(cases, {
      engines: [{ engine: 'hybrid', rank }],
      categorize: () => 'other',
      rememberIntents: false,
      onCase: (_e, r) => counts.push(r),
    });
    expect(counts[1]).toBeLessThan(1);
  });

  it('are written to the store and read back; malformed entries are dropped with a warning', async () => {
    const file = join(dir, 'usage.json');
    const learned = learnFromCases(emptyUsage(), [kase('open the readme', 1000, ['fs.read'])], () => 'other', 0);
    await updateUsageStore(file, (d) => ({ ...d, tools: learned.tools, intents: learned.intents }), { now: 2000 });
    const read = await loadUsageStats(file, 2000);
    expect(read.stats.intents).toEqual({ 'fs.read': [{ text: 'open the readme', count: 1, last: 1000 }] });
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    doc.intents = { 'fs.read': [{ text: 'open the readme', count: 1, last: 1000 }, { text: 3 }], 'x.y': 'no' };
    writeFileSync(file, JSON.stringify(doc));
    const again = await loadUsageStats(file, 2000);
    expect(again.stats.intents).toEqual({ 'fs.read': [{ text: 'open the readme', count: 1, last: 1000 }] });
    expect(again.warnings).toEqual([`usage store ${file}: ignored 2 malformed remembered intents`]);
  });
});
