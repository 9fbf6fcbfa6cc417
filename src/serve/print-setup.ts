/** `serve --print-config <client>`: the snippet that makes a client start mcp-smart serve, in the mode that suits it. */
import type { CommandContext } from '../app/services/context.js';
import { optionalString, parseChoiceFlag } from '../app/services/flags.js';
import type { ServeMode } from './served-view.js';
import { launchThis, setupArgs } from '../app/services/launcher.js';
import { clientMode, parseClientName, printConfig, withholdsEnv } from '../app/services/print-config.js';
import { MODES, serveArgs } from './serve-flags.js';
import { servedVariables } from './setup.js';

/** Prints the client's snippet (serve's other flags carried into it); returns the mode it starts serve in. */
export async function printServeSetup(
  ctx: CommandContext,
  opts: Record<string, unknown>,
  printFor: string,
): Promise<ServeMode> {
  const { io, global } = ctx;
  const client = parseClientName(printFor);
  const modeFlag = optionalString(opts.mode);
  const asked = modeFlag ? parseChoiceFlag('--mode', modeFlag, MODES) : undefined;
  const mode = asked ?? clientMode(client);
  const args = [...setupArgs(global, io.cwd), 'serve', '--mode', mode, ...serveArgs(opts, io.cwd)];
  const name = optionalString(opts.key) ?? 'mcp-smart';
  // Codex and Gemini CLI do not pass their whole environment on to serve: the variables the setup refers to are
  // printed for them to pass (names only).
  const vars = withholdsEnv(client) ? await servedVariables(ctx) : [];
  const launch = launchThis(args);
  const envVars = vars.length > 0 ? vars : undefined;
  io.stdout(printConfig({ client, name, launch, mode, modeAsked: asked !== undefined, envVars }));
  return mode;
}
