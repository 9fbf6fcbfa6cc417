/** `dump [-o file]`: connect to every server and write a snapshot (stdout when no -o). */
import type { CommandContext, CommandOutcome } from '../app/services/context.js';
import { dumpServers } from '../app/use-cases/dump.js';
import type { DumpResult } from '../core/snapshot.js';
import { renderDumpJson, renderDumpSummary } from '../reporters/dump.js';
import { optionalString } from '../app/services/flags.js';

export interface DumpFlags {
  output?: string;
}

export async function runDumpCommand(
  ctx: CommandContext,
  _args: string[],
  flags: DumpFlags,
): Promise<CommandOutcome<DumpResult>> {
  const { io } = ctx;
  const output = optionalString(flags.output);
  const { result, servers, text, exitCode } = await dumpServers(ctx, { output });
  if (text !== undefined) io.stdout(text);
  else if (ctx.global.format === 'json') io.stdout(renderDumpJson(result));
  io.stderr(renderDumpSummary(servers, output, ctx.chalk));
  return { result, exitCode };
}
