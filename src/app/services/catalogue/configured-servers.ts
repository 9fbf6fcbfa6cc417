/**
 * The catalogue start cache of configured servers answered from the tool-list cache (cache folder `catalogue/`, as
 * app/services/catalogue/snapshot-files.ts does for --snapshot files): when every selected server's list comes from its tool-list cache
 * entry, the next run reads those servers — checked, scrubbed, each tool cut to what ranking reads — from one file
 * instead of parsing and checking every entry again. It is trusted only while each entry file has the same device,
 * inode, size, modification and change time, while the servers keep their names and sources, and while every entry
 * is still within the tool-list cache's lifetime; entries changed less than RACY_MS before are not cached.
 */
import { oauthLogin, toolCacheFile, toolCacheKey } from '../../../core/connect/cache.js';
import { serverIdentity, type ServerOrigin } from '../../../core/connect/server-identity.js';
import type { DeclaredCapabilities } from '../../../core/declared-capabilities.js';
import type { ServerDefinition, ServerSnapshot } from '../../../core/types.js';
import { catalogueFile, readSealedCatalogue, settled, stampOf, writeSealedCatalogue } from './cache-file.js';

const MAGIC = new TextEncoder().encode('mcp-smart/configured-catalogue'); // 30 bytes

export interface ConfiguredCatalogueOptions {
  /** The cache folder (the tool-list cache's). */
  dir: string;
  ttlMs: number;
  now: number;
  oauthStore?: string;
  capabilities?: DeclaredCapabilities;
  /** Where local servers start from: their entries' keys follow their files (server-identity.ts). */
  origin?: ServerOrigin;
}

/** Where the entries of these definitions stand: the start cache's file and key, and the entries' identities. */
export interface ConfiguredKey {
  file: string;
  key: string;
  entries: string[];
  /** Each entry's identity when the key was taken (the key holds them too). */
  ids: string[];
}

/** The key of these definitions' entries; undefined when one has no entry (it must be listed) or no login to key. */
export async function configuredKey(
  defs: readonly ServerDefinition[],
  opts: ConfiguredCatalogueOptions,
): Promise<ConfiguredKey | undefined> {
  // The logins are independent reads of the OAuth store: taken together, not one server after another.
  const logins = await Promise.all(defs.map((def) => oauthLogin(def, opts.oauthStore)));
  const entries: string[] = [];
  const ids: string[] = [];
  const lines: string[] = [];
  for (const [i, def] of defs.entries()) {
    const login = logins[i];
    if (login === undefined) return undefined;
    const entry = toolCacheFile(
      opts.dir,
      toolCacheKey(def, login, opts.capabilities, serverIdentity(def, opts.origin)),
    );
    const id = stampOf(entry)?.id;
    if (id === undefined) return undefined;
    entries.push(entry);
    ids.push(id);
    lines.push(JSON.stringify([def.name, def.source ?? null, entry, id]));
  }
  const file = catalogueFile(opts.dir, 'c-', ['configured', defs.map((d) => d.name).join('\0')]);
  return { file, key: lines.join('\n'), entries, ids };
}

/** The servers as the last run that read them all from the tool-list cache left them; undefined when not trusted. */
export function readConfiguredCatalogue(
  at: ConfiguredKey,
  opts: ConfiguredCatalogueOptions,
): ServerSnapshot[] | undefined {
  const servers = readSealedCatalogue(at.file, MAGIC, at.key)?.servers;
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
  // One stat per entry answers both: the same file as when the key was taken, and changed long enough ago.
  const unchangedAndSettled = at.entries.every((entry, i) => {
    const stamp = stampOf(entry);
    return stamp !== undefined && stamp.id === at.ids[i] && settled(stamp, opts.now);
  });
  if (unchangedAndSettled) await writeSealedCatalogue(at.file, MAGIC, at.key, servers, '');
}
