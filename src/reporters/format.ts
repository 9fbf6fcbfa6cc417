/** Small shared formatting helpers for reporters: numbers, deltas, tables. */
import { createRequire } from 'node:module';
import type { ChalkInstance } from 'chalk';
import type TableType from 'cli-table3';
import { drawBoxTable } from './box-table.js';

/** cli-table3 is loaded only for a table the plain drawing cannot take (see box-table.ts). */
const loadTable = (): typeof TableType => createRequire(import.meta.url)('cli-table3') as typeof TableType;

/** 12345 → "12,345". Grouped by hand: building an Intl.NumberFormat costs ~20 ms of start-up. */
export function formatTokens(n: number): string {
  const rounded = Math.round(n);
  const digits = String(Math.abs(rounded)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return rounded < 0 ? `-${digits}` : digits;
}

/** "1 tool", "2,781 tools": a count with its noun, singular or plural, thousands separated. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatTokens(n)} ${n === 1 ? singular : plural}`;
}

/**
 * A percentage with one decimal, or more where one would misstate it: a 99.97 % cut is not "100.0%", and a
 * change of 0.04 % is not "0.0%".
 */
function percentText(pct: number): string {
  const text = pct.toFixed(1);
  if (pct === 0 || pct === 100 || (text !== '0.0' && text !== '100.0')) return text;
  for (const digits of [2, 3]) {
    const finer = pct.toFixed(digits);
    if (Number(finer) !== 0 && Number(finer) !== 100) return finer;
  }
  return pct < 50 ? '<0.001' : '>99.999';
}

/** Signed delta with a percentage: "+120 (+4.1%)", "-3 (-0.2%)", "0 (0.0%)"; growth from nothing is "new". */
export function formatDelta(delta: number, before: number): string {
  const sign = delta > 0 ? '+' : delta < 0 ? '-' : '';
  if (before === 0 && delta !== 0) return `${sign}${formatTokens(Math.abs(delta))} (new)`;
  const pct = before === 0 ? 0 : (Math.abs(delta) / before) * 100;
  return `${sign}${formatTokens(Math.abs(delta))} (${sign}${percentText(pct)}%)`;
}

/** 0.1234 → "12.3%". */
export function formatShare(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`;
}

export interface TableSpec {
  head: string[];
  rows: (string | number)[][];
  /** Column indexes to right-align (numbers). */
  right?: number[];
}

/** A cli-table3 table; borders stay plain so the output reads the same with colour off. */
export function renderTable(spec: TableSpec, chalk: ChalkInstance): string {
  const right = new Set(spec.right ?? []);
  const plain = drawBoxTable(
    spec.head,
    spec.rows.map((r) => r.map((c) => String(c))),
    right,
    (h) => chalk.bold(h),
  );
  if (plain !== undefined) return plain;
  const Table = loadTable();
  const table = new Table({
    head: spec.head.map((h) => chalk.bold(h)),
    style: { head: [], border: [] },
    colAligns: spec.head.map((_, i) => (right.has(i) ? 'right' : 'left')),
  });
  for (const row of spec.rows) table.push(row.map((c) => String(c)));
  return table.toString();
}

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

/** The JSON reporter: one document, schemaVersion and command first, stable key order. */
export function renderJson(command: string, body: object): string {
  return JSON.stringify({ schemaVersion: 1, command, ...body }, null, 2) + '\n';
}
