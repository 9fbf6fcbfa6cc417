/**
 * serve's `ttlMs` / `cacheScope` on the tools/list results it gives 2026-07-28 clients (SEP-2549), derived from
 * the servers behind it:
 *
 * - `ttlMs` is the shortest any server behind promised for its own list, and no longer than its list stays fresh
 *   in serve's tool-list cache. A 2025 server promises nothing (it may change its list and say so only by a
 *   notification, which a 2026-07-28 client of serve does not receive yet), so any 2025 server makes it 0.
 * - `cacheScope` is `private` when the list may depend on who asks: a server behind is remote (its list can
 *   depend on the user's login or credentials) or said `private` itself. A list built only from local servers
 *   that did not say so is `public`.
 */
import type { ServerDefinition, ServerSnapshot } from '../types.js';

export interface ListCacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

export interface CacheHintInputs {
  definitions: readonly ServerDefinition[];
  /** The known lists by server name (live or from the cache). */
  known: ReadonlyMap<string, ServerSnapshot>;
  /** The tool-list cache's lifetime, when serve uses the cache. */
  cacheTtlMs?: number;
  now: number;
}

export function toolListCacheHint(inputs: CacheHintInputs): ListCacheHint {
  let ttlMs = Number.MAX_SAFE_INTEGER;
  let cacheScope: ListCacheHint['cacheScope'] = 'public';
  for (const def of inputs.definitions) {
    const snap = inputs.known.get(def.name);
    if (def.url !== undefined || def.transport === 'http' || def.transport === 'sse') cacheScope = 'private';
    const own = snap?.listCache;
    if (!own) {
      ttlMs = 0;
      continue;
    }
    if (own.cacheScope === 'private') cacheScope = 'private';
    ttlMs = Math.min(ttlMs, own.ttlMs);
    if (inputs.cacheTtlMs !== undefined) {
      const age = snap.cachedAt !== undefined ? Math.max(0, inputs.now - snap.cachedAt) : 0;
      ttlMs = Math.min(ttlMs, Math.max(0, inputs.cacheTtlMs - age));
    }
  }
  return { ttlMs: ttlMs === Number.MAX_SAFE_INTEGER ? 0 : ttlMs, cacheScope };
}
