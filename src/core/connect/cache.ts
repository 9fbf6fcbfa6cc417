/**
 * The tool-list cache: one JSON file per server definition, keyed by a sha256 of that definition, of the client
 * capabilities it was listed with (servers register some tools only for clients that declare roots, elicitation or
 * sampling) and, for a remote server reached with OAuth, of the login it was listed through (another account or
 * another client never gets this one's list). env, header and client-secret values go into the hash (a rotated secret
 * invalidates the entry) but never into the file.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileSafe } from '../../process/safe-write.js';
import type { ServerDefinition, ServerSnapshot } from '../types.js';
import { capabilitiesKey, type DeclaredCapabilities } from '../declared-capabilities.js';
import { seedVersion } from './era-memo.js';
import { serverIdentity, type ServerOrigin } from './server-identity.js';
import { DYNAMIC_CLIENT, TokenStore, tokenStoreKey } from './oauth/token-store.js';
import { isObject } from '../dict.js';
import { toolAsSent } from '../tool-validate.js';

export const TOOL_CACHE_FORMAT = 'mcp-smart/tool-list-cache@1';
/** How long a cached tool list answers before its server is asked again, unless the config sets cache.ttlSeconds. */
export const DEFAULT_CACHE_TTL_SECONDS = 3600;
const CACHE_SUBDIR = 'tool-lists';
/**
 * How long an entry's protocol version still decides how the server is opened after the entry itself expired (a
 * 2025 HTTP server is then not probed with server/discover); past it the server is probed again, in case it was
 * upgraded (a 2025 verdict would otherwise hold forever: an upgraded server still answers initialize).
 */
export const ERA_HORIZON_MS = 7 * 24 * 60 * 60 * 1000;

interface CacheFile {
  format: typeof TOOL_CACHE_FORMAT;
  key: string;
  /** ms since the epoch, from the caller's clock. */
  storedAt: number;
  snapshot: ServerSnapshot;
}

const sortedEntries = (o: Record<string, string> | undefined): [string, string][] | null =>
  o ? Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : null;

/**
 * sha256 over everything that changes what the server answers; not its name, source or shadowing. `login` is
 * what `oauthLogin` gives for the server ('' when OAuth does not apply); `capabilities` what was declared to it
 * (none declared keeps the key entries had before capabilities were part of it); `identity` what serverIdentity
 * says of a local server's files (an edited script or an upgraded package is a new key, so it is listed again).
 */
export function toolCacheKey(
  def: ServerDefinition,
  login = '',
  capabilities?: DeclaredCapabilities,
  identity = '',
): string {
  const oauth = def.oauth;
  const material = {
    v: 1,
    transport: def.transport,
    autoTransport: def.autoTransport === true,
    command: def.command ?? null,
    args: def.args ?? [],
    cwd: def.cwd ?? null,
    env: sortedEntries(def.env),
    url: def.url ?? null,
    headers: sortedEntries(def.headers),
    oauth: oauth
      ? {
          clientId: oauth.clientId ?? null,
          clientSecret: oauth.clientSecret ?? null,
          scopes: oauth.scopes ?? [],
          clientMetadataUrl: oauth.clientMetadataUrl ?? null,
        }
      : null,
    login,
    ...(Object.keys(capabilities ?? {}).length > 0 ? { capabilities: capabilitiesKey(capabilities) } : {}),
    ...(identity !== '' ? { identity } : {}),
  };
  return createHash('sha256').update(JSON.stringify(material)).digest('hex');
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The OAuth login a remote server's tool list is seen through, from the token store: '' when OAuth does not
 * apply (stdio, an Authorization header, no store given, no tokens stored); else the login's id (a hash of the
 * token for entries stored before logins had ids: it changes on refresh, which only costs a cache miss).
 * undefined when the store cannot be read: then the cache is neither read nor written.
 */
export async function oauthLogin(def: ServerDefinition, storeFile: string | undefined): Promise<string | undefined> {
  if (!storeFile || !def.url || def.transport === 'stdio') return '';
  if (Object.keys(def.headers ?? {}).some((h) => h.toLowerCase() === 'authorization')) return '';
  let entry;
  try {
    entry = await new TokenStore(storeFile).read(tokenStoreKey(def.url, def.oauth?.clientId ?? DYNAMIC_CLIENT));
  } catch {
    return undefined;
  }
  const tokens = entry?.tokens;
  if (!tokens) return '';
  return entry?.login ? `login:${entry.login}` : `token:${sha256(tokens.refresh_token ?? tokens.access_token)}`;
}

/**
 * Whether the cache folder holds any tool list: when it holds none (a first start, a fresh HOME), every lookup would
 * miss, and a caller skips them, each of which keys its server first (a local server's files stat-ed: serverIdentity).
 */
export function anyCachedSnapshot(dir: string): boolean {
  try {
    return readdirSync(join(dir, CACHE_SUBDIR)).length > 0;
  } catch {
    return false; // no folder yet (or one that cannot be read: every read of it would miss too)
  }
}

export function toolCacheFile(dir: string, key: string): string {
  return join(dir, CACHE_SUBDIR, `${key}.json`);
}

/** A fresh cached snapshot for `def`, or undefined (missing, expired, from the future, or unreadable). */
export async function readCachedSnapshot(
  def: ServerDefinition,
  cache: {
    dir: string;
    ttlMs: number;
    now: number;
    oauthStore?: string;
    capabilities?: DeclaredCapabilities;
    /** Where local servers start from: with it, an entry answers only while the server's files are unchanged. */
    origin?: ServerOrigin;
    /** serverIdentity(def, origin), when the caller took it already. */
    identity?: string;
  },
): Promise<ServerSnapshot | undefined> {
  const login = await oauthLogin(def, cache.oauthStore);
  if (login === undefined) return undefined;
  const key = toolCacheKey(def, login, cache.capabilities, cache.identity ?? serverIdentity(def, cache.origin));
  let text: string;
  try {
    // One synchronous read: a warm start reads one entry per server, and through the thread pool (4 threads) 111
    // entries cost more waiting than reading.
    text = readFileSync(toolCacheFile(cache.dir, key), 'utf8');
  } catch {
    return undefined; // no entry yet
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined; // a damaged entry is a miss; the next write replaces it
  }
  if (!isObject(doc) || doc.format !== TOOL_CACHE_FORMAT || doc.key !== key || typeof doc.storedAt !== 'number')
    return undefined;
  const snapshot = doc.snapshot;
  if (!isObject(snapshot) || snapshot.status !== 'ok' || !Array.isArray(snapshot.tools)) return undefined;
  const age = cache.now - doc.storedAt;
  if (age >= 0 && age < Math.max(cache.ttlMs, ERA_HORIZON_MS)) seedVersion(def, snapshot.protocolVersion);
  if (age < 0 || age >= cache.ttlMs) return undefined;
  return {
    ...(snapshot as unknown as ServerSnapshot),
    name: def.name,
    source: def.source,
    cached: true,
    cachedAt: doc.storedAt,
  };
}

/** Stores a successful snapshot (without stderr, timings or flags). Failures are never cached. */
export async function writeCachedSnapshot(
  def: ServerDefinition,
  snap: ServerSnapshot,
  cache: {
    dir: string;
    now: number;
    oauthStore?: string;
    capabilities?: DeclaredCapabilities;
    origin?: ServerOrigin;
    /** The identity taken before connecting (a change while listing then keys the old list to the old files). */
    identity?: string;
  },
): Promise<void> {
  if (snap.status !== 'ok') return;
  // Read after connecting: a login made during this connection is the one the list was seen through.
  const login = await oauthLogin(def, cache.oauthStore);
  if (login === undefined) return;
  const { stderr: _stderr, elapsedMs: _elapsed, cached: _cached, cachedAt: _at, source: _source, ...kept } = snap;
  const key = toolCacheKey(def, login, cache.capabilities, cache.identity ?? serverIdentity(def, cache.origin));
  // Tools as sent, as a snapshot holds them: a cached list is checked again when read (revalidateCached).
  const snapshot = { ...kept, tools: kept.tools.map(toolAsSent) };
  const doc: CacheFile = { format: TOOL_CACHE_FORMAT, key, storedAt: cache.now, snapshot };
  await writeFileSafe(toolCacheFile(cache.dir, key), JSON.stringify(doc) + '\n');
}
