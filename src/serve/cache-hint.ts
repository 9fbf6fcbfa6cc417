/**
 * serve's `ttlMs` / `cacheScope` on the list results it gives 2026-07-28 clients (SEP-2549) — tools/list,
 * prompts/list, resources/list and resources/templates/list — derived from the servers behind it:
 *
 * - `ttlMs` is the shortest any contributing server promised for its own list of that kind, and no longer than
 *   that list stays fresh in serve's tool-list cache (which keeps every list of a server). A 2025 server promises
 *   nothing (it may change its list and say so only by a notification), so any 2025 server contributing makes it
 *   0, as does a server not listed yet (it may still contribute). A server without that kind of list (it did not
 *   declare prompts, or resources) contributes nothing.
 * - `cacheScope` is `private` when the list may depend on who asks: a contributing server is remote (its list can
 *   depend on the user's login or credentials), was started with environment values (a token passed there), or
 *   said `private` itself. A list built only from local servers without any of these is `public`.
 *
 * A resources/read result forwarded from one server (`readCacheHint`) keeps that server's own hint, made
 * `private` when the server is credentialed; a 2025 server's read promises nothing (0, `private`: it is content).
 */
import type { ServerDefinition, ServerSnapshot } from '../core/types.js';

export interface ListCacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/** The lists that carry a cache hint, by their key in a snapshot. */
export type HintedList = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

export interface CacheHintInputs {
  definitions: readonly ServerDefinition[];
  /** The known lists by server name (live or from the cache). */
  known: ReadonlyMap<string, ServerSnapshot>;
  /** The tool-list cache's lifetime, when serve uses the cache. */
  cacheTtlMs?: number;
  now: number;
}

/** Whether what a server answers may depend on credentials it was given (remote, or env values). */
export function credentialed(def: ServerDefinition): boolean {
  if (def.url !== undefined || def.transport === 'http' || def.transport === 'sse') return true;
  return Object.keys(def.env ?? {}).length > 0;
}

/** A server's own hint for one of its lists; undefined for a 2025 server (or a list it gave none for). */
export function ownHint(snap: ServerSnapshot, list: HintedList): ListCacheHint | undefined {
  return list === 'tools' ? snap.listCache : snap.listCaches?.[list];
}

/** Whether a listed server has this kind of list at all (tools always; the others when it declared them). */
const contributes = (snap: ServerSnapshot, list: HintedList): boolean =>
  list === 'tools' ||
  (list === 'prompts'
    ? snap.prompts !== undefined
    : snap.resources !== undefined || snap.resourceTemplates !== undefined);

export function listCacheHint(inputs: CacheHintInputs, list: HintedList = 'tools'): ListCacheHint {
  let ttlMs = Number.MAX_SAFE_INTEGER;
  let cacheScope: ListCacheHint['cacheScope'] = 'public';
  for (const def of inputs.definitions) {
    const snap = inputs.known.get(def.name);
    if (snap?.status === 'ok' && !contributes(snap, list)) continue;
    if (credentialed(def)) cacheScope = 'private';
    const own = snap?.status === 'ok' ? ownHint(snap, list) : undefined;
    if (!snap || !own) {
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

/** The tools/list hint (kept under its first name). */
export const toolListCacheHint = (inputs: CacheHintInputs): ListCacheHint => listCacheHint(inputs, 'tools');

const validTtl = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * The hint for a resources/read result of `def`'s server: its own valid `ttlMs` (else 0) and its own `cacheScope`,
 * made `private` when the server is credentialed or gave none.
 */
export function readCacheHint(def: ServerDefinition | undefined, result: Record<string, unknown>): ListCacheHint {
  const ttlMs = validTtl(result.ttlMs) ? result.ttlMs : 0;
  const cacheScope = def && !credentialed(def) && result.cacheScope === 'public' ? 'public' : 'private';
  return { ttlMs, cacheScope };
}
