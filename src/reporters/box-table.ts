/**
 * The box table cli-table3 draws for our TableSpecs (with a rule under the head only, see table.ts), drawn directly:
 * the same characters, padding and alignment, for cells of printable ASCII on one line (width = length). renderTable falls back to cli-table3 for anything else
 * (wide or combining characters, newlines, colour codes inside cells). cli-table3 builds an options object per
 * cell, which cost ~0.1 s for the 111-server catalogue's tables.
 */
const PLAIN = /^[\x20-\x7e]*$/;

/** The table, or undefined when a cell needs cli-table3's width rules. `head` cells may be styled by `style`. */
export function drawBoxTable(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  right: ReadonlySet<number>,
  style: (head: string) => string,
): string | undefined {
  const cols = head.length;
  for (const r of [head, ...rows]) {
    if (r.length !== cols) return undefined;
    for (const c of r) if (!PLAIN.test(c)) return undefined;
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)) + 2);
  const rule = (l: string, m: string, r: string): string => l + widths.map((w) => '─'.repeat(w)).join(m) + r;
  const line = (cells: readonly string[], paint: (s: string) => string = (s) => s): string =>
    '│' +
    cells
      .map((c, i) => {
        const pad = ' '.repeat(widths[i]! - 2 - c.length);
        return ` ${right.has(i) ? pad + paint(c) : paint(c) + pad} `;
      })
      .join('│') +
    '│';
  const out = [rule('┌', '┬', '┐'), line(head, style)];
  if (rows.length > 0) out.push(rule('├', '┼', '┤'));
  for (const r of rows) out.push(line(r));
  out.push(rule('└', '┴', '┘'));
  return out.join('\n');
}
