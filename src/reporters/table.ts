/** The terminal table (cli-table3): the default view on a TTY. Each command's reporter builds the TableSpec. */
import Table from 'cli-table3';
import type { ChalkInstance } from 'chalk';

export interface TableSpec {
  head: string[];
  rows: (string | number)[][];
  /** Column indexes to right-align (numbers). */
  right?: number[];
}

/** A cli-table3 table; borders stay plain so the output reads the same with colour off. */
export function renderTable(spec: TableSpec, chalk: ChalkInstance): string {
  const right = new Set(spec.right ?? []);
  const table = new Table({
    head: spec.head.map((h) => chalk.bold(h)),
    style: { head: [], border: [] },
    colAligns: spec.head.map((_, i) => (right.has(i) ? 'right' : 'left')),
  });
  for (const row of spec.rows) table.push(row.map((c) => String(c)));
  return table.toString();
}
