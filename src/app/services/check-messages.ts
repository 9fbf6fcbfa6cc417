/** What a failed `check` tells the user to do: the failures for missing servers, and the update command that applies. */
import { DEFAULT_BASELINE, type CheckResult, type MissingServer } from '../../core/budget/index.js';
import { missingWhy, shownTools } from '../../core/audit/missing.js';
import { shellQuote } from '../../core/ci-workflow.js';
import { countOf } from '../../reporters/format.js';
import type { AppContext } from './context.js';
import { setupWords } from './next-step-state.js';

/** One SERVER_MISSING failure per baseline server this run did not reach, naming its tools and why. */
export function missingFailures(missing: readonly MissingServer[], update: string): CheckResult['failures'] {
  return missing.map((m) => ({
    code: 'SERVER_MISSING',
    message:
      `server ${m.server} of the baseline was not reached, so its ${countOf(m.tools.length, 'tool')} (${m.tokens} tokens) are missing from this run: ${shownTools(m.tools)}. ` +
      `Not removed on purpose: ${missingWhy(m)}. Fix it, or if it is gone for good, run: ${update}`,
  }));
}

/**
 * The `check --update` that applies to this run: its setup words (-c, --snapshot, -s, …) repeated, so it works as
 * printed where the run needed them (a project whose .mcp.json no client approved, a committed snapshot).
 */
export function updateCommand(global: AppContext['global'], baseline: string | undefined): string {
  const words = [
    'mcp-smart',
    ...setupWords(global),
    ...(global.trustProject === true ? ['--trust-project'] : []),
    'check',
    '--update',
    ...(baseline !== undefined && baseline !== DEFAULT_BASELINE ? ['--baseline', baseline] : []),
  ];
  return words.map(shellQuote).join(' ');
}
