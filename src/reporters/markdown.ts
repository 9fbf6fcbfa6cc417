/** Markdown, for PR comments and CI step summaries: the same TableSpec a command's terminal table is built from. */
import { clippedRows, type TableSpec } from './table.js';

/** Text on one line, for a markdown list item or heading: a name holding a newline would break the list. */
export function oneLine(text: string): string {
  return text.replace(/\r\n|\r|\n/g, ' ');
}

/** A GitHub-flavoured markdown table. */
export function renderMarkdownTable(spec: TableSpec): string {
  const right = new Set(spec.right ?? []);
  const esc = (c: string | number): string =>
    String(c)
      .replace(/\|/g, '\\|')
      .replace(/\r\n|\r|\n/g, ' ');
  const lines = [
    `| ${spec.head.map(esc).join(' | ')} |`,
    `| ${spec.head.map((_, i) => (right.has(i) ? '---:' : '---')).join(' | ')} |`,
    ...clippedRows(spec).map((r) => `| ${r.map(esc).join(' | ')} |`),
  ];
  return lines.join('\n');
}
