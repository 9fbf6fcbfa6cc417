/** Which files are mcp-smart's own: our config (by location, name or shape), and files we wrote given as --config. */
import { basename } from 'node:path';
import { SmartError } from '../../process/errors.js';
import type { ClientId, ConfigLayer } from '../types.js';
import { isPlainObject } from './key-path.js';

const SMART_ONLY_KEYS = ['budget', 'thresholds', 'baseline', 'patterns', 'weights', 'keywords', 'cache'];
const SMART_KEYS = new Set([...SMART_ONLY_KEYS, '$schema', 'servers', 'mcpServers']);

export interface SourceFile {
  file: string;
  scope: 'project' | 'user' | 'explicit';
  client?: ClientId;
  layer?: ConfigLayer;
  smart?: boolean;
}

/** Our own config: by location, by file name, or by shape (only our keys, at least one of ours only). */
export function isSmartConfig(source: SourceFile, doc: unknown): boolean {
  if (source.smart === true || /^mcp-smart([.-].*)?\.json$/i.test(basename(source.file))) return true;
  if (!isPlainObject(doc)) return false;
  const keys = Object.keys(doc);
  return keys.some((k) => SMART_ONLY_KEYS.includes(k)) && keys.every((k) => SMART_KEYS.has(k));
}

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

export function firstIssue(file: string, issues: { key: string; reason: string }[]): SmartError {
  const [first] = issues;
  const more =
    issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''} in this file)` : '';
  return new SmartError('CONFIG_INVALID', { file, key: first?.key ?? '', reason: `${first?.reason ?? ''}${more}` });
}
