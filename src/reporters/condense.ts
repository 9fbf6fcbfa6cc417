/** Condense reporter: before/after per server. The definitions themselves go to JSON (-o or --json). */
import type { ChalkInstance } from 'chalk';
import type { CondenseOutput } from '../core/condense/result.js';
import type { OutputFormat } from '../core/types.js';
import { formatDelta, formatTokens } from './format.js';
import { renderByFormat } from './index.js';
import { renderJson } from './json.js';
import { renderMarkdownTable } from './markdown.js';
import { renderTable, type TableSpec } from './table.js';

export function renderCondenseSummary(
  r: CondenseOutput,
  opts: { format: 'table' | 'markdown'; chalk: ChalkInstance; output?: string },
): string {
  const spec: TableSpec = {
    head: ['server', 'tools', 'before', 'after', 'change'],
    rows: [
      ...r.servers.map((s) => [
        s.name,
        s.tools.length,
        formatTokens(s.tokens.before),
        formatTokens(s.tokens.after),
        formatDelta(s.tokens.after - s.tokens.before, s.tokens.before),
      ]),
      [
        'TOTAL',
        r.servers.reduce((n, s) => n + s.tools.length, 0),
        formatTokens(r.before.tokens),
        formatTokens(r.after.tokens),
        formatDelta(r.after.tokens - r.before.tokens, r.before.tokens),
      ],
    ],
    right: [1, 2, 3, 4],
  };
  const title =
    `Condensed to level "${r.level}" (${r.encoding}, ${r.render} rendering): ${formatTokens(r.before.tokens)} → ` +
    `${formatTokens(r.after.tokens)} tokens`;
  const wrote = opts.output ? `Wrote ${opts.output}` : undefined;
  if (opts.format === 'markdown')
    return [`## ${title}`, '', renderMarkdownTable(spec), ...(wrote ? ['', wrote] : [])].join('\n') + '\n';
  return [opts.chalk.bold(title), renderTable(spec, opts.chalk), ...(wrote ? [wrote] : [])].join('\n') + '\n';
}

/** The condense document (--json, also what -o writes) or the before/after summary. */
export function renderCondense(
  r: CondenseOutput,
  opts: { format: OutputFormat; chalk: ChalkInstance; output?: string },
): string {
  const summary = (format: 'table' | 'markdown') => (): string =>
    renderCondenseSummary(r, { format, chalk: opts.chalk, output: opts.output });
  return renderByFormat(opts.format, {
    json: () => renderJson('condense', r),
    markdown: summary('markdown'),
    table: summary('table'),
  });
}
