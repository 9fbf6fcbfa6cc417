/** Budget reporter: table, markdown and JSON views of a budget result. */
import type { ChalkInstance } from 'chalk';
import type { BudgetResult } from '../core/budget/result.js';
import type { OutputFormat } from '../core/types.js';
import { countOf, formatShare, formatTokens } from './format.js';
import { renderByFormat } from './index.js';
import { renderJson } from './json.js';
import { loadHintsLine } from './load-hints.js';
import { renderMarkdownTable } from './markdown.js';
import { renderTable, type TableSpec } from './table.js';

export interface RenderOptions {
  format: OutputFormat;
  chalk: ChalkInstance;
}

const ACTION_TEXT: Record<string, string> = {
  'condense-lossless': 'condense lossless (same validation, every description kept)',
  'condense-compact': 'condense compact (prose shortened)',
  defer: 'defer behind the meta-tools (find_tool, describe_tool, list_tools, call_tool, call_tool_read)',
  'drop-unused': 'drop tools never used',
  'names-only': 'names only for tools outside the intent top-k',
};

function stepText(s: BudgetResult['plan'][number]): string {
  let text = ACTION_TEXT[s.action] ?? s.action;
  if (s.metaTokens !== undefined) text += `; meta-tools add ${formatTokens(s.metaTokens)}`;
  if (s.calls !== undefined) text += ` (${countOf(s.calls, 'recorded call')})`;
  if (s.tools && s.tools.length > 0)
    text += `: ${s.tools.slice(0, 5).join(', ')}${s.tools.length > 5 ? ` +${s.tools.length - 5} more` : ''}`;
  return text;
}

function tables(r: BudgetResult): { servers: TableSpec; plan: TableSpec } {
  return {
    servers: {
      head: ['server', 'tools', 'tokens', 'share of max'],
      rows: r.servers.map((s) =>
        s.status === 'error'
          ? [s.name, '-', 'unreachable', '-']
          : [s.name, s.toolCount, formatTokens(s.tokens), formatShare(s.share)],
      ),
      right: [1, 2, 3],
      clip: [0],
    },
    plan: {
      head: ['#', 'step', 'target', 'saves', 'after'],
      rows: r.plan.map((s, i) => [
        i + 1,
        stepText(s),
        s.target === '*' ? 'all servers' : s.target,
        formatTokens(s.tokensSaved),
        formatTokens(s.after),
      ]),
      right: [0, 3, 4],
      clip: [2],
    },
  };
}

/** PASS only when every server was measured; with one missing, OVER still shows (a floor) and a fit is INCOMPLETE. */
function verdictWord(r: BudgetResult): string {
  if (r.fits) return 'PASS';
  return r.unmeasured.length > 0 && r.used <= r.limit ? 'INCOMPLETE' : 'OVER';
}

function headline(r: BudgetResult): string {
  const near = r.nearLimit
    ? ` — near the limit (${formatShare(r.used / Math.max(1, r.limit))} of it used; reserve threshold 80%)`
    : '';
  const missing = r.unmeasured.length;
  const uses =
    missing === 0
      ? 'tool context uses'
      : `the servers that answered ${verdictWord(r) === 'OVER' ? 'already use' : 'use'}`;
  const text =
    `${verdictWord(r)}: ${uses} ${formatTokens(r.used)} of ${formatTokens(r.limit)} tokens allowed (${formatShare(r.share)} of ` +
    `${formatTokens(r.max)}; ${r.encoding})${near}`;
  if (missing === 0) return text;
  const names = r.unmeasured.slice(0, 5).join(', ') + (missing > 5 ? ` +${missing - 5} more` : '');
  const undecided = verdictWord(r) === 'INCOMPLETE' ? '; whether the tools fit is not known until they answer' : '';
  return `${text}\nNot measured: ${countOf(missing, 'server')} could not be reached (${names})${undecided}.`;
}

function planLine(r: BudgetResult): string {
  if (r.plan.length === 0)
    return r.fits || verdictWord(r) !== 'OVER'
      ? ''
      : `No plan brings it under the limit: no step (condensing, deferring behind the meta-tools, dropping unused tools) ` +
          `saves tokens here, so the least it can reach is ${formatTokens(r.final)} tokens (limit ${formatTokens(r.limit)}). ` +
          'Raise the limit (--max, --share or --limit), or load fewer servers (--server, or disable one in your config).';
  if (r.planFits)
    return `With this plan: ${formatTokens(r.final)} tokens (saves ${formatTokens(r.used - r.final)}), fits.`;
  return `Nothing fits: with every step the tool context still needs ${formatTokens(r.final)} tokens (limit ${formatTokens(r.limit)}).`;
}

/** A plan that does not fit is not announced as one that does. */
function planTitle(r: BudgetResult): string {
  return r.planFits ? 'Plan that fits, least harm first' : 'Every step, least harm first (still over the limit)';
}

/** Renders a budget result in the chosen format. */
export function renderBudget(r: BudgetResult, opts: RenderOptions): string {
  return renderByFormat(opts.format, {
    json: () => renderJson('budget', r),
    markdown: () => budgetMarkdown(r),
    table: () => budgetTable(r, opts.chalk),
  });
}

function budgetMarkdown(r: BudgetResult): string {
  const t = tables(r);
  const parts = [`### mcp-smart budget: ${verdictWord(r)}`, '', headline(r), '', renderMarkdownTable(t.servers)];
  if (r.plan.length > 0) parts.push('', `**${planTitle(r)}**`, '', renderMarkdownTable(t.plan), '', planLine(r));
  else if (planLine(r) !== '') parts.push('', planLine(r));
  if (r.output) parts.push('', `Definitions written to \`${r.output}\`.`);
  if (r.loadHints) parts.push('', loadHintsLine(r.loadHints));
  return parts.join('\n') + '\n';
}

function budgetTable(r: BudgetResult, c: ChalkInstance): string {
  const t = tables(r);
  const head = r.fits ? c.green(headline(r)) : c.red(headline(r));
  const parts = [head, renderTable(t.servers, c)];
  if (r.plan.length > 0) {
    parts.push(
      r.intent ? `Plan for intent "${r.intent.text}" (top ${r.intent.k} keep full schemas):` : `${planTitle(r)}:`,
    );
    parts.push(renderTable(t.plan, c), planLine(r));
  } else if (planLine(r) !== '') parts.push(planLine(r));
  if (r.output) parts.push(`Definitions written to ${r.output}`);
  if (r.loadHints) parts.push(loadHintsLine(r.loadHints));
  return parts.join('\n') + '\n';
}
