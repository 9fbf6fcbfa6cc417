/** The derived scope (issue 38.3) as text: per project (and user), its tools with their call counts, most first. */
import type { DerivedScope } from '../core/session/scope.js';

/** At most this many tools per scope in text (--json has them all). */
const SHOWN = 20;

export function describeScopes(scopes: readonly DerivedScope[], here: string, store: string): string {
  if (scopes.length === 0)
    return `No derived scope in ${store}: no learned call carried a project or a user yet (serve records the directory it runs in).\n`;
  const lines = [`Scope derived from use in ${store} (project keys hash the directory; ${here} is this one):`];
  for (const s of scopes) {
    const mark = s.key === here ? ' (this directory)' : '';
    lines.push(`  ${s.kind} ${s.key}${mark}: ${s.tools.length} tool(s), ${fmt(s.calls)} call(s)`);
    for (const t of s.tools.slice(0, SHOWN)) lines.push(`    ${t.id}  ${fmt(t.calls)}`);
    if (s.tools.length > SHOWN) lines.push(`    … and ${s.tools.length - SHOWN} more (--json lists them all)`);
  }
  return lines.join('\n') + '\n';
}

/** One line per scope for replay: its key, then its first tools with their calls. */
export function scopeLines(scopes: readonly DerivedScope[], tools = 5): string[] {
  return scopes.map((s) => {
    const more = s.tools.length > tools ? `, … ${s.tools.length - tools} more` : '';
    const list = s.tools
      .slice(0, tools)
      .map((t) => `${t.id} ${fmt(t.calls)}`)
      .join(', ');
    return `  ${s.kind} ${s.key} (${fmt(s.calls)} calls): ${list}${more}`;
  });
}

/** Counts are whole unless a decayed store made them fractional. */
const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(1));
