/** `budget`: does the tool context fit; if not, a plan that fits. */
import { budgetServers, type BudgetOptions } from '../app/use-cases/budget.js';
import type { CommandContext, CommandOutcome } from '../app/services/context.js';
import type { BudgetResult } from '../core/budget/index.js';
import { SmartError } from '../process/errors.js';
import { renderBudget } from '../reporters/budget.js';
import { optionalString } from '../app/services/flags.js';

export interface BudgetFlags {
  max?: string;
  share?: string;
  limit?: string;
  apply?: boolean;
  output?: string;
  intent?: string;
  store?: string;
}

export async function runBudgetCommand(
  ctx: CommandContext,
  _args: string[],
  flags: BudgetFlags,
): Promise<CommandOutcome<BudgetResult>> {
  const { io, global } = ctx;
  const output = optionalString(flags.output);
  if (flags.apply === true && !output)
    throw new SmartError('BAD_FLAG', {
      flag: '--apply',
      value: 'without -o',
      hint: 'Pass -o <file> for the resulting definitions.',
    });
  // -o alone wrote nothing and exited 0: the user asked for a file and got none.
  if (output && flags.apply !== true)
    throw new SmartError('BAD_FLAG', {
      flag: '-o',
      value: 'without --apply',
      hint: 'Pass --apply too to write the definitions the plan leaves, or drop -o.',
    });
  const options: BudgetOptions = { limits: { max: flags.max, share: flags.share, limit: flags.limit } };
  if (flags.apply === true && output) options.applyTo = output;
  const intent = optionalString(flags.intent);
  // Blank: discover refuses it; here it ranked nothing and the plan said it kept the intent's top tools.
  if (intent !== undefined && intent.trim() === '')
    throw new SmartError('BAD_FLAG', {
      flag: '--intent',
      value: intent,
      hint: 'Give the task in words, e.g. --intent "open a pull request", or leave --intent out.',
    });
  if (intent) options.intent = intent;
  const store = optionalString(flags.store);
  if (store) options.store = store;

  const { result, exitCode } = await budgetServers(ctx, options);
  io.stdout(renderBudget(result, { format: global.format, chalk: ctx.chalk }));
  if (global.format !== 'json') for (const n of result.notes) io.stderr(`note: ${n}\n`);
  return { result, exitCode };
}
