// serve's Learner: a find labels each tool it returned once, however often the tool is then called; the cases
// kept in memory are bounded; what is learned reaches the store (a real file) at shutdown even after a stop signal.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyUsage } from '../../src/core/session/usage.js';
import { FileUsageStore } from '../../src/core/store/file.js';
import { Learner } from '../../src/serve/learn.js';
import {
  installSignalPath,
  resetSignalStateForTests,
  stoppedBy,
  whileHandlingSignals,
} from '../../src/process/signals.js';
import { tempDir } from '../helpers/temp.js';

const learner = (store?: FileUsageStore, record?: string, log: string[] = []) =>
  new Learner({
    store,
    record,
    secrets: [],
    now: () => 1_800_000_000_000,
    log: (t) => log.push(t),
    usage: emptyUsage(),
  });

afterEach(() => resetSignalStateForTests());

describe('Learner', () => {
  it('one find, 500 calls of the tool it returned: one labelled case, one --record line, 500 calls counted', async () => {
    const dir = tempDir('mcp-smart-learner-');
    const record = join(dir, 'cases.jsonl');
    const l = learner(undefined, record);
    l.found('search my notes', ['notes.search']);
    for (let i = 0; i < 500; i++) void l.called('notes.search', true, 3);
    await l.flush();
    expect(l.cases).toEqual([{ intent: 'search my notes', expected: ['notes.search'] }]);
    expect(readFileSync(record, 'utf8')).toBe('{"intent":"search my notes","expected":["notes.search"]}\n');
  });

  it('keeps the newest 200 cases in memory however many finds there are', () => {
    const l = learner();
    for (let i = 0; i < 1000; i++) {
      l.found(`need ${i}`, ['a.t']);
      void l.called('a.t', true, 1);
    }
    expect(l.cases).toHaveLength(200);
    expect(l.cases[0]?.intent).toBe('need 800');
    expect(l.cases.at(-1)?.intent).toBe('need 999');
  });

  it('after SIGTERM the final flush still writes every learned call to the store', async () => {
    const dir = tempDir('mcp-smart-learner-');
    const file = join(dir, 'usage.json');
    const log: string[] = [];
    const l = learner(new FileUsageStore(file), undefined, log);
    const handlers: Record<string, () => void> = {};
    const uninstall = installSignalPath(
      { on: (e, fn) => (handlers[e] = fn), off: () => undefined, exit: () => undefined as never },
      new AbortController(),
    );
    try {
      for (let i = 0; i < 300; i++) void l.called('a.t', i % 3 !== 0, 2);
      // SIGTERM arrives before the background write has begun; shutdown then flushes.
      await whileHandlingSignals(async () => {
        handlers.SIGTERM?.();
        expect(stoppedBy()).toBe('SIGTERM');
        await l.finalFlush();
      });
    } finally {
      uninstall();
    }
    const doc = JSON.parse(readFileSync(file, 'utf8')) as {
      tools: Record<string, { success: number; failure: number }>;
    };
    expect(doc.tools['a.t']).toMatchObject({ success: 200, failure: 100 });
    expect(log.filter((t) => t.includes('could not'))).toEqual([]);
  });
});
