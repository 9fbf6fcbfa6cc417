/** `condense`: condensed tool definitions at a level, with before/after tokens. */
import { condenseServers } from '../app/use-cases/condense.js';
import type { CommandContext, CommandOutcome } from '../app/services/context.js';
import { RENDER_STYLES } from '../app/services/counter.js';
import type { CondenseOutput } from '../core/condense/result.js';
import { renderCondense } from '../reporters/condense.js';
import { CONDENSE_LEVELS } from '../core/types.js';
import { optionalString, parseChoiceFlag } from '../app/services/flags.js';

export interface CondenseFlags {
  level?: string;
  render?: string;
  output?: string;
}

export async function runCondenseCommand(
  ctx: CommandContext,
  _args: string[],
  flags: CondenseFlags,
): Promise<CommandOutcome<CondenseOutput>> {
  const level = parseChoiceFlag('--level', flags.level ?? 'lossless', CONDENSE_LEVELS);
  const render = parseChoiceFlag('--render', flags.render ?? 'json', RENDER_STYLES);
  const output = optionalString(flags.output);
  const { result, exitCode } = await condenseServers(ctx, { level, render, ...(output ? { output } : {}) });
  ctx.io.stdout(renderCondense(result, { format: ctx.global.format, chalk: ctx.chalk, output }));
  if (ctx.global.format !== 'json' && !output)
    ctx.io.stderr('Pass -o <file> to write the condensed definitions, or --json to print them.\n');
  return { result, exitCode };
}
