/** The audit per client (result.clients): terminal table, markdown and the HTML section. JSON carries it as is. */
import type { ChalkInstance } from 'chalk';
import type { AuditClient, AuditResult } from '../core/audit/index.js';
import { countOf, formatShare, formatTokens } from './format.js';
import { renderMarkdownTable } from './markdown.js';
import { renderTable, type TableSpec } from './table.js';

/** Worth a section when more than one client (or group) loads servers, or one is over its limit. */
function shown(r: AuditResult): readonly AuditClient[] {
  const clients = r.clients ?? [];
  return clients.length > 1 || clients.some(overLimit) ? clients : [];
}

const overLimit = (c: AuditClient): boolean => c.toolLimit !== undefined && c.toolCount > c.toolLimit;

function limitCell(c: AuditClient): string {
  if (c.toolLimit === undefined) return '';
  return overLimit(c) ? `${formatTokens(c.toolLimit)} (over)` : formatTokens(c.toolLimit);
}

function clientsSpec(r: AuditResult, clients: readonly AuditClient[]): TableSpec {
  return {
    head: ['client', 'servers', 'tools', 'tool limit', 'full', `of ${formatTokens(r.window)}`, 'compact', 'minimal'],
    rows: clients.map((c) => [
      c.label,
      c.failed.length > 0 ? `${c.servers.length} (${c.failed.length} failed)` : c.servers.length,
      formatTokens(c.toolCount),
      limitCell(c),
      formatTokens(c.tokens.full),
      formatShare(c.tokens.full / r.window),
      formatTokens(c.tokens.compact),
      formatTokens(c.tokens.minimal),
    ]),
    right: [1, 2, 3, 4, 5, 6, 7],
  };
}

const NOTE = 'Each client sends only its own servers: these totals, not the sum above, are what one request carries.';

function serverLists(clients: readonly AuditClient[]): string[] {
  return clients.map((c) => `  ${c.label}: ${c.servers.join(', ')}`);
}

/** The per-client section for the terminal ('' when there is one client or none). */
export function renderClientsTable(r: AuditResult, chalk: ChalkInstance): string {
  const clients = shown(r);
  if (clients.length === 0) return '';
  return [
    '',
    chalk.bold(`Per client (${countOf(clients.length, 'client')})`),
    renderTable(clientsSpec(r, clients), chalk),
    ...serverLists(clients),
    chalk.dim(NOTE),
    '',
  ].join('\n');
}

/** The per-client section in markdown ('' when there is one client or none). */
export function renderClientsMarkdown(r: AuditResult): string {
  const clients = shown(r);
  if (clients.length === 0) return '';
  return [
    '',
    '### Per client',
    '',
    renderMarkdownTable(clientsSpec(r, clients)),
    '',
    ...clients.map((c) => `- **${c.label}**: ${c.servers.join(', ')}`),
    '',
    `_${NOTE}_`,
    '',
  ].join('\n');
}

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The per-client section of the HTML report ('' when there is one client or none). */
export function renderClientsHtml(r: AuditResult): string {
  const clients = shown(r);
  if (clients.length === 0) return '';
  const max = Math.max(1, ...clients.map((c) => c.tokens.full));
  const rows = clients.map(
    (c) =>
      `<tr data-client="${esc(c.client)}"><td>${esc(c.label)}</td><td>${c.servers.map(esc).join(', ')}${c.failed.length > 0 ? ` <span class="sev error">${c.failed.length} FAILED</span>` : ''}</td>` +
      `<td class="n">${formatTokens(c.toolCount)}</td><td class="n">${overLimit(c) ? `<span class="sev warning">over ${formatTokens(c.toolLimit!)}</span>` : esc(limitCell(c))}</td>` +
      `<td><div class="bar"><i style="width:${Math.round((c.tokens.full / max) * 1400) / 10}px"></i><span>${formatTokens(c.tokens.full)}</span></div></td>` +
      `<td class="n">${formatShare(c.tokens.full / r.window)}</td><td class="n">${formatTokens(c.tokens.compact)}</td><td class="n">${formatTokens(c.tokens.minimal)}</td></tr>`,
  );
  return `<h2>Per client</h2>
<p class="muted">${esc(NOTE)}</p>
<table class="clients"><thead><tr><th>client</th><th>servers</th><th class="n">tools</th><th class="n">tool limit</th><th>full</th><th class="n">of ${formatTokens(r.window)}</th><th class="n">compact</th><th class="n">minimal</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
`;
}
