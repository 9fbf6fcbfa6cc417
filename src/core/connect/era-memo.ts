/**
 * The protocol version each server answered in, for the rest of this process: a server seen modern is reached
 * pinned at once, and a Streamable HTTP server seen in the 2025 era is not probed with `server/discover` again.
 * Seeded from the tool-list cache (cache.ts), so a known 2025 HTTP server is not probed on every run either.
 * No SDK import here: the cache reads it on the start path.
 */
import type { ServerDefinition } from '../types.js';

const remembered = new Map<string, string>();

/** Who a server is for the era memo: how it is reached, never its secrets' values (only their names). */
function identity(def: ServerDefinition): string {
  return JSON.stringify([def.transport, def.url, def.command, def.args, def.cwd, Object.keys(def.env ?? {})]);
}

/** The version this server answered in earlier in this process (or in the cache's last listing of it). */
export function rememberedVersion(def: ServerDefinition): string | undefined {
  return remembered.get(identity(def));
}

/** Records the version a server answered in (undefined forgets it). */
export function rememberVersion(def: ServerDefinition, version: string | undefined): void {
  if (version) remembered.set(identity(def), version);
  else remembered.delete(identity(def));
}

/** A version from an earlier run (the cache), unless this process has seen the server itself. */
export function seedVersion(def: ServerDefinition, version: unknown): void {
  if (typeof version === 'string' && version && !remembered.has(identity(def))) remembered.set(identity(def), version);
}
