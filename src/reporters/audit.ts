/** Audit reporters: table (cli-table3) and markdown. JSON is renderJson('audit', result). */
import type { ChalkInstance } from 'chalk';
import { topTools, type AuditResult, type HiddenTools, type Severity } from '../core/audit/index.js';
import type { OutputFormat } from '../core/types.js';
import { renderClientsMarkdown, renderClientsTable } from './audit-clients.js';
import { findingLines } from './findings-summary.js';
import { countOf, formatDelta, formatShare, formatTokens } from './format.js';
import { loadHintsLine } from './load-hints.js';
import { renderJson } from './json.js';
import { renderMarkdownTable } from './markdown.js';
import { renderTable, type TableSpec } from './table.js';

const RENDER_TEXT: Record<string, string> = {
  json: 'each tool as an API tools-array entry {"name","description","input_schema"}, compact JSON',
  cline: 'the MCP SERVERS section of a Cline/Roo system prompt (pretty-printed schemas)',
};

/** Which text was counted, and how far to trust it for Claude. */
export function countingNote(r: AuditResult): string {
  return (
    `Counted with ${r.encoding} over ${RENDER_TEXT[r.render] ?? r.render}. For Claude these figures are an approximation: its tokenizer is not ` +
    `public${r.anthropic ? '' : ' (use --anthropic-count for exact figures)'}.`
  );
}

function serverSpec(r: AuditResult): TableSpec {
  const rows = r.servers.map((s) => [
    s.name,
    s.status === 'ok' ? 'ok' : 'FAILED',
    s.toolCount,
    formatTokens(s.tokens.full),
    formatShare(s.tokens.full / r.window),
    formatTokens(s.tokens.lossless),
    formatTokens(s.tokens.compact),
    formatTokens(s.tokens.minimal),
    formatTokens(s.instructionsTokens),
  ]);
  const t = r.totals;
  rows.push([
    'TOTAL',
    '',
    t.toolCount,
    formatTokens(t.tokens.full),
    formatShare(t.tokens.full / r.window),
    formatTokens(t.tokens.lossless),
    formatTokens(t.tokens.compact),
    formatTokens(t.tokens.minimal),
    formatTokens(t.instructionsTokens),
  ]);
  return {
    head: [
      'server',
      'status',
      'tools',
      'full',
      `of ${formatTokens(r.window)}`,
      'lossless',
      'compact',
      'minimal',
      'instructions',
    ],
    rows,
    right: [2, 3, 4, 5, 6, 7, 8],
    clip: [0],
  };
}

function topSpec(r: AuditResult, n: number): TableSpec {
  const total = r.totals.tokens.full;
  return {
    head: ['#', 'tool', 'full', 'share', 'lossless', 'compact', 'minimal'],
    rows: topTools(r, n).map((t, i) => [
      i + 1,
      t.id,
      formatTokens(t.tokens.full),
      formatShare(total === 0 ? 0 : t.tokens.full / total),
      formatTokens(t.tokens.lossless),
      formatTokens(t.tokens.compact),
      formatTokens(t.tokens.minimal),
    ]),
    right: [0, 2, 3, 4, 5, 6],
    clip: [1],
  };
}

function findingsSpec(r: AuditResult): TableSpec {
  return {
    head: ['severity', 'code', 'where', 'message'],
    rows: r.findings.map((f) => [
      f.severity.toUpperCase(),
      f.code,
      f.tool ? `${f.server}.${f.tool}` : f.server,
      f.message,
    ]),
    clip: [2],
  };
}

function levelsLine(r: AuditResult): string {
  const t = r.totals.tokens;
  const pct = (n: number): string =>
    t.full === 0
      ? ''
      : ` (${formatDelta(n - t.full, t.full)
          .replace(/^.*\(/, '')
          .replace(/\)$/, '')})`;
  return (
    `full ${formatTokens(t.full)} · lossless ${formatTokens(t.lossless)}${pct(t.lossless)} · compact ${formatTokens(t.compact)}${pct(t.compact)} ` +
    `· minimal ${formatTokens(t.minimal)}${pct(t.minimal)} · meta ${formatTokens(t.meta)}${pct(t.meta)}`
  );
}

function findingCounts(r: AuditResult): string {
  const count = (s: Severity): number => r.findings.filter((f) => f.severity === s).length;
  return `${countOf(count('error'), 'error')}, ${countOf(count('warning'), 'warning')}, ${formatTokens(count('info'))} info`;
}

/** "2 servers", or "1 of 2 servers (1 failed)" when some could not be reached (their tools are not counted). */
function serversPhrase(r: AuditResult): string {
  const failed = r.servers.filter((s) => s.status === 'error').length;
  if (failed === 0) return countOf(r.servers.length, 'server');
  return `${r.servers.length - failed} of ${countOf(r.servers.length, 'server')} (${failed} failed)`;
}

function anthropicLine(r: AuditResult): string | undefined {
  if (!r.anthropic) return undefined;
  return (
    `Anthropic count (${r.anthropic.model}): ${formatTokens(r.anthropic.total)} tokens — ` +
    `${r.anthropic.servers.map((s) => `${s.name} ${formatTokens(s.tokens)}`).join(', ')}`
  );
}

export function renderAuditTable(r: AuditResult, opts: { top: number; chalk: ChalkInstance }): string {
  const { chalk } = opts;
  const out: string[] = [];
  out.push(
    chalk.bold(
      `Tool context: ${formatTokens(r.totals.tokens.full)} tokens for ${countOf(r.totals.toolCount, 'tool')} on ${serversPhrase(r)} — ${formatShare(r.totals.tokens.full / r.window)} of a ${formatTokens(r.window)}-token window`,
    ),
  );
  out.push(renderTable(serverSpec(r), chalk));
  out.push(`Condensing: ${levelsLine(r)}`);
  const a = anthropicLine(r);
  if (a) out.push(a);
  if (opts.top > 0 && r.totals.toolCount > 0)
    out.push(
      chalk.bold(`Most expensive tools (top ${Math.min(opts.top, r.totals.toolCount)})`),
      renderTable(topSpec(r, opts.top), chalk),
    );
  out.push(chalk.bold(`Findings: ${findingCounts(r)}`));
  const paint: Record<Severity, (t: string) => string> = { error: chalk.red, warning: chalk.yellow, info: chalk.cyan };
  out.push(...findingLines(r.findings, paint));
  if (r.loadHints) out.push(loadHintsLine(r.loadHints));
  out.push(chalk.dim(countingNote(r)));
  return out.join('\n') + '\n';
}

export function renderAuditMarkdown(r: AuditResult, opts: { top: number }): string {
  const out: string[] = [];
  out.push('## MCP tool context audit', '');
  out.push(
    `**${formatTokens(r.totals.tokens.full)} tokens** for ${countOf(r.totals.toolCount, 'tool')} on ${serversPhrase(r)}: ${formatShare(r.totals.tokens.full / r.window)} of a ${formatTokens(r.window)}-token window.`,
    '',
  );
  out.push(renderMarkdownTable(serverSpec(r)), '');
  out.push(`Condensing: ${levelsLine(r)}`, '');
  const a = anthropicLine(r);
  if (a) out.push(a, '');
  if (opts.top > 0 && r.totals.toolCount > 0)
    out.push(`### Most expensive tools`, '', renderMarkdownTable(topSpec(r, opts.top)), '');
  out.push(`### Findings: ${findingCounts(r)}`, '');
  if (r.findings.length > 0) out.push(renderMarkdownTable(findingsSpec(r)), '');
  if (r.loadHints) out.push(loadHintsLine(r.loadHints), '');
  out.push(`_${countingNote(r)}_`);
  return out.join('\n') + '\n';
}

/** The audit in the chosen format: the JSON document, markdown (also for github), or the table. */
export function renderAuditReport(
  r: AuditResult,
  opts: { format: OutputFormat; top: number; chalk: ChalkInstance },
): string {
  if (opts.format === 'json') return renderJson('audit', r);
  const markdown = opts.format === 'markdown' || opts.format === 'github';
  const report = markdown
    ? renderAuditMarkdown(r, { top: opts.top })
    : renderAuditTable(r, { top: opts.top, chalk: opts.chalk });
  const clients = markdown ? renderClientsMarkdown(r) : renderClientsTable(r, opts.chalk);
  return report + clients + hiddenLines(r.hidden ?? []) + notLoadedLines(r.notLoaded ?? []);
}

/** Servers listed but not loaded (a client's trust gate, or pending approval in mcp-smart): never in the totals. */
function notLoadedLines(list: NonNullable<AuditResult['notLoaded']>): string {
  if (list.length === 0) return '';
  const lines = ['', 'Not loaded (not in the totals):'];
  for (const n of list) lines.push(`  ${n.server}: ${n.status}`);
  return lines.join('\n') + '\n';
}

/** Tools hidden by a tool filter (the client's or serve's), apart from the totals above them (nothing when none is hidden). */
function hiddenLines(hidden: readonly HiddenTools[]): string {
  if (hidden.length === 0) return '';
  const lines = ['', 'Hidden by a tool filter (listed by the server, not sent to the model, not in the totals):'];
  for (const h of hidden)
    lines.push(
      `  ${h.server}: ${countOf(h.tools.length, 'tool')}, ${formatTokens(h.tokens)} tokens — ${h.tools.map((t) => t.name).join(', ')}`,
    );
  return lines.join('\n') + '\n';
}
