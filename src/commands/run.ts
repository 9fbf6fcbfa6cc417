/**
 * run(argv, io) → exit code, and main(process) around it: the top-level try/catch that maps every failure (a usage
 * error from the parser, a SmartError, a bug) to an exit code and a message in the chosen format.
 */
import { CommanderError } from 'commander';
import { EXIT_CODES, SmartError, bugReportUrl, errorText, isSmartError } from '../process/errors.js';
import { VERSION } from '../process/version.js';
import { processIo, type Io, type ProcessLike } from '../process/io.js';
import { resetSecrets, scrubMessage, scrubOutput } from '../process/secrets.js';
import { escapeControls, markOwnOutput } from '../process/terminal-text.js';
import { closeHttpConnections } from '../process/close-connections.js';
import { installForeignOutput } from '../process/foreign-output.js';
import { guardStdout, type GuardedStream } from '../process/output-guard.js';
import { STOP_EXIT_CODES, installSignalPath, interrupted, stoppedBy } from '../process/signals.js';
import { buildProgram, type ProgramState } from './program.js';
import { renderAnnotation } from '../reporters/github.js';

/** Entry point used by bin/mcp-smart.js (through cli.ts). Returns the exit code. */
export async function main(proc: ProcessLike): Promise<number> {
  const controller = new AbortController();
  const uninstall = installSignalPath(process, controller);
  const stdout = guardStdout(proc.stdout as GuardedStream);
  // What dependencies print (console, warnings, stderr writes) is redacted and cut from here on (foreign-output.ts);
  // our own stderr text goes past that filter, already scrubbed below.
  const foreign = installForeignOutput(process, { debug: proc.argv.includes('--debug') });
  // Every byte we print passes the secret scrub: the last defence for a value some path forgot. Then the terminal
  // filter: only our own colours and line clears, marked as ours from here on, pass it raw (terminal-text.ts).
  markOwnOutput();
  const guarded: ProcessLike = {
    ...proc,
    stdout: { write: (t: string) => stdout.write(escapeControls(scrubOutput(t))), isTTY: proc.stdout.isTTY },
    stderr: { write: (t: string) => foreign.ownStderr(escapeControls(scrubOutput(t))), isTTY: proc.stderr.isTTY },
  };
  const io = processIo(guarded, controller.signal);
  if (proc.stdin.isTTY === true && proc.stderr.isTTY === true) {
    // The one-time approval of a project's servers (app/project-trust.ts): asked on the terminal, answered on stderr.
    io.confirm = async (message) => {
      const { confirm } = await import('@inquirer/prompts');
      return confirm({ message, default: false }, { output: process.stderr });
    };
  }
  const quiet = { json: false, debug: false };
  try {
    let code = await run(proc.argv.slice(2), io);
    // Write errors on stdout arrive as events: let them land before deciding.
    await new Promise((r) => setImmediate(r));
    const failure = stdout.failure();
    if (failure) code = Math.max(code, reportError(failure, { ...io, stdout: () => undefined }, quiet));
    const sig = stoppedBy();
    if (sig) {
      // Whatever the command made of its aborted work, a signal decides the exit code.
      if (code !== STOP_EXIT_CODES[sig]) reportError(interrupted(sig), { ...io, stdout: () => undefined }, quiet);
      code = STOP_EXIT_CODES[sig];
    }
    return code;
  } finally {
    uninstall();
    await closeHttpConnections();
    foreign.uninstall();
  }
}

/** Whether argv asks for `format` (`--format X`, `--format=X`; `--json` is json), so even usage errors come in it. */
function asksFormat(argv: readonly string[], format: 'json' | 'github'): boolean {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') break;
    if ((format === 'json' && arg === '--json') || arg === `--format=${format}`) return true;
    if (arg === '--format' && argv[i + 1] === format) return true;
  }
  return false;
}

/** run(argv, io) → exit code. Drives everything in-process so tests need no child process. */
export async function run(argv: string[], io: Io): Promise<number> {
  const state: ProgramState = { exitCode: 0, json: asksFormat(argv, 'json'), debug: argv.includes('--debug') };
  // A gate in GitHub Actions (`check --format github`) shows its failure as an annotation on the run and the PR.
  const github = !state.json && asksFormat(argv, 'github');
  resetSecrets();
  try {
    const program = buildProgram(io, argv, state);
    if (argv.length === 0) {
      program.outputHelp();
      return 0;
    }
    await program.parseAsync(argv, { from: 'user' });
    return state.exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help')
        return 0;
      if (state.json)
        return reportError(new SmartError('USAGE', { kind: 'parser', reason: e.message.replace(/^error: /, '') }), io, {
          json: true,
          debug: false,
        });
      return 2;
    }
    return reportError(e, io, { json: state.json, debug: state.debug, github });
  }
}

export interface RunErrorOptions {
  json: boolean;
  debug: boolean;
  /** Also an `::error` workflow command on stdout (--format github). */
  github?: boolean;
}

/** Writes an error the way the chosen format wants and returns its exit code. */
export function reportError(e: unknown, io: Io, opts: RunErrorOptions): number {
  const known = isSmartError(e)
    ? e
    : new SmartError(
        'INTERNAL',
        {
          message: errorText(e),
          report: bugReportUrl(e, {
            version: VERSION,
            node: process.version,
            platform: process.platform,
            home: io.env.HOME || io.env.USERPROFILE,
          }),
        },
        { cause: e },
      );
  const message = scrubMessage(known.message);
  if (opts.json) {
    io.stdout(JSON.stringify({ schemaVersion: 1, error: { code: known.code, message } }, null, 2) + '\n');
  } else {
    io.stderr(`mcp-smart: ${message}\n`);
    if (opts.github) io.stdout(`${renderAnnotation({ level: 'error', title: `mcp-smart ${known.code}`, message })}\n`);
  }
  if (opts.debug || known.exitCode === EXIT_CODES.internal) {
    const stack = e instanceof Error && e.stack ? e.stack : String(e);
    io.stderr(`${debugText(stack)}\n`);
    let cause = e instanceof Error ? e.cause : undefined;
    while (cause !== undefined) {
      io.stderr(
        `Caused by: ${debugText(cause instanceof Error && cause.stack ? cause.stack : String(JSON.stringify(cause)))}\n`,
      );
      cause = cause instanceof Error ? cause.cause : undefined;
    }
  }
  return known.exitCode;
}

/** The most of one stack or cause --debug prints: a library's error may carry a server's whole answer (100 KB of HTML). */
const MAX_DEBUG_TEXT = 4_000;

/** A stack or cause for --debug: redacted (credential pairs too: it may quote a server), then cut. */
function debugText(text: string): string {
  const safe = scrubMessage(text);
  return safe.length <= MAX_DEBUG_TEXT
    ? safe
    : `${safe.slice(0, MAX_DEBUG_TEXT)}… (${safe.length} characters; cut by mcp-smart)`;
}
