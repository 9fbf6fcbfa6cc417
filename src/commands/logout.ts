/** `logout [server]`: forget the stored OAuth tokens (and the client registration) of one server or of all. */
import { SmartError } from '../errors.js';
import { TokenStore } from '../core/connect/oauth-token-store.js';
import { oauthTokenStorePath } from '../core/paths.js';
import { renderJson } from '../reporters/json.js';
import type { CommandContext, CommandOutcome } from '../app/context.js';
import { loadDefinitions, pathEnvOf } from './load.js';

export interface LogoutResult {
  store: string;
  server?: string;
  removed: number;
}

export async function runLogoutCommand(
  ctx: CommandContext,
  args: string[],
  _opts: Record<string, unknown>,
): Promise<CommandOutcome<LogoutResult>> {
  const { io } = ctx;
  const name = args[0];
  const file = oauthTokenStorePath(pathEnvOf(ctx));
  const store = new TokenStore(file);
  let removed: number;
  if (name === undefined) {
    removed = await store.remove(() => true);
  } else {
    const defs = await loadDefinitions(ctx);
    const def = defs.servers.find((d) => d.name === name);
    if (!def) {
      const known = [...new Set(defs.servers.map((d) => d.name))].sort().join(', ') || '(none)';
      throw new SmartError('UNKNOWN_SERVER', { name, known });
    }
    if (def.transport === 'stdio' || !def.url)
      throw new SmartError('AUTH_NOT_REMOTE', { server: name, transport: def.transport });
    const url = def.url;
    removed = await store.remove((e) => e.url === url);
  }
  const result: LogoutResult = { store: file, ...(name !== undefined ? { server: name } : {}), removed };
  if (ctx.global.format === 'json') io.stdout(renderJson('logout', result));
  else {
    const who = name ?? 'every server';
    io.stdout(
      removed > 0
        ? `Forgot the stored tokens of ${who} (${removed} entr${removed === 1 ? 'y' : 'ies'} removed from ${file}).\n`
        : `No stored tokens for ${who} in ${file}.\n`,
    );
  }
  return { result, exitCode: 0 };
}
