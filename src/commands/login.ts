/** `login [server]`: authorize remote servers behind OAuth in a browser (loopback redirect) and store the tokens. */
import { renderJson } from '../reporters/json.js';
import type { CommandContext, CommandOutcome } from '../app/services/context.js';
import { loginServers, type LoginResult } from '../app/use-cases/login.js';

export async function runLoginCommand(
  ctx: CommandContext,
  args: string[],
  _opts: Record<string, unknown>,
): Promise<CommandOutcome<LoginResult>> {
  const { io } = ctx;
  const result = await loginServers(ctx, args[0], (w) => io.stderr(`warning: ${w}\n`));
  if (result.servers.length === 0)
    io.stderr('No remote servers to log in to (stdio servers and servers with an Authorization header need none).\n');
  if (ctx.global.format === 'json') io.stdout(renderJson('login', result));
  else {
    for (const s of result.servers) {
      const mark = s.status === 'ok' ? ctx.chalk.green('ok  ') : s.status === 'error' ? ctx.chalk.red('FAIL') : 'skip';
      io.stdout(`${mark} ${s.name}  ${s.detail}\n`);
    }
    if (result.servers.some((s) => s.status === 'ok'))
      io.stdout(`Tokens are stored in ${result.store} (readable by you only).\n`);
  }
  return { result, exitCode: result.servers.some((s) => s.status === 'error') ? 3 : 0 };
}
