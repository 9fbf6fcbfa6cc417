// The plain box table is cli-table3's output, byte for byte, for the cells it takes (colour on and off), and
// hands anything else (wide characters, newlines, colour inside cells) back to cli-table3. Both keep one rule,
// under the head: cli-table3's rules between rows are taken out.
import { Chalk } from 'chalk';
import Table from 'cli-table3';
import { describe, expect, it } from 'vitest';
import { drawBoxTable } from '../../src/reporters/box-table.js';
import { renderTable, type TableSpec } from '../../src/reporters/table.js';

function cliTable3(spec: TableSpec, chalk: InstanceType<typeof Chalk>): string {
  const right = new Set(spec.right ?? []);
  const table = new Table({
    head: spec.head.map((h) => chalk.bold(h)),
    style: { head: [], border: [] },
    colAligns: spec.head.map((_, i) => (right.has(i) ? 'right' : 'left')),
  });
  for (const row of spec.rows) table.push(row.map((c) => String(c)));
  // cli-table3 rules off every row; the first rule (under the head) stays.
  const lines = table.toString().split('\n');
  return lines.filter((l, i) => !(l.startsWith('├') && i > 2)).join('\n');
}

/** Deterministic pseudo-random specs: 1–9 columns, 0–30 rows, cells of 0–40 printable ASCII characters. */
function specs(n: number): TableSpec[] {
  let seed = 42;
  const rand = (k: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % k;
  };
  const text = (): string => Array.from({ length: rand(41) }, () => String.fromCharCode(0x20 + rand(0x5f))).join('');
  return Array.from({ length: n }, () => {
    const cols = 1 + rand(9);
    return {
      head: Array.from({ length: cols }, () => text()),
      rows: Array.from({ length: rand(31) }, () =>
        Array.from({ length: cols }, () => (rand(3) === 0 ? rand(100000) : text())),
      ),
      right: Array.from({ length: cols }, (_, i) => i).filter(() => rand(2) === 0),
    };
  });
}

describe('drawBoxTable', () => {
  it('draws one rule, under the head, and none between rows (both drawings)', () => {
    const chalk = new Chalk({ level: 0 });
    const table = (cell: string): string =>
      renderTable(
        {
          head: ['name', 'tokens'],
          rows: [
            [cell, 1_084],
            ['memory', 900],
            ['TOTAL', 1_984],
          ],
          right: [1],
        },
        chalk,
      );
    expect(table('everything')).toBe(
      [
        '┌────────────┬────────┐',
        '│ name       │ tokens │',
        '├────────────┼────────┤',
        '│ everything │   1084 │',
        '│ memory     │    900 │',
        '│ TOTAL      │   1984 │',
        '└────────────┴────────┘',
      ].join('\n'),
    );
    // 'é' is measured by cli-table3 (the fallback): the same shape.
    expect(table('évery')).toBe(
      [
        '┌────────┬────────┐',
        '│ name   │ tokens │',
        '├────────┼────────┤',
        '│ évery  │   1084 │',
        '│ memory │    900 │',
        '│ TOTAL  │   1984 │',
        '└────────┴────────┘',
      ].join('\n'),
    );
  });

  it('draws what cli-table3 draws, with colour off and on', () => {
    for (const level of [0, 1] as const) {
      const chalk = new Chalk({ level });
      for (const spec of specs(300)) expect(renderTable(spec, chalk)).toBe(cliTable3(spec, chalk));
    }
  });

  it('declines cells cli-table3 measures differently, and renderTable still matches cli-table3 there', () => {
    const chalk = new Chalk({ level: 0 });
    for (const cell of ['数据库', 'a\nb', '\x1b[31mred\x1b[39m', 'é']) {
      expect(drawBoxTable(['h'], [[cell]], new Set(), (h) => h)).toBeUndefined();
      const spec = { head: ['name', 'n'], rows: [[cell, 1]], right: [1] };
      expect(renderTable(spec, chalk)).toBe(cliTable3(spec, chalk));
    }
  });
});
