// serve's tools/list cache hint for 2026-07-28 clients (src/serve/cache-hint.ts): the rules on their own; the e2e
// test (test/e2e/serve-cache-hint.test.ts) shows them through a real serve.
import { describe, expect, it } from 'vitest';
import { toolListCacheHint } from '../../src/serve/cache-hint.js';
import type { ServerDefinition, ServerSnapshot } from '../../src/types.js';

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
