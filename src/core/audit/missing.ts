/**
 * Issue 36, no silent shrinkage, as an audit finding: each server of the committed baseline that this run did not
 * reach although a config still defines it (it failed, waits for an approval, or is the definition that shadows the
 * one the baseline measured), with its tools and tokens — distinct from a server removed on purpose, which is not
 * listed (core/budget/missing.ts decides which). The same words as `check`'s SERVER_MISSING failure. Pure.
 */
import type { MissingServer } from '../budget/missing.js';
import { FINDING_SEVERITY, type Finding } from './findings.js';

const tools = (n: number): string => `${n} tool${n === 1 ? '' : 's'}`;

/** Why the server was not reached, in the words `check` and `audit` both print (shadowing included). */
export function missingWhy(m: MissingServer): string {
  const why =
    m.reason === 'failed'
      ? `it failed: ${m.detail}`
      : `${m.reason === 'pending-approval' ? 'it waits for approval in mcp-smart' : 'its client does not load it'}: ${m.detail}`;
  return why + (m.shadows ? ` (this definition shadows ${m.shadows.join(', ')})` : '');
}

/** The first five tool ids, then how many in all. */
export function shownTools(ids: readonly string[]): string {
  return ids.slice(0, 5).join(', ') + (ids.length > 5 ? `, … (${ids.length} in all)` : '');
}

/** One SERVER_MISSING finding (severity error) per missing server; `update` is the command that accepts the loss. */
export function missingServerFindings(missing: readonly MissingServer[], baseline: string, update: string): Finding[] {
  return missing.map((m) => ({
    code: 'SERVER_MISSING',
    severity: FINDING_SEVERITY.SERVER_MISSING,
    server: m.server,
    message:
      `Server ${m.server} of the baseline ${baseline} was not reached, so its ${tools(m.tools.length)} (${m.tokens} tokens) ` +
      `are missing from this audit: ${shownTools(m.tools)}. Not removed on purpose: ${missingWhy(m)}. ` +
      `Fix it, or if it is gone for good, run: ${update}`,
    value: m.tokens,
  }));
}
