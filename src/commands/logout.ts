/** `logout [server]`: forget the stored OAuth tokens (and the client registration) of one server or of all. */
import { renderJson } from '../reporters/json.js';
import type { CommandContext, CommandOutcome } from '../app/services/context.js';
import { logoutServers, type LogoutResult } from '../app/use-cases/login.js';

export async function runLogoutCommand(
  ctx: CommandContext,
  args: string[],
  _opts: Record<string, unknown>,
): Promise<CommandOutcome<LogoutResult>> {
  const { io } = ctx;
  const name = args[0];
  const result = await logoutServers(ctx, name);
  const { removed, store } = result;
  if (ctx.global.format === 'json') io.stdout(renderJson('logout', result));
  else {
    const who = name ?? 'every server';
    io.stdout(
      removed > 0
        ? `Forgot the stored tokens of ${who} (${removed} entr${removed === 1 ? 'y' : 'ies'} removed from ${store}).\n`
        : `No stored tokens ${name === undefined ? 'for any server' : `for ${name}`} in ${store}; nothing to forget.\n`,
    );
  }
  return { result, exitCode: 0 };
}
