/** Builds the commander program from the global options and the command specs. The only module that knows argv. */
import { Chalk } from 'chalk';
import { ownColours } from '../process/terminal-text.js';
import { Command } from 'commander';
import { VERSION } from '../process/version.js';
import type { Io } from '../process/io.js';
import type { CommandContext } from '../app/services/context.js';
import { GLOBAL_OPTIONS, globalsFrom } from './global-options.js';
import { declare, refuseWithoutNeeded } from './spec.js';
import { COMMAND_SPECS } from './specs.js';

const PROGRAM_HELP =
  '\nExamples:\n  mcp-smart --demo audit\n  mcp-smart servers\n  mcp-smart dump -o mcp-snapshot.json\n  mcp-smart --snapshot mcp-snapshot.json ' +
  'budget --max 128000\n  mcp-smart discover "read a file from disk" --json\n\nRun `mcp-smart <command> --help` for the options of a command.';

export interface ProgramState {
  exitCode: number;
  json: boolean;
  debug: boolean;
}

function makeChalk(io: Io, colorFlag: boolean): InstanceType<typeof Chalk> {
  const env = io.env;
  let level: 0 | 1 | 2 | 3 = io.stdoutIsTTY ? 1 : 0;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') level = 1;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') level = 0;
  if (!colorFlag) level = 0;
  // Our colour codes carry the mark that lets them past the terminal filter (terminal-text.ts); a server's do not.
  return ownColours(new Chalk({ level }));
}

/** The commander program; actions record their exit code in `state`. */
export function buildProgram(io: Io, argv: readonly string[], state: ProgramState): Command {
  const program = new Command('mcp-smart').version(VERSION, '-V, --version');
  declare(program, {
    description: 'See, shrink and budget the tool context your MCP servers put into every model request.',
    options: GLOBAL_OPTIONS,
    help: PROGRAM_HELP,
  })
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      writeOut: (t) => io.stdout(t),
      writeErr: (t) => io.stderr(t),
      outputError: (t, write) => write(t),
    });

  // Subcommands inherit the settings above, so they are added after them.
  for (const spec of COMMAND_SPECS)
    declare(program.command(spec.name), spec).action(async (...actionArgs: unknown[]) => {
      const command = actionArgs[actionArgs.length - 1] as Command;
      refuseWithoutNeeded(command, spec.options ?? []);
      const global = globalsFrom(command.optsWithGlobals<Record<string, unknown>>(), argv);
      state.json = global.format === 'json';
      state.debug = global.debug;
      const ctx: CommandContext = { io, global, chalk: makeChalk(io, global.color) };
      const runner = await spec.load();
      const { exitCode } = await runner(ctx, command.args, command.opts<Record<string, unknown>>());
      state.exitCode = exitCode;
    });
  return program;
}
