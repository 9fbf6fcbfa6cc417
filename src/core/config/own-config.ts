/** Which config files are our own (mcp-smart.config.json's format), and --config files that are not configs. Pure. */
import { basename } from 'node:path';
import { SmartError } from '../../process/errors.js';
import type { ClientId, SmartConfig } from '../types.js';
import { clientLabel } from './clients.js';
import { closestKey, isPlainObject } from './key-path.js';
import { TOP_KEYS } from './validate.js';

/** Our config's keys (validate.ts's list), and those no client's file has: the sections that make a file ours. */
const SMART_KEYS: ReadonlySet<string> = new Set(TOP_KEYS);
const SMART_ONLY_KEYS = TOP_KEYS.filter((k) => !['$schema', 'servers', 'mcpServers', 'user'].includes(k));

/** Where a file was found: our location, its path, and whether --config named it. */
export interface OwnConfigSource {
  file: string;
  scope: 'project' | 'user' | 'explicit';
  smart?: boolean;
}

/**
 * Our own config: by location, by file name, or by shape. A file a client owns (`.mcp.json`, a Gemini or Codex file)
 * is read as that client reads it. Another one is ours when it has one of our own sections (`serve`, `budget`, …) and
 * only our keys, or, given with --config, one of our sections whatever else it has: read and validated whole, so a
 * section is never dropped unread. Undefined: not ours; '' by name or location; else the key that made it ours.
 */
export function smartConfigBy(source: OwnConfigSource, doc: unknown, client: ClientId | undefined): string | undefined {
  if (source.smart === true || /^mcp-smart([.-].*)?\.json$/i.test(basename(source.file))) return '';
  if (client !== undefined || !isPlainObject(doc)) return undefined;
  const keys = Object.keys(doc);
  const own = keys.find((k) => SMART_ONLY_KEYS.includes(k));
  if (own === undefined) return undefined;
  return source.scope === 'explicit' || keys.every((k) => SMART_KEYS.has(k)) ? own : undefined;
}

/** A --config file a client owns that carries our sections: they are not read, and the warning says where they go. */
export function ownSectionsWarning(file: string, doc: unknown, client: ClientId): string | undefined {
  const keys = isPlainObject(doc) ? Object.keys(doc).filter((k) => SMART_ONLY_KEYS.includes(k)) : [];
  if (keys.length === 0) return undefined;
  const list = keys.map((k) => `"${k}"`).join(', ');
  return `${file}: ${list} not read: this is ${clientLabel(client)}'s file, read as it reads it; mcp-smart's own settings belong in mcp-smart.config.json (or a --config file no client owns).`;
}

/** Said with the first problem of a file read as ours by its keys, so a file with another name says why it is checked. */
export const readAsOurs = (key: string): string =>
  key === ''
    ? ''
    : ` (this file is read as mcp-smart's own config, as mcp-smart.config.json is, because it has "${key}")`;

/** The flag that reads each of our own files, for a --config that was given one (a snapshot, a baseline). */
const OWN_FILE_FLAGS: Record<string, string> = {
  snapshot: 'pass it with --snapshot <file>',
  baseline: 'check and audit read it with --baseline <file>',
  usage: 'pass it with --store <file>',
};

/** A --config naming a file mcp-smart wrote (`"format": "mcp-smart/…"`) is refused with the flag that reads it. */
export function refuseOwnFile(file: string, doc: unknown): void {
  const format = isPlainObject(doc) ? doc.format : undefined;
  const kind = typeof format === 'string' ? /^mcp-smart\/([a-z-]+)@/.exec(format)?.[1] : undefined;
  if (kind === undefined) return;
  const use = OWN_FILE_FLAGS[kind] ?? 'it is not a config file';
  throw new SmartError('CONFIG_INVALID', {
    file,
    key: 'format',
    reason: `${JSON.stringify(format)}: this is an mcp-smart ${kind} file, not a list of servers; ${use}.`,
  });
}

/**
 * `serve.servers.<name>` entries that name no configured server: a misspelt name under `load: "off"` or `disable`
 * hides nothing, so each is named in a warning with the servers there are (and the closest one).
 */
export function unknownServeServers(
  serve: SmartConfig['serve'],
  configured: readonly string[],
  file: string | undefined,
): string[] {
  const where = file ?? 'mcp-smart.config.json';
  return Object.keys(serve?.servers ?? {})
    .filter((name) => !configured.includes(name))
    .map((name) => {
      const near = closestKey(name, configured);
      const known = configured.length > 0 ? [...configured].sort().join(', ') : '(none)';
      return `${where}: serve.servers.${name}: no server "${name}" is configured, so this entry applies to nothing.${near ? ` Did you mean "${near}"?` : ''} Servers: ${known}.`;
    });
}
