// Tool ids that collide get a deterministic suffix (catalogEntries), and servers that failed at serve start are
// tried again with a doubling wait (StartRetry).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalogEntries, idCollisions } from '../../src/serve/served-view.js';
import { StartRetry, unstartedLine } from '../../src/serve/start-retry.js';
import type { ServerSnapshot } from '../../src/core/types.js';
import type { VisibilityRules } from '../../src/core/config/tool-filter.js';

const server = (name: string, ...tools: string[]): ServerSnapshot => ({
  name,
  transport: 'stdio',
  status: 'ok',
  tools: tools.map((t) => ({ name: t, inputSchema: { type: 'object' } })),
});
const rules: VisibilityRules = { filters: new Map() };

describe('catalogEntries: colliding ids', () => {
  it('servers in name order, tools in server order: the first keeps the id, later ones get #2, #3', () => {
    const entries = catalogEntries([server('a.b', 'c', 'c'), server('a', 'b.c'), server('z', 'plain')], rules);
    expect(entries.map((e) => [e.id, e.server, e.tool.name])).toEqual([
      ['a.b.c', 'a', 'b.c'],
      ['a.b.c#2', 'a.b', 'c'],
      ['a.b.c#3', 'a.b', 'c'],
      ['z.plain', 'z', 'plain'],
    ]);
    expect(idCollisions(entries)).toEqual([
      'server "a.b" tool "c" makes the id "a.b.c", as server "a" tool "b.c" does; it is served as "a.b.c#2"',
      'server "a.b" tool "c" makes the id "a.b.c", as server "a" tool "b.c" does; it is served as "a.b.c#3"',
    ]);
    // The same input gives the same ids, whatever order the servers came in.
    const again = catalogEntries([server('z', 'plain'), server('a', 'b.c'), server('a.b', 'c', 'c')], rules);
    expect(again.map((e) => e.id)).toEqual(entries.map((e) => e.id));
  });

  it('a later repeat never takes the id of a tool really named "<name>#2": that tool keeps its own id', () => {
    const entries = catalogEntries([server('s', 'dup', 'dup', 'dup#2')], rules);
    expect(entries.map((e) => [e.id, e.tool.name])).toEqual([
      ['s.dup', 'dup'],
      ['s.dup#3', 'dup'],
      ['s.dup#2', 'dup#2'],
    ]);
    expect(idCollisions(entries)).toEqual([
      'server "s" tool "dup" makes the id "s.dup", as server "s" tool "dup" does; it is served as "s.dup#3"',
    ]);
  });
});

describe('StartRetry', () => {
  afterEach(() => vi.useRealTimers());

  it('tries again after 2 s, 4 s, 8 s … at most 60 s, and forgets a server once it starts', async () => {
    vi.useFakeTimers();
    const attempts: number[] = [];
    const failUntil = 7;
    const logs: string[] = [];
    const retry = new StartRetry({
      list: (_server, later) => {
        expect(later).toBe(true);
        attempts.push(Date.now());
        return attempts.length < failUntil ? Promise.reject(new Error('down')) : Promise.resolve();
      },
      reasonOf: (_s, e) => (e as Error).message,
      log: (t) => logs.push(t),
      now: () => Date.now(),
    });
    const t0 = Date.now();
    retry.failed('flaky', new Error('down'));
    expect(retry.pending()).toEqual([{ server: 'flaky', reason: 'down', retryInSeconds: 2 }]);
    expect(unstartedLine(retry.pending()[0]!)).toBe(
      '(server "flaky" has not started: down; its tools are not listed — mcp-smart tries it again in 2 s)',
    );
    await vi.advanceTimersByTimeAsync(200_000);
    expect(attempts.map((t) => (t - t0) / 1000)).toEqual([2, 6, 14, 30, 62, 122, 182]);
    expect(retry.pending()).toEqual([]);
    expect(logs).toContain('warning: server "flaky" still does not start (down); retrying every 60 s');
    expect(logs.at(-1)).toBe('server "flaky" started on a later attempt; its tools are served now');
    retry.stop();
  });
});
