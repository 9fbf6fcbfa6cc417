/**
 * What `adopt <client> --apply` changes in the client's own files, in that client's own terms: the adopted servers
 * turned off (Claude Code: its per-project `disabledMcpServers`; Gemini CLI: `mcp.excluded`; Codex: `enabled =
 * false`; Cline and Roo: `"disabled": true`; Cursor, VS Code, Windsurf, Claude Desktop, which have no such switch:
 * the entry removed) and one `smart` entry added where the client's own add command would put it. Every other
 * server and key stays as it is. Pure.
 */
import type { JSONPath } from 'jsonc-parser';
import { isPlainObject } from '../config/key-path.js';
import { CODEX_STARTUP_KEYS } from './codex-startup.js';
import { SCOPE_FILTER_KEY } from './scope-filter.js';
import { valueAt, type SwitchEdit } from './switch-edit.js';
import type { ClientId } from '../types.js';

/**
 * The name of the entry the switch adds. Clients put it in front of every tool name the model receives (Claude Code
 * and Codex `mcp__<entry>__<tool>`, Gemini CLI `mcp_<entry>_<tool>`), so it is one token: `mcp-smart` is three in
 * o200k_base, and on the demo servers' 40 tools that made the names Claude Code defers 485 tokens instead of 407.
 */
export const SWITCH_ENTRY = 'smart';
/** The name used instead when the client already has a server of that name that the switch keeps. */
export const SWITCH_ENTRY_TAKEN = 'mcp-smart';

/** The entry name for a client whose server names (adopted or kept) are `names`. */
export function switchEntryName(names: readonly string[]): string {
  return names.includes(SWITCH_ENTRY) ? SWITCH_ENTRY_TAKEN : SWITCH_ENTRY;
}

/** One adopted server: its name and the client file its entry is in. */
export interface SwitchTarget {
  name: string;
  source: string;
}

export interface SwitchRequest {
  client: ClientId;
  /** The project folder (Claude Code keys its per-project settings by it). */
  project: string;
  /** The user files the client's own add command writes: Claude Code, Gemini CLI, Codex. */
  userFiles: { claude: string; gemini: string; codex: string };
  adopted: SwitchTarget[];
  /** Each file's parsed document (absent: the file does not exist yet). */
  docs: Map<string, unknown>;
  /** The name of the entry added (switchEntryName). */
  entry: string;
  /** How the client starts serve. */
  launch: { command: string; args: string[] };
  /** Values the client passes to serve (the secrets adopt turned into variables, as the client's file had them). */
  env: Record<string, string>;
  /** Variables the client must pass on by name (Codex `env_vars`; Gemini `$NAME`). */
  passOn: string[];
  /** adopt --scope-from-use: the served names the added entry's own tool filter lists (Gemini CLI, Codex only). */
  filter?: string[];
}

/** The edits of one file. */
export interface FilePlan {
  file: string;
  syntax: 'json' | 'toml';
  edits: SwitchEdit[];
  /** What the switch does there, in words (`turns off a, b (disabledMcpServers)`). */
  says: string[];
}

/** Where the entry `name` sits in a client's JSON document, or undefined. */
export function entryPath(client: ClientId, doc: unknown, name: string, project: string): JSONPath | undefined {
  const candidates: JSONPath[] =
    client === 'claude-code'
      ? [
          ['projects', projectKey(doc, project), 'mcpServers', name],
          ['mcpServers', name],
        ]
      : client === 'vscode'
        ? [
            ['servers', name],
            ['mcp', 'servers', name],
            ['mcpServers', name],
          ]
        : [['mcpServers', name]];
  return candidates.find((p) => valueAt(doc, p) !== undefined);
}

/** Claude Code's key for this project in ~/.claude.json `projects` (the folder as it recorded it). */
export function projectKey(doc: unknown, project: string): string {
  const projects = isPlainObject(doc) ? doc.projects : undefined;
  if (isPlainObject(projects)) {
    const trimmed = project.replace(/[\\/]+$/, '');
    const hit = Object.keys(projects).find((k) => k.replace(/[\\/]+$/, '') === trimmed);
    if (hit !== undefined) return hit;
  }
  return project;
}

function plan(plans: Map<string, FilePlan>, file: string, syntax: FilePlan['syntax']): FilePlan {
  let p = plans.get(file);
  if (!p) plans.set(file, (p = { file, syntax, edits: [], says: [] }));
  return p;
}

const names = (list: SwitchTarget[]): string => list.map((t) => t.name).join(', ');

/** The edits, file by file (the file holding the new entry last). */
export function switchPlan(req: SwitchRequest): FilePlan[] {
  const plans = new Map<string, FilePlan>();
  const { launch, entry: name } = req;
  const env = Object.keys(req.env).length > 0 ? { env: req.env } : {};
  if (req.client === 'claude-code') {
    const file = req.userFiles.claude;
    const key = projectKey(req.docs.get(file), req.project);
    const p = plan(plans, file, 'json');
    p.edits.push({
      kind: 'list-add',
      path: ['projects', key, 'disabledMcpServers'],
      names: req.adopted.map((t) => t.name),
    });
    p.says.push(`turns off ${names(req.adopted)} for this project (disabledMcpServers)`);
    const entry = { type: 'stdio', command: launch.command, args: launch.args, ...env };
    p.edits.push({ kind: 'set', path: ['projects', key, 'mcpServers', name], value: entry });
  } else if (req.client === 'gemini') {
    const file = req.userFiles.gemini;
    const p = plan(plans, file, 'json');
    p.edits.push({ kind: 'list-add', path: ['mcp', 'excluded'], names: req.adopted.map((t) => t.name) });
    p.says.push(`turns off ${names(req.adopted)} (mcp.excluded)`);
    const refs = Object.fromEntries(req.passOn.map((v) => [v, `$${v}`]));
    const all = { ...refs, ...req.env };
    const entry = {
      command: launch.command,
      args: launch.args,
      ...(Object.keys(all).length > 0 ? { env: all } : {}),
      ...(req.filter ? { includeTools: req.filter } : {}),
    };
    p.edits.push({ kind: 'set', path: ['mcpServers', name], value: entry });
    // Gemini connects only to servers in every mcp.allowed list its settings define: the entry goes into each, as
    // written, or Gemini blocks it with the adopted servers already off.
    for (const [file, doc] of req.docs) {
      const allowed = valueAt(doc, ['mcp', 'allowed']);
      if (!Array.isArray(allowed) || allowed.includes(name)) continue;
      const a = plan(plans, file, 'json');
      a.edits.push({ kind: 'list-add', path: ['mcp', 'allowed'], names: [name] });
      a.says.push(`lets "${name}" through (mcp.allowed)`);
    }
  } else if (req.client === 'codex') {
    for (const t of req.adopted) {
      const p = plan(plans, t.source, 'toml');
      p.edits.push({ kind: 'toml-off', table: t.name });
    }
    for (const p of plans.values()) {
      const off = p.edits.flatMap((e) => (e.kind === 'toml-off' ? [e.table] : []));
      p.says.push(`turns off ${off.join(', ')} (enabled = false)`);
    }
    const passOn = req.passOn.filter((v) => !(v in req.env));
    // Codex waits for this entry's tools before the first turn (codex-startup.ts).
    const entry = {
      command: launch.command,
      args: launch.args,
      ...CODEX_STARTUP_KEYS,
      ...env,
      ...(passOn.length > 0 ? { env_vars: passOn } : {}),
      ...(req.filter ? { enabled_tools: req.filter } : {}),
    };
    plan(plans, req.userFiles.codex, 'toml').edits.push({ kind: 'toml-add', table: name, entry });
  } else {
    // Cline and Roo read "disabled": true; the others have no such key, so their entry is removed (the backup keeps it).
    const flag = req.client === 'cline' || req.client === 'roo';
    let container: { file: string; path: JSONPath } | undefined;
    for (const t of req.adopted) {
      const path = entryPath(req.client, req.docs.get(t.source), t.name, req.project);
      if (!path) continue;
      container ??= { file: t.source, path: path.slice(0, -1) };
      const p = plan(plans, t.source, 'json');
      p.edits.push({ kind: 'set', path: flag ? [...path, 'disabled'] : path, value: flag ? true : undefined });
    }
    for (const p of plans.values()) {
      const off = p.edits.map((e) =>
        e.kind === 'set' ? String(e.path[flag ? e.path.length - 2 : e.path.length - 1]) : '',
      );
      p.says.push(flag ? `turns off ${off.join(', ')} ("disabled": true)` : `removes ${off.join(', ')}`);
    }
    if (container) {
      const entry =
        req.client === 'vscode'
          ? { type: 'stdio', command: launch.command, args: launch.args, ...env }
          : { command: launch.command, args: launch.args, ...env };
      plan(plans, container.file, 'json').edits.push({
        kind: 'set',
        path: [...container.path, name],
        value: entry,
      });
    }
  }
  const last = [...plans.values()].filter((p) =>
    p.edits.some((e) => (e.kind === 'set' && e.path.at(-1) === name) || e.kind === 'toml-add'),
  );
  const only = req.filter
    ? `, showing only this project's ${req.filter.length} tools (${SCOPE_FILTER_KEY[req.client] ?? 'filter'})`
    : '';
  for (const p of last) p.says.push(`adds "${name}" (mcp-smart serve on the adopted servers${only})`);
  return [...plans.values()].sort((a, b) => Number(last.includes(a)) - Number(last.includes(b)));
}
