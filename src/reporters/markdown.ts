/** Markdown, for PR comments and CI step summaries: the same TableSpec a command's terminal table is built from. */
import type { TableSpec } from './table.js';

/** A GitHub-flavoured markdown table. */
export function renderMarkdownTable(spec: TableSpec): string {
  const right = new Set(spec.right ?? []);
  const esc = (c: string | number): string => String(c).replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [
    `| ${spec.head.map(esc).join(' | ')} |`,
    `| ${spec.head.map((_, i) => (right.has(i) ? '---:' : '---')).join(' | ')} |`,
    ...spec.rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ];
  return lines.join('\n');
}
