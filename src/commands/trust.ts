/** `mcp-smart trust`: approves this project's own servers (project config files) so mcp-smart may start them. */
import type { CommandContext, CommandOutcome } from '../app/context.js';
import { trustProject, type TrustResult } from '../app/trust.js';
import { renderJson } from '../reporters/json.js';

export async function runTrustCommand(ctx: CommandContext): Promise<CommandOutcome<TrustResult>> {
  const { io, global } = ctx;
  const result = await trustProject(ctx);
  if (global.format === 'json') {
    io.stdout(renderJson('trust', result));
    return { result, exitCode: 0 };
  }
  if (result.store !== undefined) io.stdout(`Approved the usage store ${result.store} for ${result.project}.\n`);
  for (const f of result.configFiles ?? []) io.stdout(`Approved ${f} as it is now; a change to it asks again.\n`);
  if (result.approved.length === 0) {
    if (result.store !== undefined || result.configFiles !== undefined) return { result, exitCode: 0 };
    io.stdout(`Nothing to approve: no server in ${result.project}'s config files is waiting for approval.\n`);
    return { result, exitCode: 0 };
  }
  const lines = result.approved.map((a) => `  ${a.name}  ${a.runs}  (${a.source})`);
  io.stdout(
    `Approved ${result.approved.length} server${result.approved.length === 1 ? '' : 's'} of ${result.project}; mcp-smart may start:\n` +
      `${lines.join('\n')}\nRecorded in ${result.trustList}. A change to these definitions asks again.\n`,
  );
  return { result, exitCode: 0 };
}
