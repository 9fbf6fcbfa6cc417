/** The terminal table (cli-table3): the default view on a TTY. Each command's reporter builds the TableSpec. */
import { createRequire } from 'node:module';
import type { ChalkInstance } from 'chalk';
import type TableType from 'cli-table3';
import { drawBoxTable } from './box-table.js';
import { visibleText } from '../process/terminal-text.js';

/** cli-table3 is loaded only for a table the plain drawing cannot take (see box-table.ts). */
const loadTable = (): typeof TableType => createRequire(import.meta.url)('cli-table3') as typeof TableType;

export interface TableSpec {
  head: string[];
  rows: (string | number)[][];
  /** Column indexes to right-align (numbers). */
  right?: number[];
  /** Column indexes of names and ids, cut to CLIP_AT characters with an ellipsis (--json keeps them whole). */
  clip?: number[];
}

/** A tool or server name longer than this is cut in a table: a 500-character name would widen every row. */
export const CLIP_AT = 80;

/** The rows with the `clip` columns cut to CLIP_AT characters, ending in "…". */
export function clippedRows(spec: TableSpec): (string | number)[][] {
  const clip = new Set(spec.clip ?? []);
  if (clip.size === 0) return spec.rows;
  return spec.rows.map((r) =>
    r.map((c, i) => (clip.has(i) && typeof c === 'string' && c.length > CLIP_AT ? `${c.slice(0, CLIP_AT - 1)}…` : c)),
  );
}

/**
 * cli-table3 draws a rule between every two rows; ours keep the one under the head only, so a table reads as a list.
 * Borders are plain (no style), so every rule line starts with `├`: the first is the head's, the others go.
 */
function dropRowRules(table: string): string {
  const lines = table.split('\n');
  const head = lines.findIndex((l) => l.startsWith('├'));
  return lines.filter((l, i) => i === head || !l.startsWith('├')).join('\n');
}

/** A cli-table3 table; borders stay plain so the output reads the same with colour off. */
export function renderTable(spec: TableSpec, chalk: ChalkInstance): string {
  const right = new Set(spec.right ?? []);
  // Cells are measured as they will be printed: a server's control characters as their visible escapes.
  const rows = clippedRows(spec).map((r) => r.map((c) => visibleText(String(c))));
  const plain = drawBoxTable(spec.head, rows, right, (h) => chalk.bold(h));
  if (plain !== undefined) return plain;
  const Table = loadTable();
  const table = new Table({
    head: spec.head.map((h) => chalk.bold(h)),
    style: { head: [], border: [] },
    colAligns: spec.head.map((_, i) => (right.has(i) ? 'right' : 'left')),
  });
  for (const row of rows) table.push(row);
  return dropRowRules(table.toString());
}
