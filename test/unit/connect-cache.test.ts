// The tool-list cache: key, TTL, failures never cached, secrets only ever inside the hash, one entry per OAuth login.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectServers, toolCacheFile, toolCacheKey, type ConnectOptions } from '../../src/core/connect/index.js';
import {
  anyCachedSnapshot,
  ERA_HORIZON_MS,
  oauthLogin,
  readCachedSnapshot,
  writeCachedSnapshot,
} from '../../src/core/connect/cache.js';
import { rememberedVersion, rememberVersion } from '../../src/core/connect/era-memo.js';
import { TokenStore, tokenStoreKey, type TokenStoreEntry } from '../../src/core/connect/oauth/token-store.js';
import type { ServerDefinition, ServerSnapshot } from '../../src/core/types.js';
import { createCatalogServer } from '../../fixtures/servers/lib.mjs';
import { tempDir } from '../helpers/temp.js';

const SECRET = 'sk-live-cache-test-5f9d2c';
const HEADER_SECRET = 'Bearer hdr-secret-77aa';

const def = (extra: Partial<ServerDefinition> = {}): ServerDefinition => ({
  name: 'notes',
  transport: 'stdio',
  command: 'node',
  args: ['server.js'],
  env: { API_KEY: SECRET },
  enabled: true,
  source: '/project/.mcp.json',
  scope: 'project',
  ...extra,
});

let dir: string;
beforeEach(() => {
  dir = tempDir('mcp-smart-cache-');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('toolCacheKey', () => {
  it('changes when a secret value changes, but not with the name or source', () => {
    const base = toolCacheKey(def());
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(toolCacheKey(def({ env: { API_KEY: 'rotated' } }))).not.toBe(base);
    expect(toolCacheKey(def({ headers: { Authorization: 'x' } }))).not.toBe(base);
    expect(toolCacheKey(def({ args: ['other.js'] }))).not.toBe(base);
    expect(toolCacheKey(def({ name: 'renamed', source: '/elsewhere.json' }))).toBe(base);
    // Key order of env does not matter.
    expect(toolCacheKey(def({ env: { A: '1', B: '2' } }))).toBe(toolCacheKey(def({ env: { B: '2', A: '1' } })));
  });
});

describe('tool-list cache through connectServers', () => {
  let connects = 0;
  const options = (now: number, extra: Partial<ConnectOptions> = {}): ConnectOptions => ({
    timeoutMs: 5000,
    cache: { dir, ttlMs: 60_000, now },
    createTransport: () => {
      connects++;
      const [c, s] = InMemoryTransport.createLinkedPair();
      void createCatalogServer({
        serverInfo: { name: 'notes', version: '1' },
        tools: [{ name: 'search', description: `uses ${SECRET.length} chars`, inputSchema: { type: 'object' } }],
      }).connect(s);
      return c;
    },
    ...extra,
  });
  beforeEach(() => {
    connects = 0;
  });

  it('answers from the cache within the TTL and connects again after it', async () => {
    const d = def({ headers: { Authorization: HEADER_SECRET } });
    const [first] = await connectServers([d], options(1_000_000));
    expect(first?.cached).toBeUndefined();
    const [second] = await connectServers([d], options(1_000_000 + 59_999));
    expect(second?.cached).toBe(true);
    expect(second?.tools).toEqual(first?.tools);
    expect(second?.serverInfo).toEqual(first?.serverInfo);
    expect(connects).toBe(1);
    const [third] = await connectServers([d], options(1_000_000 + 60_000));
    expect(third?.cached).toBeUndefined();
    expect(connects).toBe(2);
  });

  it('never writes env or header values into the cache file', async () => {
    const d = def({ headers: { Authorization: HEADER_SECRET } });
    await connectServers([d], options(5));
    const files = readdirSync(join(dir, 'tool-lists'));
    expect(files).toEqual([`${toolCacheKey(d)}.json`]);
    const text = readFileSync(toolCacheFile(dir, toolCacheKey(d)), 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(HEADER_SECRET);
    expect(text).not.toContain('API_KEY');
    expect(JSON.parse(text).snapshot.tools[0].name).toBe('search');
  });

  it('misses when the secret changes', async () => {
    await connectServers([def()], options(10));
    const [again] = await connectServers([def({ env: { API_KEY: 'another-secret' } })], options(11));
    expect(again?.cached).toBeUndefined();
    expect(connects).toBe(2);
  });

  it('does not read or write when the cache is off', async () => {
    await connectServers([def()], options(10, { cache: null }));
    expect(() => readdirSync(join(dir, 'tool-lists'))).toThrow();
  });
});

describe('readCachedSnapshot / writeCachedSnapshot', () => {
  const ok: ServerSnapshot = {
    name: 'notes',
    transport: 'stdio',
    status: 'ok',
    tools: [{ name: 't' }],
    stderr: 'log',
    elapsedMs: 12,
  };

  it('anyCachedSnapshot: false for a folder with no tool list yet (a first start skips every lookup), true once one is stored', async () => {
    expect(anyCachedSnapshot(join(dir, 'not-made-yet'))).toBe(false);
    expect(anyCachedSnapshot(dir)).toBe(false);
    mkdirSync(join(dir, 'tool-lists'));
    expect(anyCachedSnapshot(dir)).toBe(false);
    await writeCachedSnapshot(def(), ok, { dir, now: 1 });
    expect(anyCachedSnapshot(dir)).toBe(true);
    expect(await readCachedSnapshot(def(), { dir, ttlMs: 1000, now: 2 })).toBeDefined();
  });

  it('never caches a failed server', async () => {
    await writeCachedSnapshot(def(), { ...ok, status: 'error', error: 'boom' }, { dir, now: 1 });
    expect(await readCachedSnapshot(def(), { dir, ttlMs: 1000, now: 2 })).toBeUndefined();
  });

  it('drops stderr and timings, and takes the current name and source', async () => {
    await writeCachedSnapshot(def(), ok, { dir, now: 1 });
    const hit = await readCachedSnapshot(def({ name: 'renamed', source: 'other' }), { dir, ttlMs: 1000, now: 2 });
    expect(hit).toEqual({
      name: 'renamed',
      transport: 'stdio',
      status: 'ok',
      tools: [{ name: 't' }],
      source: 'other',
      cached: true,
      cachedAt: 1,
    });
  });

  it('an expired entry still tells the era its server answered in, until the era horizon', async () => {
    const remote = def({ transport: 'http', url: 'http://127.0.0.1:1/mcp', command: undefined, args: undefined });
    await writeCachedSnapshot(remote, { ...ok, protocolVersion: '2025-11-25' }, { dir, now: 1 });
    rememberVersion(remote, undefined);
    expect(await readCachedSnapshot(remote, { dir, ttlMs: 1000, now: 1 + ERA_HORIZON_MS })).toBeUndefined();
    expect(rememberedVersion(remote)).toBeUndefined();
    expect(await readCachedSnapshot(remote, { dir, ttlMs: 1000, now: 5000 })).toBeUndefined();
    expect(rememberedVersion(remote)).toBe('2025-11-25');
    // What this process saw itself outranks the cache.
    rememberVersion(remote, '2026-07-28');
    expect((await readCachedSnapshot(remote, { dir, ttlMs: 10_000, now: 5000 }))?.protocolVersion).toBe('2025-11-25');
    expect(rememberedVersion(remote)).toBe('2026-07-28');
    rememberVersion(remote, undefined);
  });

  it('treats a damaged file or one from the future as a miss', async () => {
    await writeCachedSnapshot(def(), ok, { dir, now: 100 });
    expect(await readCachedSnapshot(def(), { dir, ttlMs: 1000, now: 50 })).toBeUndefined();
    writeFileSync(toolCacheFile(dir, toolCacheKey(def())), '{not json');
    expect(await readCachedSnapshot(def(), { dir, ttlMs: 1000, now: 100 })).toBeUndefined();
  });
});

describe('remote servers behind OAuth: one cache entry per login', () => {
  const TOKEN = 'PLANTED-access-token-91ce';
  const REFRESH = 'PLANTED-refresh-token-27ab';
  const CLIENT_SECRET = 'PLANTED-client-secret-4d0e';
  const URL = 'https://mcp.example.test/mcp';
  const remote = (extra: Partial<ServerDefinition> = {}): ServerDefinition => ({
    name: 'linear',
    transport: 'http',
    url: URL,
    enabled: true,
    source: '/project/.mcp.json',
    scope: 'project',
    ...extra,
  });
  const ok: ServerSnapshot = { name: 'linear', transport: 'http', status: 'ok', tools: [{ name: 'issues' }] };
  let store: string;
  const storeWith = async (entries: Record<string, TokenStoreEntry | undefined>): Promise<void> => {
    const s = new TokenStore(store);
    for (const [client, entry] of Object.entries(entries)) await s.update(tokenStoreKey(URL, client), () => entry);
  };
  const login = (id: string | undefined, client = 'dynamic'): TokenStoreEntry => ({
    url: URL,
    client,
    tokens: { access_token: `${TOKEN}-${id}`, refresh_token: `${REFRESH}-${id}`, token_type: 'Bearer' },
    ...(id ? { login: id } : {}),
  });
  const read = (d: ServerDefinition, now = 2) => readCachedSnapshot(d, { dir, ttlMs: 1000, now, oauthStore: store });
  const write = (d: ServerDefinition) => writeCachedSnapshot(d, ok, { dir, now: 1, oauthStore: store });

  beforeEach(() => {
    store = join(dir, 'config', 'oauth-tokens.json');
  });

  it('a second login (another account) to the same URL does not get the first one’s list', async () => {
    await storeWith({ dynamic: login('a1') });
    await write(remote());
    expect((await read(remote()))?.tools).toEqual([{ name: 'issues' }]);
    // A refresh keeps the login id: still a hit.
    await storeWith({ dynamic: { ...login('a1'), tokens: { access_token: `${TOKEN}-new`, token_type: 'Bearer' } } });
    expect((await read(remote()))?.cached).toBe(true);
    await storeWith({ dynamic: login('b2') });
    expect(await read(remote())).toBeUndefined();
    // Logged out: no tokens, no list seen through a login.
    await storeWith({ dynamic: { url: URL, client: 'dynamic' } });
    expect(await read(remote())).toBeUndefined();
  });

  it('another client for the same URL (pre-registered vs dynamic, or another client id) never shares the list', async () => {
    await storeWith({ dynamic: login('a1'), 'corp-cli': login('a1', 'corp-cli'), other: login('a1', 'other') });
    await write(remote());
    const corp = remote({ oauth: { clientId: 'corp-cli', clientSecret: CLIENT_SECRET } });
    expect(await read(corp)).toBeUndefined();
    await write(corp);
    expect((await read(corp))?.cached).toBe(true);
    expect(await read(remote({ oauth: { clientId: 'other' } }))).toBeUndefined();
    expect(await read(remote({ oauth: { clientId: 'corp-cli', clientSecret: 'rotated' } }))).toBeUndefined();
    expect(readdirSync(join(dir, 'tool-lists'))).toHaveLength(2);
  });

  it('entries stored before logins had ids are keyed by a hash of the token, never the token', async () => {
    await storeWith({ dynamic: login(undefined) });
    await write(remote());
    expect((await read(remote()))?.cached).toBe(true);
    await storeWith({ dynamic: { ...login(undefined), tokens: { ...login(undefined).tokens!, refresh_token: 'x' } } });
    expect(await read(remote())).toBeUndefined();
  });

  it('no token, login id or client secret in the cache files or their names', async () => {
    await storeWith({ dynamic: login('login-id-aa11'), 'corp-cli': login('login-id-cc33', 'corp-cli') });
    await write(remote());
    await write(remote({ oauth: { clientId: 'corp-cli', clientSecret: CLIENT_SECRET } }));
    const files = readdirSync(join(dir, 'tool-lists'));
    expect(files).toHaveLength(2);
    for (const f of files) {
      expect(f).toMatch(/^[0-9a-f]{64}\.json$/);
      const text = readFileSync(join(dir, 'tool-lists', f), 'utf8');
      for (const secret of ['PLANTED', CLIENT_SECRET, 'login-id']) expect(text).not.toContain(secret);
    }
  });

  it('a store that cannot be read: the cache is neither read nor written', async () => {
    mkdirSync(join(dir, 'config'), { recursive: true });
    writeFileSync(store, '{damaged');
    await write(remote());
    expect(() => readdirSync(join(dir, 'tool-lists'))).toThrow();
    expect(await read(remote())).toBeUndefined();
  });

  it('stdio servers and servers with an Authorization header are keyed as before', async () => {
    expect(await oauthLogin(def(), store)).toBe('');
    expect(await oauthLogin(remote({ headers: { authorization: HEADER_SECRET } }), store)).toBe('');
    expect(await oauthLogin(remote(), undefined)).toBe('');
    expect(toolCacheKey(def(), '')).toBe(toolCacheKey(def()));
  });
});
