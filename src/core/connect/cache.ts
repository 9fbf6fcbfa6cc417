/**
 * The tool-list cache: one JSON file per server definition, keyed by a sha256 of that definition.
 * env and header values go into the hash (a rotated secret invalidates the entry) but never into the file.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileSafe } from '../../safe-write.js';
import type { ServerDefinition, ServerSnapshot } from '../../types.js';

export const TOOL_CACHE_FORMAT = 'mcp-smart/tool-list-cache@1';
const CACHE_SUBDIR = 'tool-lists';

interface CacheFile {
  format: typeof TOOL_CACHE_FORMAT;
  key: string;
  /** ms since the epoch, from the caller's clock. */
  storedAt: number;
  snapshot: ServerSnapshot;
}

const sortedEntries = (o: Record<string, string> | undefined): [string, string][] | null =>
  o ? Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : null;

/** sha256 over everything that changes what the server answers; not its name, source or shadowing. */
export function toolCacheKey(def: ServerDefinition): string {
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
  };
  return createHash('sha256').update(JSON.stringify(material)).digest('hex');
}

export function toolCacheFile(dir: string, key: string): string {
  return join(dir, CACHE_SUBDIR, `${key}.json`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A fresh cached snapshot for `def`, or undefined (missing, expired, from the future, or unreadable). */
export async function readCachedSnapshot(
  def: ServerDefinition,
  cache: { dir: string; ttlMs: number; now: number },
): Promise<ServerSnapshot | undefined> {
  const key = toolCacheKey(def);
  let text: string;
  try {
    text = await readFile(toolCacheFile(cache.dir, key), 'utf8');
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
  cache: { dir: string; now: number },
): Promise<void> {
  if (snap.status !== 'ok') return;
  const { stderr: _stderr, elapsedMs: _elapsed, cached: _cached, cachedAt: _at, source: _source, ...kept } = snap;
  const key = toolCacheKey(def);
  const doc: CacheFile = { format: TOOL_CACHE_FORMAT, key, storedAt: cache.now, snapshot: kept };
  await writeFileSafe(toolCacheFile(cache.dir, key), JSON.stringify(doc) + '\n');
}
