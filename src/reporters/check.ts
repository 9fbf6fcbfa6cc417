/** Check reporter: table, JSON, markdown (PR comments, step summaries) and GitHub annotations. */
import type { ChalkInstance } from 'chalk';
import type { CheckResult } from '../core/budget/check-result.js';
import { parseGrowthLimit } from '../core/budget/threshold.js';
import type { OutputFormat } from '../core/types.js';
import { countOf, formatDelta, formatTokens, missLines } from './format.js';
import { renderAnnotation } from './github.js';
import { renderByFormat } from './index.js';
import { renderJson } from './json.js';
import { oneLine, renderMarkdownTable } from './markdown.js';
import { renderTable, type TableSpec } from './table.js';

export interface RenderOptions {
  format: OutputFormat;
  chalk: ChalkInstance;
}

const MAX_ROWS = 50;

function changesTable(r: CheckResult): TableSpec {
  const rows = r.changes
    .slice(0, MAX_ROWS)
    .map((c) => [c.id, c.kind, formatTokens(c.before), formatTokens(c.after), formatDelta(c.delta, c.before)]);
  if (r.changes.length > MAX_ROWS) rows.push([`… ${r.changes.length - MAX_ROWS} more`, '', '', '', '']);
  return { head: ['tool', 'change', 'before', 'after', 'delta'], rows, right: [2, 3, 4], clip: [0] };
}

function headline(r: CheckResult): string {
  if (r.updated) {
    return r.updated.written
      ? `Baseline ${r.baseline} written: ${countOf(r.updated.servers, 'server')}, ${formatTokens(r.updated.tokens)} tokens (${r.encoding}).`
      : `Baseline ${r.baseline} is up to date: ${countOf(r.updated.servers, 'server')}, ${formatTokens(r.updated.tokens)} tokens (${r.encoding}).`;
  }
  const { before, after, delta } = r.totals;
  // A limit in tokens says so ("500 tokens"); a percentage keeps its sign ("5%").
  const limitRead = parseGrowthLimit(r.thresholds.maxGrowth);
  const growth =
    limitRead?.kind === 'tokens' ? `${formatTokens(limitRead.value)} tokens` : String(r.thresholds.maxGrowth);
  const limit = `allowed growth ${growth}${r.thresholds.max !== undefined ? `, max ${formatTokens(r.thresholds.max)}` : ''}`;
  const tokens = `tool tokens ${formatTokens(before)} → ${formatTokens(after)}, ${formatDelta(delta, before)} (${limit}; ${r.encoding})`;
  // The headline names the check that failed: a recall-only or no-server failure is not a token failure.
  const failed = new Set(r.failures.map((f) => f.code));
  if (failed.has('NO_SERVER_ANSWERED')) return `FAIL: no server could be reached; nothing was compared`;
  if (!r.passed && failed.size > 0 && [...failed].every((c) => c === 'RECALL_BELOW') && r.retrieval) {
    const q = r.retrieval;
    return `FAIL: hybrid Recall@${q.k} ${q.recall.toFixed(3)} is below the minimum ${q.minRecall ?? ''}; ${tokens.replace('tool tokens', 'tool tokens within limits,')}`;
  }
  return `${r.passed ? 'PASS' : 'FAIL'}: ${tokens}`;
}

function retrievalLine(r: CheckResult): string | undefined {
  const q = r.retrieval;
  if (!q) return undefined;
  const min = q.minRecall !== undefined ? ` (minimum ${q.minRecall})` : '';
  const line = `${q.passed ? 'PASS' : 'FAIL'}: hybrid Recall@${q.k} ${q.recall.toFixed(3)}${min}, MRR ${q.mrr.toFixed(3)} over ${countOf(q.cases, 'intent')} from ${q.queries}`;
  return [line, ...missLines(q)].join('\n');
}

/**
 * What stands in for the changes table when it has no row: nothing changed, or, when no server answered, that nothing
 * was compared ("No tool changed." read as a clean comparison although none took place).
 */
function noChangesLine(r: CheckResult): string | undefined {
  if (r.updated) return undefined;
  if (!r.failures.some((f) => f.code === 'NO_SERVER_ANSWERED')) return 'No tool changed.';
  const tools = r.missing.reduce((n, m) => n + m.tools.length, 0);
  return tools > 0
    ? `No tool was compared: the baseline's ${countOf(tools, 'tool')} went unchecked.`
    : 'No tool was compared.';
}

/** The markdown view, for PR comments and $GITHUB_STEP_SUMMARY. */
export function renderCheckMarkdown(r: CheckResult): string {
  const parts = [`### mcp-smart check: ${r.passed ? '✅ PASS' : '❌ FAIL'}`, '', oneLine(headline(r))];
  const rl = retrievalLine(r);
  if (rl) parts.push('', rl);
  if (r.failures.length > 0) parts.push('', ...r.failures.map((f) => `- **${f.code}**: ${oneLine(f.message)}`));
  const none = noChangesLine(r);
  if (r.changes.length > 0) parts.push('', renderMarkdownTable(changesTable(r)));
  else if (none !== undefined) parts.push('', none);
  if (r.unavailable.length > 0) parts.push('', oneLine(`Not reachable (left out): ${r.unavailable.join(', ')}`));
  return parts.join('\n') + '\n';
}

/** GitHub annotations: one ::error per failure, one ::warning per grown or changed tool and unreachable server. */
function renderCheckAnnotations(r: CheckResult): string {
  const file = r.baseline;
  const lines = r.failures.map((f) =>
    renderAnnotation({ level: 'error', file, title: `mcp-smart ${f.code}`, message: f.message }),
  );
  for (const w of r.warnings.slice(0, MAX_ROWS))
    lines.push(renderAnnotation({ level: 'warning', file, title: `mcp-smart ${w.code}`, message: w.message }));
  for (const u of r.unavailable)
    lines.push(
      renderAnnotation({
        level: 'warning',
        title: 'mcp-smart server unreachable',
        message: `${u} could not be reached; left out of the check`,
      }),
    );
  lines.push(headline(r));
  const rl = retrievalLine(r);
  if (rl) lines.push(rl);
  return lines.join('\n') + '\n';
}

/** Renders a check result in the chosen format; under github the command also appends the markdown to the step summary. */
export function renderCheck(r: CheckResult, opts: RenderOptions): string {
  return renderByFormat(opts.format, {
    json: () => renderJson('check', r),
    markdown: () => renderCheckMarkdown(r),
    github: () => renderCheckAnnotations(r),
    table: () => checkTable(r, opts.chalk),
  });
}

function checkTable(r: CheckResult, c: ChalkInstance): string {
  const parts = [r.passed ? c.green(headline(r)) : c.red(headline(r))];
  const rl = retrievalLine(r);
  if (rl) parts.push(rl);
  for (const f of r.failures) parts.push(c.red(`  ✖ ${f.code}: ${f.message}`));
  const none = noChangesLine(r);
  if (r.changes.length > 0) parts.push(renderTable(changesTable(r), c));
  else if (none !== undefined) parts.push(none);
  return parts.join('\n') + '\n';
}
