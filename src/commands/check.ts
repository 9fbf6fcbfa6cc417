/** `check`: compares the current tool definitions with a committed baseline; the CI gate. */
import { appendFile } from 'node:fs/promises';
import { checkServers, type CheckOptions } from '../app/use-cases/check.js';
import type { CommandContext, CommandOutcome } from '../app/services/context.js';
import { optionalString, parseIntFlag } from '../app/services/flags.js';
import type { CheckResult } from '../core/budget/index.js';
import { renderCheck, renderCheckMarkdown } from '../reporters/check.js';

export interface CheckFlags {
  baseline?: string;
  update?: boolean;
  maxGrowth?: string;
  max?: string;
  minRecall?: string;
  queries?: string;
  k?: string;
  store?: string;
}

export async function runCheckCommand(
  ctx: CommandContext,
  _args: string[],
  flags: CheckFlags,
): Promise<CommandOutcome<CheckResult>> {
  const { io, global } = ctx;
  const queries = optionalString(flags.queries);
  const k = parseIntFlag('-k', flags.k ?? '5', { min: 1, example: '5' });
  const options: CheckOptions = {
    thresholds: { maxGrowth: flags.maxGrowth, max: flags.max, minRecall: flags.minRecall },
    update: flags.update === true,
    k,
  };
  if (queries) options.queries = queries;
  const baseline = optionalString(flags.baseline);
  if (baseline) options.baseline = baseline;
  const store = optionalString(flags.store);
  if (store) options.store = store;

  const { result, notes, exitCode } = await checkServers(ctx, options);
  io.stdout(renderCheck(result, { format: global.format, chalk: ctx.chalk }));
  const summary = io.env.GITHUB_STEP_SUMMARY;
  if (global.format === 'github' && summary) {
    // The runner's file: a summary that cannot be written is worth a warning, never the gate's own verdict.
    await appendFile(summary, renderCheckMarkdown(result) + '\n', 'utf8').catch((e: NodeJS.ErrnoException) =>
      io.stderr(
        `warning: the job summary was not written: GITHUB_STEP_SUMMARY=${summary} (${e.code ?? e.message}). ` +
          'The check itself ran; unset the variable or point it at a writable file.\n',
      ),
    );
  }
  if (global.format !== 'json') for (const n of notes) io.stderr(`note: ${n}\n`);
  return { result, exitCode };
}
