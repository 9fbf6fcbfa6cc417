/** `mcp-smart serve`: an MCP server in front of the configured servers. Runs until the client goes away. */
import type { CommandContext, CommandOutcome } from '../app/services/context.js';
import { optionalString } from '../app/services/flags.js';
import { startHeapQuiet } from '../serve/heap-quiet.js';
import { Prespawned } from '../serve/prespawn.js';
import { listenFlags } from '../serve/serve-flags.js';
import type { ServeResult } from '../serve/serving.js';
import { loadServeSetup, metaOnlyStart } from '../serve/setup.js';

export async function runServeCommand(
  ctx: CommandContext,
  _args: string[],
  opts: Record<string, unknown>,
): Promise<CommandOutcome<ServeResult>> {
  const { io, global } = ctx;
  const log = (text: string): void => io.stderr(`mcp-smart serve: ${text}\n`);
  const printFor = optionalString(opts.printConfig);
  const modeFlag = optionalString(opts.mode);
  if (printFor) {
    const { printServeSetup } = await import('../serve/print-setup.js');
    const mode = await printServeSetup(ctx, opts, printFor);
    return { result: { mode, transport: 'stdio' }, exitCode: 0 };
  }
  const listen = listenFlags(opts, io.env);
  // A long-lived process: a young generation that keeps its start size, and the calls' garbage given back once they
  // stop (serve/heap-quiet.ts).
  const heapQuiet = startHeapQuiet(global.debug ? log : undefined);

  // A person at a terminal, not a client: say what this is (it still serves, e.g. for pasting JSON-RPC by hand).
  if (listen.transportKind === 'stdio' && io.stdinIsTTY) {
    const [{ terminalNote }, { setupWords }] = await Promise.all([
      import('../serve/terminal-note.js'),
      import('../app/services/next-step-state.js'),
    ]);
    io.stderr(terminalNote(setupWords(global)));
  }
  // Meta mode (as asked, else as configured) may start from the catalogue start cache; a bad --mode is still
  // reported later, after the setup's own errors, as before.
  const setup = await loadServeSetup(ctx, Date.now(), (config) =>
    metaOnlyStart(modeFlag ?? config.serve?.mode ?? 'auto', config),
  );
  for (const w of setup.warnings) log(`warning: ${w}`);
  // The servers a tools/auto start lists live get their processes started now, booting while serve loads and the
  // client's handshake says what to declare to them (prespawn.ts); meta mode's first answers need none.
  const ahead =
    listen.transportKind === 'stdio' && !metaOnlyStart(modeFlag ?? setup.config.serve?.mode ?? 'auto', setup.config)
      ? new Prespawned(
          setup.definitions.filter((d) => !setup.known.has(d.name)),
          global.debug ? log : undefined,
        )
      : undefined;
  // The rest of serve (the SDK's server, the calls' paths, the store, HTTP) is loaded only now, while they boot: this
  // module's own imports are the few that read the setup and start them.
  const { serveWith } = await import('../serve/serving.js');
  return serveWith(ctx, opts, { setup, listen, heapQuiet, ahead, log });
}
