/** `mcp-smart servers`: lists configured servers (name, transport, source, enabled) without connecting. */
import type { CommandContext, CommandOutcome } from '../app/services/context.js';
import { listServers } from '../app/use-cases/servers.js';
import type { ServersResult } from '../core/servers-list.js';
import { setupWords } from '../app/services/next-step-state.js';
import { renderNextStep } from '../reporters/next-step-line.js';
import { renderServers } from '../reporters/servers.js';

export type ServersFlags = Record<never, never>;

/** Lists every configured server with its transport, source file and whether it is enabled. */
export async function runServersCommand(
  ctx: CommandContext,
  _args: string[],
  _flags: ServersFlags,
): Promise<CommandOutcome<ServersResult>> {
  const { io, global, chalk } = ctx;
  const { result, debug, next } = await listServers(ctx);
  for (const w of result.warnings) io.stderr(`warning: ${w}\n`);
  if (debug) io.stderr(debug);
  const home = io.env.HOME || io.env.USERPROFILE || '';
  io.stdout(renderServers(result, { format: global.format, chalk, cwd: io.cwd, home }));
  // Guidance, not a result: stderr, and only under the table view.
  if (next && global.format === 'table') io.stderr(renderNextStep(next, 'servers', setupWords(global)));
  return { result, exitCode: 0 };
}
