/**
 * The catalogue start cache of configured servers answered from the tool-list cache (cache folder `catalogue/`, as
 * app/catalogue.ts does for --snapshot files): when every selected server's list comes from its tool-list cache
 * entry, the next run reads those servers — checked, scrubbed, each tool cut to what ranking reads — from one file
 * instead of parsing and checking every entry again. It is trusted only while each entry file has the same device,
 * inode, size, modification and change time, while the servers keep their names and sources, and while every entry
 * is still within the tool-list cache's lifetime; entries changed less than RACY_MS before are not cached.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE_CACHE_VERSION, decodeCatalogue, encodeCatalogue } from '../core/catalogue-cache.js';
import { oauthLogin, toolCacheFile, toolCacheKey } from '../core/connect/cache.js';
import type { DeclaredCapabilities } from '../core/declared-capabilities.js';
import { openSealed, sealBytes } from '../core/sealed-file.js';
import { writeFileSafe } from '../safe-write.js';
import type { ServerDefinition, ServerSnapshot } from '../types.js';
import { RACY_MS } from './catalogue.js';

const MAGIC = new TextEncoder().encode('mcp-smart/configured-catalogue'); // 30 bytes

export interface ConfiguredCatalogueOptions {
  /** The cache folder (the tool-list cache's). */
  dir: string;
  ttlMs: number;
  now: number;
  oauthStore?: string;
  capabilities?: DeclaredCapabilities;
}

/** Where the entries of these definitions stand: the start cache's file and key, and the entries' identities. */
export interface ConfiguredKey {
  file: string;
  key: string;
  entries: string[];
}

/** The key of these definitions' entries; undefined when one has no entry (it must be listed) or no login to key. */
export async function configuredKey(
  defs: readonly ServerDefinition[],
  opts: ConfiguredCatalogueOptions,
): Promise<ConfiguredKey | undefined> {
  const entries: string[] = [];
  const lines: string[] = [];
  for (const def of defs) {
    const login = await oauthLogin(def, opts.oauthStore);
    if (login === undefined) return undefined;
    const entry = toolCacheFile(opts.dir, toolCacheKey(def, login, opts.capabilities));
    const id = identity(entry);
    if (id === undefined) return undefined;
    entries.push(entry);
    lines.push(JSON.stringify([def.name, def.source ?? null, entry, id]));
  }
  const name = createHash('sha256')
    .update(`${CATALOGUE_CACHE_VERSION}\0configured\0${defs.map((d) => d.name).join('\0')}`)
    .digest('hex')
    .slice(0, 16);
  return { file: join(opts.dir, 'catalogue', `c-${name}.bin`), key: lines.join('\n'), entries };
}

function identity(file: string): string | undefined {
  try {
    const st = statSync(file, { bigint: true });
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/** The servers as the last run that read them all from the tool-list cache left them; undefined when not trusted. */
export function readConfiguredCatalogue(
  at: ConfiguredKey,
  opts: ConfiguredCatalogueOptions,
): ServerSnapshot[] | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(at.file);
  } catch {
    return undefined;
  }
  const payload = openSealed(MAGIC, at.key, bytes);
  const servers = payload ? decodeCatalogue(payload)?.servers : undefined;
  // Each entry answers for the tool-list cache's lifetime from when it was listed, as readCachedSnapshot decides.
  const fresh = (s: ServerSnapshot): boolean =>
    s.cachedAt !== undefined && opts.now - s.cachedAt >= 0 && opts.now - s.cachedAt < opts.ttlMs;
  return servers?.every(fresh) ? servers : undefined;
}

/** Caches servers that all came from settled tool-list cache entries unchanged since `at` was taken (best effort). */
export async function writeConfiguredCatalogue(
  at: ConfiguredKey,
  servers: readonly ServerSnapshot[],
  opts: ConfiguredCatalogueOptions,
): Promise<void> {
  if (!servers.every((s) => s.cached === true && s.status === 'ok')) return;
  const same = at.entries.every((entry, i) => at.key.split('\n')[i]!.endsWith(`,${JSON.stringify(identity(entry))}]`));
  const settled = at.entries.every((entry) => {
    const st = statSync(entry, { throwIfNoEntry: false });
    return st !== undefined && Math.max(st.mtimeMs, st.ctimeMs) <= opts.now - RACY_MS;
  });
  if (!same || !settled) return;
  await writeFileSafe(at.file, sealBytes(MAGIC, at.key, encodeCatalogue(servers, ''))).catch(() => undefined);
}
