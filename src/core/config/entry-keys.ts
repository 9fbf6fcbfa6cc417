/** Keys of a server entry: a key that looks like a typo of one we read is a warning ("did you mean env?"). Pure. */
import { closestKey, formatKeyPath, isPlainObject, type KeyPart } from './key-path.js';

/** Keys mcp-smart reads from a server entry. */
const READ = [
  'command',
  'args',
  'env',
  'envFile',
  'cwd',
  'disabled',
  'enabled',
  'url',
  'httpUrl',
  'serverUrl',
  'headers',
  'http_headers',
  'env_http_headers',
  'bearer_token_env_var',
  'type',
  'transport',
  'transportType',
  'includeTools',
  'excludeTools',
  'enabled_tools',
  'disabled_tools',
  'disabledTools',
];

/**
 * Keys a client documents for its own use that mcp-smart does not read, but that sit within a typo's reach of one it
 * does: never warned. VS Code `.vscode/mcp.json`: `dev` (`{"watch": "src/**\/*.ts", "debug": {...}}`, its
 * development mode; a near-miss of `env`).
 */
const CLIENT_KEYS = ['dev'];

const FILTER_KEYS = ['includeTools', 'excludeTools', 'enabled_tools', 'disabled_tools', 'disabledTools'];

/** Longer spellings people write for the keys we read. */
const ALIASES: Record<string, string> = {
  environment: 'env',
  environments: 'env',
  arguments: 'args',
  argv: 'args',
  cmd: 'command',
  header: 'headers',
  workingDirectory: 'cwd',
  endpoint: 'url',
};

/** Warnings for keys of `entry` that are near-misses of keys we read; other clients' own keys pass silently. */
export function entryKeyWarnings(entry: unknown, at: readonly KeyPart[], file: string): string[] {
  if (!isPlainObject(entry)) return [];
  const out: string[] = [];
  const candidates = [...READ, ...Object.keys(ALIASES)];
  for (const key of Object.keys(entry)) {
    if (READ.includes(key) || CLIENT_KEYS.includes(key)) continue;
    const near = closestKey(key, candidates);
    if (near === undefined) continue;
    const meant = Object.prototype.hasOwnProperty.call(ALIASES, near) ? ALIASES[near]! : near;
    out.push(`${file}: ${formatKeyPath([...at, key])}: unknown key "${key}" is ignored. Did you mean "${meant}"?`);
  }
  return out;
}

/**
 * In mcp-smart.config.json a near-miss of a tool filter key is an error, not a warning: ignoring "excludeTool"
 * would show the model tools the user meant to hide. The message names the key path and the key meant.
 */
export function filterKeyTypo(entry: unknown, at: readonly KeyPart[]): { key: string; reason: string } | undefined {
  if (!isPlainObject(entry)) return undefined;
  for (const key of Object.keys(entry)) {
    if (READ.includes(key)) continue;
    const near = closestKey(key, FILTER_KEYS);
    if (near !== undefined)
      return {
        key: formatKeyPath([...at, key]),
        reason: `unknown key "${key}": a tool filter that is not read would hide nothing. Did you mean "${near}"?`,
      };
  }
  return undefined;
}
