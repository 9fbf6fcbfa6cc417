/**
 * Served names: kept as the server sent them unless two servers collide, then a collision-free prefix;
 * every name fits the strictest client limit including the client's own prefix. Claude Code sends
 * `mcp__<key>__<name>` and several model APIs reject more than 64 characters or a dot; Cursor caps
 * key + name at 60. Longer names are cut with a short hash of the tool id, so they stay stable.
 */
import { createHash } from 'node:crypto';

/** Characters every client and model API accepts in a tool name. */
const UNSAFE = /[^A-Za-z0-9_-]/g;
const MODEL_API_LIMIT = 64;
const CURSOR_TOTAL_LIMIT = 60;
const HASH_CHARS = 6;

/** The longest served name that fits every known client when this server is configured under `key`. */
export function maxServedNameLength(key: string): number {
  const claudeCode = MODEL_API_LIMIT - `mcp__${key}__`.length;
  const cursor = CURSOR_TOTAL_LIMIT - key.length;
  return Math.max(HASH_CHARS + 2, Math.min(claudeCode, cursor, MODEL_API_LIMIT));
}

const shortHash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, HASH_CHARS);

/** `name` with unsafe characters replaced and cut to `max` with a hash of `id` when needed. */
export function fitName(name: string, id: string, max: number): string {
  const safe = name.replace(UNSAFE, '_') || 'tool';
  if (safe.length <= max) return safe;
  return `${safe.slice(0, max - HASH_CHARS - 1)}_${shortHash(id)}`;
}

export interface NameRequest {
  server: string;
  name: string;
}

/**
 * Served names for items in the given order (servers sorted, items in server order). Names that appear on more
 * than one server, or that equal a `reserved` name (the meta-tools), get `<server>_` in front. Deterministic.
 */
export function assignServedNames(
  items: readonly NameRequest[],
  key: string,
  reserved: readonly string[] = [],
): string[] {
  const max = maxServedNameLength(key);
  const servers = new Map<string, Set<string>>();
  for (const it of items) {
    let set = servers.get(it.name);
    if (!set) servers.set(it.name, (set = new Set()));
    set.add(it.server);
  }
  const taken = new Set<string>(reserved);
  const out: string[] = [];
  for (const it of items) {
    const id = `${it.server}.${it.name}`;
    const collides = (servers.get(it.name)?.size ?? 0) > 1 || reserved.includes(it.name);
    let name = fitName(collides ? `${it.server}_${it.name}` : it.name, id, max);
    // Two distinct names can still meet after replacing characters or cutting: add the hash.
    if (taken.has(name)) name = `${name.slice(0, max - HASH_CHARS - 1)}_${shortHash(id)}`;
    for (let n = 2; taken.has(name); n++) name = `${name.slice(0, max - 3)}_${n}`;
    taken.add(name);
    out.push(name);
  }
  return out;
}
