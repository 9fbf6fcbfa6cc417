/** Finds the server maps inside a parsed config document, whichever client wrote it. Pure. */
import { SmartError } from '../../errors.js';
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

/**
 * Every server map in `doc`: `mcpServers` (Claude, Cursor, Windsurf, Gemini, Cline, Roo), `servers` (VS Code
 * mcp.json), `mcp.servers` (VS Code settings), `mcp_servers` (Codex TOML), and Claude Code's per-project
 * `projects[<cwd>].mcpServers`. Undefined when the document has none of these keys.
 */
export function findServerGroups(
  doc: unknown,
  file: string,
  opts: { cwd: string; platform: NodeJS.Platform },
): ServerGroup[] | undefined {
  if (!isPlainObject(doc)) {
    throw new SmartError('CONFIG_INVALID', {
      file,
      key: '(top level)',
      reason: `expected an object, got ${describeType(doc)}.`,
    });
  }
  const groups: ServerGroup[] = [];
  let recognised = false;
  const candidates: KeyPart[][] = [['mcpServers'], ['servers'], ['mcp', 'servers'], ['mcp.servers'], ['mcp_servers']];
  for (const at of candidates) {
    if (at.length === 2 && !isPlainObject(doc.mcp)) continue;
    const present =
      at.length === 1 ? doc[at[0] as string] !== undefined : isPlainObject(doc.mcp) && doc.mcp.servers !== undefined;
    if (!present) continue;
    const entries = mapAt(doc, at, file);
    recognised = true;
    if (entries) groups.push({ at, entries });
  }
  if (isPlainObject(doc.projects)) {
    const want = normalizeProjectPath(opts.cwd, opts.platform);
    recognised = true;
    for (const [key, project] of Object.entries(doc.projects)) {
      if (normalizeProjectPath(key, opts.platform) !== want || !isPlainObject(project)) continue;
      const at = ['projects', key, 'mcpServers'];
      const entries = mapAt(doc, at, file);
      if (entries) groups.push({ at, entries, projectEntry: key });
    }
  }
  return recognised ? groups : undefined;
}
