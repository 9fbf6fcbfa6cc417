/** Finds the server maps inside a parsed config document, whichever client wrote it. Pure. */
import { basename, dirname } from 'node:path';
import { SmartError } from '../../process/errors.js';
import type { ClientId } from '../types.js';
import { clientLabel } from './clients.js';
import { describeType, formatKeyPath, isPlainObject, type KeyPart } from './key-path.js';

export interface ServerGroup {
  /** Key path of the map inside the document. */
  at: KeyPart[];
  entries: Record<string, unknown>;
  /** Claude Code's `projects[<cwd>]` entry: project level although it lives in a user file. */
  projectEntry?: string;
}

function normalizeProjectPath(p: string, platform: NodeJS.Platform): string {
  let out = p.replace(/[\\/]+$/, '');
  if (platform === 'win32') out = out.replace(/\\/g, '/').toLowerCase();
  return out === '' ? '/' : out;
}

function mapAt(doc: Record<string, unknown>, at: KeyPart[], file: string): Record<string, unknown> | undefined {
  let v: unknown = doc;
  for (const k of at) {
    if (!isPlainObject(v)) return undefined;
    v = v[k as string];
  }
  if (v === undefined || v === null) return undefined;
  if (!isPlainObject(v)) {
    throw new SmartError('CONFIG_INVALID', {
      file,
      key: formatKeyPath(at),
      reason: `expected an object mapping server names to their settings, got ${describeType(v)}.`,
    });
  }
  return v;
}

function valueAt(doc: Record<string, unknown>, at: KeyPart[]): unknown {
  let v: unknown = doc;
  for (const k of at) v = isPlainObject(v) ? v[k as string] : undefined;
  return v;
}

const ALL_MAPS: KeyPart[][] = [['mcpServers'], ['servers'], ['mcp', 'servers'], ['mcp.servers'], ['mcp_servers']];

/**
 * The server maps each client reads. Cline: "mcpServers" only (docs.cline.bot/mcp/configuring-mcp-servers); VS Code:
 * "servers" in mcp.json and "mcp.servers" in settings.json (code.visualstudio.com/docs/copilot/reference/mcp-configuration);
 * Codex: [mcp_servers.<name>] (openai/codex docs/config.md); the rest: "mcpServers".
 */
function mapsReadBy(client: ClientId | undefined): KeyPart[][] {
  if (client === undefined) return ALL_MAPS;
  if (client === 'vscode') return [['servers'], ['mcp', 'servers'], ['mcp.servers']];
  if (client === 'codex') return [['mcp_servers']];
  return [['mcpServers']];
}

const keyPresent = (doc: Record<string, unknown>, at: KeyPart[]): boolean =>
  at.length === 1 ? doc[at[0] as string] !== undefined : isPlainObject(doc.mcp) && doc.mcp.servers !== undefined;

export interface ServerGroups {
  groups: ServerGroup[];
  /** Server maps in the file that its client does not read, as key paths. */
  ignored: string[];
  /** Keys holding no servers because their value has the wrong shape (null, a number …): warnings naming key and fix. */
  problems: string[];
}

/**
 * Every server map in `doc` that `client` reads (all known maps when the file has no client), plus Claude Code's
 * per-project `projects[<cwd>].mcpServers`. Undefined when the document has none of these keys and no client.
 */
export function findServerGroups(
  doc: unknown,
  file: string,
  opts: { cwd: string; platform: NodeJS.Platform; client?: ClientId },
): ServerGroups | undefined {
  if (!isPlainObject(doc)) {
    throw new SmartError('CONFIG_INVALID', {
      file,
      key: '(top level)',
      reason: `expected an object, got ${describeType(doc)}.`,
    });
  }
  const groups: ServerGroup[] = [];
  const ignored: string[] = [];
  const problems: string[] = [];
  const problem = (at: KeyPart[], got: unknown, expected: string, fix: string): void => {
    problems.push(
      `${file}: ${formatKeyPath(at)}: expected ${expected}, got ${describeType(got)}, so no servers are read from it. ${fix}`,
    );
  };
  let recognised = opts.client !== undefined;
  const read = new Set(mapsReadBy(opts.client).map((at) => at.join('\u0000')));
  for (const at of ALL_MAPS) {
    if (at.length === 2 && !isPlainObject(doc.mcp)) {
      // VS Code's settings.json keeps servers under "mcp": a value there that is not an object holds none.
      if (read.has(at.join('\u0000')) && doc.mcp !== undefined && opts.client === 'vscode')
        problem(['mcp'], doc.mcp, 'an object with "servers"', 'Write it as {"servers": {…}} or remove it.');
      continue;
    }
    if (!keyPresent(doc, at)) continue;
    if (!read.has(at.join('\u0000'))) {
      ignored.push(formatKeyPath(at));
      continue;
    }
    const entries = mapAt(doc, at, file);
    recognised = true;
    if (entries) groups.push({ at, entries });
    else if (valueAt(doc, at) === null)
      problem(at, null, 'an object mapping server names to their settings', 'Write {} or remove the key.');
  }
  // Only Claude Code keeps per-project servers in its user file (a Codex [projects] table holds trust levels).
  const claudeUser = opts.client === 'claude-code' && basename(file).toLowerCase() === '.claude.json';
  if (claudeUser && doc.projects !== undefined && !isPlainObject(doc.projects))
    problem(
      ['projects'],
      doc.projects,
      'an object mapping project folders to their settings',
      'Fix or remove the key.',
    );
  if ((opts.client === undefined || opts.client === 'claude-code') && isPlainObject(doc.projects)) {
    const want = normalizeProjectPath(opts.cwd, opts.platform);
    recognised = true;
    for (const [key, project] of Object.entries(doc.projects)) {
      if (normalizeProjectPath(key, opts.platform) !== want) continue;
      if (!isPlainObject(project)) {
        problem(['projects', key], project, "an object with this project's settings", 'Fix or remove the entry.');
        continue;
      }
      const at = ['projects', key, 'mcpServers'];
      const entries = mapAt(doc, at, file);
      if (entries) groups.push({ at, entries, projectEntry: key });
      else if (project.mcpServers === null)
        problem(at, null, 'an object mapping server names to their settings', 'Write {} or remove the key.');
    }
  }
  return recognised ? { groups, ignored, problems } : undefined;
}

/** The `projects[<cwd>]` object of a user file, if any (Claude Code: local servers and approval state; Codex: trust). */
export function projectEntryFor(
  doc: unknown,
  cwd: string,
  platform: NodeJS.Platform,
): Record<string, unknown> | undefined {
  if (!isPlainObject(doc) || !isPlainObject(doc.projects)) return undefined;
  const want = normalizeProjectPath(cwd, platform);
  for (const [key, project] of Object.entries(doc.projects)) {
    if (normalizeProjectPath(key, platform) === want && isPlainObject(project)) return project;
  }
  return undefined;
}

const GEMINI_SERVER_KEYS = ['httpUrl', 'includeTools', 'excludeTools', 'trust', 'authProviderType', 'oauth'];
const GEMINI_TOP_KEYS = [
  'allowMCPServers',
  'excludeMCPServers',
  'general',
  'ui',
  'model',
  'tools',
  'context',
  'security',
];

function isGeminiShaped(doc: Record<string, unknown>): boolean {
  if (GEMINI_TOP_KEYS.some((k) => doc[k] !== undefined)) return true;
  if (isPlainObject(doc.mcp) && (doc.mcp.allowed !== undefined || doc.mcp.excluded !== undefined)) return true;
  const servers = doc.mcpServers;
  if (!isPlainObject(servers)) return false;
  return Object.values(servers).some((e) => isPlainObject(e) && GEMINI_SERVER_KEYS.some((k) => e[k] !== undefined));
}

/**
 * The client a `--config` file belongs to: by its well-known name, else by its shape — a Gemini settings file means
 * the same at .gemini/settings.json as under any other name. Undefined: read it permissively (every known map).
 */
export function detectClient(file: string, doc: unknown, syntax: 'json' | 'toml'): ClientId | undefined {
  if (syntax === 'toml') return 'codex';
  const name = basename(file).toLowerCase();
  const dir = basename(dirname(file)).toLowerCase();
  if (dir === '.gemini' && name === 'settings.json') return 'gemini';
  if (isPlainObject(doc) && isGeminiShaped(doc)) return 'gemini';
  if (name === '.mcp.json' || name === '.claude.json') return 'claude-code';
  if (name === 'claude_desktop_config.json') return 'claude-desktop';
  if (name === 'cline_mcp_settings.json') return 'cline';
  if (name === 'mcp_settings.json' || (dir === '.roo' && name === 'mcp.json')) return 'roo';
  if (name === 'mcp_config.json' && dir === 'windsurf') return 'windsurf';
  if (dir === '.cursor' && name === 'mcp.json') return 'cursor';
  if (dir === '.vscode' && name === 'mcp.json') return 'vscode';
  return undefined;
}

/** A server map the file's client does not read: named with the map that client does read. */
export function ignoredMapWarning(file: string, key: string, client: ClientId | undefined): string {
  const label = clientLabel(client);
  const reads = client === 'vscode' ? '"servers"' : client === 'codex' ? '[mcp_servers.<name>]' : '"mcpServers"';
  const why = client === 'cline' ? 'Cline requires "mcpServers"' : `${label} reads ${reads}`;
  return `${file}: ${key}: ${label} does not read this map (${why}), so ${label} loads none of its servers.`;
}
