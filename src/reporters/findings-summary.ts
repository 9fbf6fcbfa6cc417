/** The findings on a terminal: every one when there are few, else one line per code (the full list is in --json and --html). */
import { SEVERITY_RANK, type Finding, type Severity } from '../core/audit/index.js';
import { formatTokens } from './format.js';

/** Up to this many findings are listed one per line. */
export const FINDINGS_LISTED = 20;
/** Places named per code when findings are grouped. */
const PLACES_PER_CODE = 3;

const where = (f: Finding): string =>
  f.tool ? `${f.server}.${f.tool}` : f.server === '*' && f.client !== undefined ? `${f.client} *` : f.server;

/** Lines for the findings (without the heading); `paint` colours the severity word. */
export function findingLines(findings: readonly Finding[], paint: Record<Severity, (t: string) => string>): string[] {
  const width = Math.max(0, ...findings.map((f) => f.code.length));
  const sev = (s: Severity): string => paint[s](s.toUpperCase().padEnd(7));
  if (findings.length <= FINDINGS_LISTED)
    return findings.map((f) => `  ${sev(f.severity)} ${f.code.padEnd(width)}  ${where(f)}: ${f.message}`);
  const groups = new Map<string, Finding[]>();
  for (const f of findings) groups.set(f.code, [...(groups.get(f.code) ?? []), f]);
  const ordered = [...groups.values()].sort(
    (a, b) =>
      SEVERITY_RANK[a[0]!.severity] - SEVERITY_RANK[b[0]!.severity] ||
      b.length - a.length ||
      (a[0]!.code < b[0]!.code ? -1 : 1),
  );
  const lines = ordered.map((g) => {
    const first = g[0]!;
    const places = g.slice(0, PLACES_PER_CODE).map(where).join(', ');
    const more = g.length > PLACES_PER_CODE ? ` and ${formatTokens(g.length - PLACES_PER_CODE)} more` : '';
    const count = `×${formatTokens(g.length)}`.padStart(6);
    return `  ${sev(first.severity)} ${first.code.padEnd(width)} ${count}  ${places}${more} (e.g. ${first.message})`;
  });
  lines.push(
    `  ${formatTokens(findings.length)} findings grouped by code: the full list is in --json and --html <file>.`,
  );
  return lines;
}
