/**
 * What `serve` declares to the servers behind it: the roots, elicitation and sampling capabilities its clients
 * declared in their initialize requests, so each server lists the tools those clients would see if they connected
 * to it directly (servers register some tools only for clients that declare a capability). The servers behind are
 * shared by every client session, so over HTTP the declaration is the union of the clients that have initialized.
 */
import { capabilitiesKey, relayedCapabilities, type DeclaredCapabilities } from '../core/declared-capabilities.js';
import { mapLimited, SERVER_START_CONCURRENCY } from '../core/map-limited.js';
import { errorText } from '../process/errors.js';
import type { ServerSnapshot } from '../core/types.js';
import { anyCachedSnapshot } from '../core/connect/cache.js';
import { readListing, storeListing, type ServeSetup } from './setup.js';
import { isObject } from '../core/dict.js';

/** a ∪ b at every level (elicitation {form} and {url} give {form, url}); a `true` flag stays once declared. */
export function mergeCapabilities(a: DeclaredCapabilities, b: DeclaredCapabilities): DeclaredCapabilities {
  return union(a as Record<string, unknown>, b as Record<string, unknown>);
}

function union(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const had = out[key];
    out[key] = isObject(had) && isObject(value) ? union(had, value) : had === true ? true : value;
  }
  return out;
}

/** Whether merging `more` into `caps` would change nothing. */
function covers(caps: Record<string, unknown>, more: Record<string, unknown>): boolean {
  for (const [key, value] of Object.entries(more)) {
    if (!(key in caps)) return false;
    const had = caps[key];
    if (isObject(value) ? !isObject(had) || !covers(had, value) : had !== value && had !== true) return false;
  }
  return true;
}

export class Declaration {
  private caps: DeclaredCapabilities = {};
  private keyOf = capabilitiesKey({});

  current(): DeclaredCapabilities {
    return this.caps;
  }

  key(): string {
    return this.keyOf;
  }

  /**
   * Adds what a client declared; true when the declaration changed. A 2026-07-28 client declares on every request,
   * so a declaration already held returns at once (no merge, no key). The union only grows, over the few forms a
   * relayed declaration can take (core/declared-capabilities.ts), so it changes a bounded number of times.
   */
  add(clientCapabilities: Record<string, unknown> | undefined): boolean {
    const relayed = relayedCapabilities(clientCapabilities);
    if (covers(this.caps as Record<string, unknown>, relayed as Record<string, unknown>)) return false;
    const before = this.keyOf;
    this.caps = mergeCapabilities(this.caps, relayed);
    this.keyOf = capabilitiesKey(this.caps);
    return this.keyOf !== before;
  }
}

export interface Relisting {
  definitions: ServeSetup['definitions'];
  cache: ServeSetup['cache'];
  /** Server name → its list; replaced in place. */
  known: Map<string, ServerSnapshot>;
  /** Lists a server live (restarting it with the current declaration; calls on the old process finish there). */
  list: (server: string) => Promise<ServerSnapshot>;
  /** What the server's running session declared: a list is cached under a declaration only when taken with it. */
  declaredWith: (server: string) => DeclaredCapabilities | undefined;
  now: () => number;
  log: (text: string) => void;
  /** A server's list arrived (serve re-serves as each arrives once a client has been answered). */
  listed?: (server: string) => Promise<void>;
}

/**
 * Takes every server's list as seen with `caps` declared: from the tool-list cache (keyed by capabilities), else
 * live, storing what was listed. A server that cannot be listed keeps the list it had, with a warning.
 */
export async function relistWith(caps: DeclaredCapabilities, r: Relisting): Promise<void> {
  // A cache folder with no tool list (a first start) is not looked up for each server.
  const cached = r.cache !== null && anyCachedSnapshot(r.cache.dir);
  // Re-listing may restart every server: as many at once as any other start (map-limited.ts).
  await mapLimited(r.definitions, SERVER_START_CONCURRENCY, async (def) => {
    const hit = cached ? await readListing(def, r.cache, r.now(), caps) : undefined;
    if (hit) return void r.known.set(def.name, hit);
    // Never listed yet: its first start (runtime.listUnknown) declares `caps` already; not started twice.
    if (!r.known.has(def.name)) return;
    try {
      const snap = await r.list(def.name);
      r.known.set(def.name, snap);
      await r.listed?.(def.name);
      if (capabilitiesKey(r.declaredWith(def.name)) !== capabilitiesKey(caps)) return;
      await storeListing(def, snap, r.cache, r.now(), caps).catch((e: unknown) => r.log(`warning: ${errorText(e)}`));
    } catch (e) {
      r.log(`warning: ${errorText(e)}; its list as this client would see it is not known yet`);
    }
  });
}
