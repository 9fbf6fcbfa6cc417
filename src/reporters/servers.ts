/** Servers reporter: the configured servers as a table, markdown or the JSON document. */
import { isAbsolute, relative, sep } from 'node:path';
import type { ChalkInstance } from 'chalk';
import { CLIENTS } from '../core/config/clients.js';
import { trustCommands } from '../core/trust/project-gate.js';
import type { ServersEntry, ServersResult } from '../core/servers-list.js';
import type { OutputFormat } from '../core/types.js';
import { renderByFormat } from './index.js';
import { renderJson, serversDocument } from './json.js';
import { renderMarkdownTable } from './markdown.js';
import { renderTable, type TableSpec } from './table.js';

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
      e.enabled ? 'yes' : e.pendingApproval ? 'no (pending approval)' : e.gate ? `no (${e.gate})` : 'no (disabled)',
      ...(withNotes ? [notesOf(e)] : []),
    ]),
  };
}

function summaryLines(result: ServersResult, show: (s: string) => string): string[] {
  const lines: string[] = [];
  const pending = result.servers.filter((e) => e.pendingApproval === true);
  if (pending.length > 0)
    lines.push(
      `${pending.length} server${pending.length === 1 ? '' : 's'} from this project's files not started until approved (${pending.map((e) => e.name).join(', ')}): run \`${trustCommands(pending).join('` and `')}\`, or pass --trust-project for one run.`,
    );
  for (const s of result.shadowings) {
    const line = `"${s.name}" in ${show(s.loser)} is shadowed by ${show(s.winner)}`;
    // Another client's definition is hidden only here: that client still loads its own.
    lines.push(
      s.loserClient
        ? `${line} in mcp-smart's merged list; ${CLIENTS[s.loserClient].label} still loads its own (--client ${s.loserClient}).`
        : `${line}.`,
    );
  }
  return lines;
}

function emptyHint(result: ServersResult): string {
  const found = result.searched.filter((s) => s.found).length;
  // A dotfile link that broke is why its servers are gone: counted apart (its warning names it and its target).
  const broken = result.searched.filter((s) => s.brokenLink !== undefined).length;
  const links =
    broken > 0
      ? `; ${broken} broken symbolic link${broken === 1 ? '' : 's'}, named in the warning${broken === 1 ? '' : 's'} above`
      : '';
  return (
    `No MCP servers found. Searched ${result.searched.length} location${result.searched.length === 1 ? '' : 's'} (${found} ` +
    `file${found === 1 ? '' : 's'} present${links}; --debug lists them).\n` +
    'Add servers to .mcp.json, or pass --config <file>, --stdio "<command line>" or --url <url>, or try --demo.\n'
  );
}

/** The stdout text of `servers` in the chosen format; `cwd` and `home` shorten source paths for reading. */
export function renderServers(
  result: ServersResult,
  opts: { format: OutputFormat; chalk: ChalkInstance; cwd: string; home: string },
): string {
  const show = (s: string): string => displaySource(s, opts.cwd, opts.home);
  const text = (view: () => string) => (): string => (result.servers.length === 0 ? emptyHint(result) : view());
  return renderByFormat(opts.format, {
    json: () => renderJson('servers', serversDocument(result)),
    markdown: text(() => serversMarkdown(result, show)),
    table: text(() => serversTable(result, show, opts.chalk)),
  });
}

function serversMarkdown(result: ServersResult, show: (s: string) => string): string {
  const notes = summaryLines(result, show).map((l) => `- ${l}`);
  return `${renderMarkdownTable(tableSpec(result, show))}\n${notes.length ? `\n${notes.join('\n')}\n` : ''}`;
}

function serversTable(result: ServersResult, show: (s: string) => string, chalk: ChalkInstance): string {
  const enabled = result.servers.filter((s) => s.enabled).length;
  const lines = [
    renderTable(tableSpec(result, show), chalk),
    `${result.servers.length} server${result.servers.length === 1 ? '' : 's'}, ${enabled} enabled.`,
    ...summaryLines(result, show),
  ];
  return lines.join('\n') + '\n';
}
