// serve's tools/list cache hint for 2026-07-28 clients (src/serve/cache-hint.ts): the rules on their own; the e2e
// test (test/e2e/serve-cache-hint.test.ts) shows them through a real serve.
import { describe, expect, it } from 'vitest';
import { listCacheHint, readCacheHint, toolListCacheHint } from '../../src/serve/cache-hint.js';
import type { ServerDefinition, ServerSnapshot } from '../../src/core/types.js';

const local = (name: string): ServerDefinition => ({ name, transport: 'stdio', command: 'node' }) as ServerDefinition;
const remote = (name: string): ServerDefinition =>
  ({ name, transport: 'http', url: `https://${name}.example/mcp` }) as ServerDefinition;
const snap = (name: string, extra: Partial<ServerSnapshot> = {}): ServerSnapshot => ({
  name,
  transport: 'stdio',
  status: 'ok',
  tools: [],
  ...extra,
});
const hint = (ttlMs: number, cacheScope: 'public' | 'private') => ({ listCache: { ttlMs, cacheScope } });

describe('toolListCacheHint', () => {
  it('no servers: nothing promised', () => {
    expect(toolListCacheHint({ definitions: [], known: new Map(), now: 0 })).toEqual({
      ttlMs: 0,
      cacheScope: 'public',
    });
  });

  it('the shortest promise, capped by what is left of the tool-list cache', () => {
    const known = new Map([
      ['a', snap('a', { ...hint(600_000, 'public'), cachedAt: 1_000 })],
      ['b', snap('b', hint(900_000, 'public'))],
    ]);
    const defs = [local('a'), local('b')];
    expect(toolListCacheHint({ definitions: defs, known, now: 1_000 })).toEqual({
      ttlMs: 600_000,
      cacheScope: 'public',
    });
    // a was cached 250 s ago and the cache keeps lists 300 s: 50 s are left.
    expect(toolListCacheHint({ definitions: defs, known, cacheTtlMs: 300_000, now: 251_000 })).toEqual({
      ttlMs: 50_000,
      cacheScope: 'public',
    });
    expect(toolListCacheHint({ definitions: defs, known, cacheTtlMs: 300_000, now: 400_000 }).ttlMs).toBe(0);
  });

  it('a 2025 server (no hint), or one not listed yet, promises nothing', () => {
    const known = new Map([
      ['a', snap('a', hint(600_000, 'public'))],
      ['b', snap('b')],
    ]);
    expect(toolListCacheHint({ definitions: [local('a'), local('b')], known, now: 0 }).ttlMs).toBe(0);
    expect(toolListCacheHint({ definitions: [local('a'), local('c')], known, now: 0 }).ttlMs).toBe(0);
  });

  it('private when a server behind is remote (its list may depend on the login) or said private', () => {
    const known = new Map([
      ['a', snap('a', hint(600_000, 'public'))],
      ['r', snap('r', hint(600_000, 'public'))],
      ['p', snap('p', hint(600_000, 'private'))],
    ]);
    expect(toolListCacheHint({ definitions: [local('a'), remote('r')], known, now: 0 }).cacheScope).toBe('private');
    expect(toolListCacheHint({ definitions: [local('a'), local('p')], known, now: 0 }).cacheScope).toBe('private');
    expect(toolListCacheHint({ definitions: [local('a')], known, now: 0 }).cacheScope).toBe('public');
  });
});

describe('listCacheHint for prompts, resources and templates', () => {
  const lists = (ttlMs: number, cacheScope: 'public' | 'private') => ({
    prompts: [],
    resources: [],
    resourceTemplates: [],
    listCaches: {
      prompts: { ttlMs, cacheScope },
      resources: { ttlMs, cacheScope },
      resourceTemplates: { ttlMs, cacheScope },
    },
  });

  it("each list folds its own hints, not the tools list's", () => {
    const known = new Map([
      ['a', snap('a', { ...hint(600_000, 'public'), ...lists(30_000, 'public') })],
      ['b', snap('b', { ...hint(900_000, 'public'), ...lists(10_000, 'public') })],
    ]);
    const inputs = { definitions: [local('a'), local('b')], known, now: 0 };
    expect(listCacheHint(inputs, 'tools')).toEqual({ ttlMs: 600_000, cacheScope: 'public' });
    for (const list of ['prompts', 'resources', 'resourceTemplates'] as const)
      expect(listCacheHint(inputs, list)).toEqual({ ttlMs: 10_000, cacheScope: 'public' });
  });

  it('a server without that kind of list contributes nothing; a 2025 one with it makes it 0', () => {
    const known = new Map([
      ['a', snap('a', lists(30_000, 'public'))],
      ['toolsOnly', snap('toolsOnly')],
      ['old', snap('old', { prompts: [] })],
    ]);
    expect(listCacheHint({ definitions: [local('a'), local('toolsOnly')], known, now: 0 }, 'prompts')).toEqual({
      ttlMs: 30_000,
      cacheScope: 'public',
    });
    expect(listCacheHint({ definitions: [local('a'), local('old')], known, now: 0 }, 'prompts').ttlMs).toBe(0);
    // old has prompts but no resources: it does not weigh on the resources list.
    expect(listCacheHint({ definitions: [local('a'), local('old')], known, now: 0 }, 'resources').ttlMs).toBe(30_000);
    // a server not listed yet (or failed) may still contribute: nothing promised.
    expect(listCacheHint({ definitions: [local('a'), local('later')], known, now: 0 }, 'prompts').ttlMs).toBe(0);
  });

  it('capped by what is left of the tool-list cache, private for a credentialed server', () => {
    const known = new Map([['a', snap('a', { ...lists(600_000, 'public'), cachedAt: 0 })]]);
    expect(listCacheHint({ definitions: [local('a')], known, cacheTtlMs: 300_000, now: 100_000 }, 'resources')).toEqual(
      {
        ttlMs: 200_000,
        cacheScope: 'public',
      },
    );
    const withEnv = { ...local('a'), env: { API_TOKEN: 'x' } } as ServerDefinition;
    expect(listCacheHint({ definitions: [withEnv], known, now: 0 }, 'resources').cacheScope).toBe('private');
    expect(listCacheHint({ definitions: [withEnv], known, now: 0 }, 'tools').cacheScope).toBe('private');
  });
});

describe('readCacheHint', () => {
  it("keeps the server's own valid hint; private unless a local, uncredentialed server said public", () => {
    expect(readCacheHint(local('a'), { ttlMs: 5_000, cacheScope: 'public' })).toEqual({
      ttlMs: 5_000,
      cacheScope: 'public',
    });
    expect(readCacheHint(remote('r'), { ttlMs: 5_000, cacheScope: 'public' })).toEqual({
      ttlMs: 5_000,
      cacheScope: 'private',
    });
    expect(readCacheHint(local('a'), {})).toEqual({ ttlMs: 0, cacheScope: 'private' });
    expect(readCacheHint(local('a'), { ttlMs: -1, cacheScope: 'shared' })).toEqual({ ttlMs: 0, cacheScope: 'private' });
    expect(readCacheHint(undefined, { ttlMs: 5_000, cacheScope: 'public' }).cacheScope).toBe('private');
  });
});
