/**
 * `audit` beside the committed baseline (issue 36, no silent shrinkage): the baseline's servers this run did not reach
 * although a config still defines them become SERVER_MISSING findings. The baseline is `--baseline <file>` (must
 * exist), else the config's `baseline`, else mcp-smart.lock.json — those two only when present.
 */
import { DEFAULT_BASELINE, findMissingServers, type Baseline, type MissingServer } from '../../core/budget/index.js';
import { missingServerFindings } from '../../core/audit/missing.js';
import type { Finding } from '../../core/audit/index.js';
import { SmartError } from '../../process/errors.js';
import { readBaselineFile } from '../services/baseline-file.js';
import { updateCommand } from '../services/check-messages.js';
import type { AppContext } from '../services/context.js';
import type { Setup } from '../services/setup.js';
import { shellQuote } from '../services/print-config.js';

export interface BaselineMissing {
  /** The baseline file compared with, as given or configured. */
  baseline: string;
  missing: MissingServer[];
  findings: Finding[];
}

/** `--baseline <file>` read before anything connects: a file named on the command line must exist (exit 2). */
export async function requiredBaseline(ctx: AppContext, flag: string | undefined): Promise<Baseline | undefined> {
  if (flag === undefined) return undefined;
  const baseline = await readBaselineFile(flag, ctx.io.cwd);
  if (!baseline) throw new SmartError('BASELINE_MISSING', { file: flag, flag: shellQuote(flag) });
  return baseline;
}

/** The SERVER_MISSING findings against `given` (read by requiredBaseline), else the configured or default baseline. */
export async function baselineMissing(
  ctx: AppContext,
  loaded: Setup,
  flag: string | undefined,
  given: Baseline | undefined,
): Promise<BaselineMissing | undefined> {
  const file = flag ?? loaded.config.baseline ?? DEFAULT_BASELINE;
  const baseline = given ?? (await readBaselineFile(file, ctx.io.cwd));
  if (!baseline) return undefined;
  const missing = findMissingServers(baseline, loaded.servers, loaded.definitions?.servers, ctx.global.server);
  return { baseline: file, missing, findings: missingServerFindings(missing, file, updateCommand(ctx.global, flag)) };
}
