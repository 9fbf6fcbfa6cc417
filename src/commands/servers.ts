/** `mcp-smart servers`: lists configured servers (name, transport, source, enabled) without connecting. */
import { redactUrl } from '../core/redact.js';
import { isAbsolute, relative, sep } from 'node:path';
import { SmartError } from '../errors.js';
import type { DefinitionResult } from '../core/config/index.js';
import { renderJson, renderMarkdownTable, renderTable, type TableSpec } from '../reporters/format.js';
import type { ServerDefinition, SourceScope, Transport } from '../types.js';
import type { CommandContext, CommandOutcome } from './context.js';
import { loadDefinitions } from './load.js';

export interface ServersEntry {
  name: string;
  transport: Transport;
  source: string;
  enabled: boolean;
  scope: SourceScope;
  autoTransport?: boolean;
  shadowed?: string[];
  /** Why the client would not load it (not approved, refused variable, excluded, …). */
  notLoaded?: string;
}

export interface ServersResult {
  servers: ServersEntry[];
  shadowings: DefinitionResult['shadowings'];
  searched: DefinitionResult['searched'];
  configFile?: string;
  warnings: string[];
}

export const REDACTED = '<redacted>';

function entryOf(d: ServerDefinition): ServersEntry {
  const e: ServersEntry = {
    name: d.name,
    transport: d.transport,
    source: d.source,
    enabled: d.enabled,
    scope: d.scope,
  };
  if (d.autoTransport) e.autoTransport = true;
  if (d.shadowed && d.shadowed.length > 0) e.shadowed = [...d.shadowed];
  if (d.notLoaded) e.notLoaded = d.notLoaded;
  return e;
}

/** A source path as a person reads it: relative inside the project, ~ inside home. */
function displaySource(source: string, cwd: string, home: string): string {
  const hashAt = source.indexOf('#');
  const file = hashAt >= 0 ? source.slice(0, hashAt) : source;
  const rest = hashAt >= 0 ? source.slice(hashAt) : '';
  if (!isAbsolute(file)) return source;
  const inCwd = relative(cwd, file);
  if (inCwd !== '' && !inCwd.startsWith('..') && !isAbsolute(inCwd)) return inCwd + rest;
  const inHome = relative(home, file);
  if (home !== '' && inHome !== '' && !inHome.startsWith('..') && !isAbsolute(inHome)) return `~${sep}${inHome}${rest}`;
  return source;
}

function transportLabel(e: ServersEntry): string {
  return e.autoTransport ? `${e.transport} (sse fallback)` : e.transport;
}

function tableSpec(result: ServersResult, show: (s: string) => string): TableSpec {
  const notesOf = (e: ServersEntry): string =>
    [e.shadowed ? `shadows ${e.shadowed.map(show).join(', ')}` : '', e.notLoaded ?? ''].filter((x) => x).join('; ');
  const withNotes = result.servers.some((e) => notesOf(e) !== '');
  return {
    head: ['name', 'transport', 'source', 'enabled', ...(withNotes ? ['notes'] : [])],
    rows: result.servers.map((e) => [
      e.name,
      transportLabel(e),
      show(e.source),
      e.enabled ? 'yes' : 'no (disabled)',
      ...(withNotes ? [notesOf(e)] : []),
    ]),
  };
}

function summaryLines(result: ServersResult, show: (s: string) => string): string[] {
  const lines: string[] = [];
  for (const s of result.shadowings) lines.push(`"${s.name}" in ${show(s.loser)} is shadowed by ${show(s.winner)}.`);
  return lines;
}

function emptyHint(result: ServersResult): string {
  const found = result.searched.filter((s) => s.found).length;
  return (
    `No MCP servers found. Searched ${result.searched.length} location${result.searched.length === 1 ? '' : 's'} (${found} file${found === 1 ? '' : 's'} present; --debug lists them).\n` +
    'Add servers to .mcp.json, or pass --config <file>, --stdio "<command line>" or --url <url>, or try --demo.\n'
  );
}

/** Hides secrets for --debug: env/header values, URL query values, and any expanded variable's value. */
export function redactDefinition(
  d: ServerDefinition,
  env: Record<string, string | undefined>,
  vars: readonly string[],
): Record<string, unknown> {
  const values = vars
    .map((v) => ({ v, value: env[v] }))
    .filter((x): x is { v: string; value: string } => typeof x.value === 'string' && x.value.length >= 3)
    .sort((a, b) => b.value.length - a.value.length || a.v.localeCompare(b.v));
  const scrub = (s: string): string => values.reduce((acc, { v, value }) => acc.split(value).join(`\${${v}}`), s);
  const redactMap = (m: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.keys(m).map((k) => [k, REDACTED]));
  const out: Record<string, unknown> = {
    name: d.name,
    transport: d.transport,
    enabled: d.enabled,
    source: d.source,
    scope: d.scope,
  };
  if (d.command !== undefined) out.command = scrub(d.command);
  if (d.args) out.args = d.args.map(scrub);
  if (d.cwd !== undefined) out.cwd = scrub(d.cwd);
  if (d.url !== undefined) out.url = redactUrl(scrub(d.url));
  if (d.env) out.env = redactMap(d.env);
  if (d.headers) out.headers = redactMap(d.headers);
  if (d.oauth) out.oauth = { ...d.oauth, ...(d.oauth.clientSecret ? { clientSecret: REDACTED } : {}) };
  if (d.autoTransport) out.autoTransport = true;
  if (d.nameFromServer) out.nameFromServer = true;
  if (d.shadowed) out.shadowed = d.shadowed;
  if (d.client) out.client = d.client;
  if (d.layer) out.layer = d.layer;
  if (d.notLoaded) out.notLoaded = d.notLoaded;
  if (d.toolFilter) out.toolFilter = d.toolFilter;
  return out;
}

function debugReport(
  defs: DefinitionResult,
  servers: ServerDefinition[],
  env: Record<string, string | undefined>,
): string {
  const lines = ['Searched locations:'];
  for (const s of defs.searched) lines.push(`  ${s.found ? 'found  ' : 'missing'} ${s.file}`);
  lines.push(`Config file: ${defs.configFile ?? '(none)'}`);
  const resolved = {
    config: defs.config,
    servers: servers.map((d) => redactDefinition(d, env, defs.referencedVars?.[d.name] ?? [])),
  };
  lines.push('Resolved config (env and header values redacted):', JSON.stringify(resolved, null, 2));
  return lines.join('\n') + '\n';
}

/** Lists every configured server with its transport, source file and whether it is enabled. */
export async function runServersCommand(
  ctx: CommandContext,
  args: string[],
  opts: Record<string, unknown>,
): Promise<CommandOutcome<ServersResult>> {
  void args;
  void opts;
  const { io, global, chalk } = ctx;
  const defs = await loadDefinitions(ctx);
  let selected = defs.servers;
  if (global.server.length > 0) {
    const known = new Set(selected.map((s) => s.name));
    for (const name of global.server) {
      if (!known.has(name))
        throw new SmartError('UNKNOWN_SERVER', { name, known: [...known].sort().join(', ') || '(none)' });
    }
    selected = selected.filter((s) => global.server.includes(s.name));
  }
  const result: ServersResult = {
    servers: selected.map(entryOf),
    shadowings: defs.shadowings,
    searched: defs.searched,
    warnings: defs.warnings,
  };
  if (defs.configFile) result.configFile = defs.configFile;

  for (const w of defs.warnings) io.stderr(`warning: ${w}\n`);
  if (global.debug) io.stderr(debugReport(defs, selected, io.env));

  const home = io.env.HOME || io.env.USERPROFILE || '';
  const show = (s: string): string => displaySource(s, io.cwd, home);
  if (global.format === 'json') {
    io.stdout(
      renderJson('servers', {
        servers: result.servers,
        shadowings: result.shadowings,
        searched: result.searched,
        ...(result.configFile ? { configFile: result.configFile } : {}),
      }),
    );
  } else if (result.servers.length === 0) {
    io.stdout(emptyHint(result));
  } else if (global.format === 'markdown') {
    const notes = summaryLines(result, show).map((l) => `- ${l}`);
    io.stdout(`${renderMarkdownTable(tableSpec(result, show))}\n${notes.length ? `\n${notes.join('\n')}\n` : ''}`);
  } else {
    const enabled = result.servers.filter((s) => s.enabled).length;
    const lines = [
      renderTable(tableSpec(result, show), chalk),
      `${result.servers.length} server${result.servers.length === 1 ? '' : 's'}, ${enabled} enabled.`,
      ...summaryLines(result, show),
    ];
    io.stdout(lines.join('\n') + '\n');
  }
  return { result, exitCode: 0 };
}
