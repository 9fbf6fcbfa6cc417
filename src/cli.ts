/** Builds the commander program. The only module that knows about argv. */
import { Chalk } from 'chalk';
import { Command, CommanderError, Option } from 'commander';
import { SmartError } from './process/errors.js';
import { VERSION } from './process/version.js';
import { processIo, type Io, type ProcessLike } from './process/io.js';
import { reportError } from './run.js';
import { resetSecrets, scrubOutput } from './process/secrets.js';
import { escapeControls } from './process/terminal-text.js';
import { closeHttpConnections } from './process/close-connections.js';
import { installForeignOutput } from './process/foreign-output.js';
import { guardStdout, type GuardedStream } from './process/output-guard.js';
import { STOP_EXIT_CODES, installSignalPath, interrupted, stoppedBy } from './process/signals.js';
import type { AdhocServer, CommandContext, GlobalOptions } from './app/services/context.js';
import { parseChoiceFlag, parseIntFlag } from './app/services/flags.js';
import { parseClientFlag } from './commands/parse-client.js';
import { ENCODINGS, type OutputFormat } from './core/types.js';

const FORMATS: readonly OutputFormat[] = ['table', 'json', 'markdown', 'github'];

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** --stdio/--url/--name are order-sensitive (--name names the server before it), so read them from argv. */
export function scanAdhocServers(argv: readonly string[]): AdhocServer[] {
  const servers: AdhocServer[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') break;
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    if (flag !== '--stdio' && flag !== '--url' && flag !== '--name') continue;
    const value = inline ?? argv[++i];
    if (value === undefined) continue;
    if (flag === '--name') {
      const last = servers[servers.length - 1];
      if (!last)
        throw new SmartError('BAD_FLAG', {
          flag: '--name',
          value,
          hint: 'Put --name after the --stdio or --url it names.',
        });
      last.name = value;
    } else {
      servers.push({ kind: flag === '--stdio' ? 'stdio' : 'url', value });
    }
  }
  return servers;
}

function makeChalk(io: Io, colorFlag: boolean): InstanceType<typeof Chalk> {
  const env = io.env;
  let level: 0 | 1 | 2 | 3 = io.stdoutIsTTY ? 1 : 0;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') level = 1;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') level = 0;
  if (!colorFlag) level = 0;
  return new Chalk({ level });
}

function globalsFrom(opts: Record<string, unknown>, argv: readonly string[]): GlobalOptions {
  const json = opts.json === true;
  const formatExplicit = json || typeof opts.format === 'string';
  const format = json ? 'json' : parseChoiceFlag('--format', opts.format ?? 'table', FORMATS);
  return {
    config: (opts.config as string[] | undefined) ?? [],
    snapshot: (opts.snapshot as string[] | undefined) ?? [],
    adhoc: scanAdhocServers(argv),
    server: (opts.server as string[] | undefined) ?? [],
    ...(typeof opts.client === 'string' ? { client: parseClientFlag(opts.client) } : {}),
    format,
    formatExplicit,
    encoding: parseChoiceFlag('--encoding', opts.encoding ?? 'o200k_base', ENCODINGS),
    // Node timers overflow past 2^31-1 ms and fire at once: refuse rather than fail every server.
    timeoutMs: parseIntFlag('--timeout', opts.timeout ?? '30000', { min: 1, max: 2_147_483_647 }),
    cache: opts.cache !== false,
    ...(opts.cache === true ? { cacheAsked: true } : {}),
    demo: opts.demo === true,
    color: opts.color !== false,
    debug: opts.debug === true,
    ...(typeof opts.authOpen === 'string' ? { authOpen: opts.authOpen } : {}),
    ...(opts.trustProject === true ? { trustProject: true } : {}),
  };
}

type CommandRunner = (
  ctx: CommandContext,
  args: string[],
  opts: Record<string, unknown>,
) => Promise<{ exitCode: number }>;

/** Each subcommand's module is imported only when it runs, so --help stays fast. */
const RUNNERS: Record<string, () => Promise<CommandRunner>> = {
  servers: async () => (await import('./commands/servers.js')).runServersCommand,
  dump: async () => (await import('./commands/dump.js')).runDumpCommand,
  audit: async () => (await import('./commands/audit.js')).runAuditCommand,
  condense: async () => (await import('./commands/condense.js')).runCondenseCommand,
  discover: async () => (await import('./commands/discover.js')).runDiscoverCommand,
  budget: async () => (await import('./commands/budget.js')).runBudgetCommand,
  check: async () => (await import('./commands/check.js')).runCheckCommand,
  replay: async () => (await import('./commands/replay.js')).runReplayCommand,
  init: async () => (await import('./commands/init.js')).runInitCommand,
  adopt: async () => (await import('./commands/adopt.js')).runAdoptCommand,
  serve: async () => (await import('./commands/serve.js')).runServeCommand,
  login: async () => (await import('./commands/login.js')).runLoginCommand,
  logout: async () => (await import('./commands/logout.js')).runLogoutCommand,
  trust: async () => (await import('./commands/trust.js')).runTrustCommand,
  store: async () => (await import('./commands/store.js')).runStoreCommand,
};

export interface ProgramState {
  exitCode: number;
  json: boolean;
  debug: boolean;
}

/** The commander program; actions record their exit code in `state`. */
export function buildProgram(io: Io, argv: readonly string[], state: ProgramState): Command {
  const program = new Command('mcp-smart');
  program
    .description('See, shrink and budget the tool context your MCP servers put into every model request.')
    .version(VERSION, '-V, --version')
    .option(
      '-c, --config <file>',
      'read servers from this config file (any supported client format; repeatable)',
      collect,
    )
    .option('--snapshot <file>', 'analyse a saved snapshot instead of connecting (repeatable)', collect)
    .option('--stdio <command line>', 'an ad-hoc stdio server, split like a shell but never run by one (repeatable)')
    .option('--url <url>', 'an ad-hoc Streamable HTTP / SSE server (repeatable)')
    .option('--name <name>', 'name for the preceding --stdio/--url server (default: its serverInfo.name)')
    .option('-s, --server <name>', 'only these servers (repeatable)', collect)
    .option(
      '--client <name>',
      'only the servers that one client would load (its project and user files, its precedence)',
    )
    .option('--json', 'one JSON document on stdout (same as --format json)')
    .addOption(new Option('--format <format>', 'output format').choices(FORMATS as string[]))
    .addOption(
      new Option('--encoding <encoding>', 'tokenizer for every count')
        .choices(ENCODINGS as string[])
        .default('o200k_base'),
    )
    .option('--timeout <ms>', 'per-server connect + list limit in milliseconds', '30000')
    .option('--cache', 'answer from the tool-list cache even where lists are taken anew (check, dump -o, CI=true)')
    .option('--no-cache', 'ignore and do not write the tool-list cache')
    .option('--demo', 'use the bundled demo servers (real MCP servers installed with mcp-smart)')
    .option(
      '--auth-open <command>',
      "program that opens an OAuth authorization URL, or none to print it (default: the platform's browser opener)",
    )
    .option(
      '--trust-project',
      "start servers from this project's config files without a recorded approval (CI; env MCP_SMART_TRUST_PROJECT=1)",
    )
    .option('--no-color', 'plain output without colour')
    .option('--debug', 'stack traces, server stderr and resolved config on errors')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ showGlobalOptions: true })
    .addHelpText(
      'after',
      '\nExamples:\n  mcp-smart --demo audit\n  mcp-smart servers\n  mcp-smart dump -o mcp-snapshot.json\n  mcp-smart --snapshot mcp-snapshot.json ' +
        'budget --max 128000\n  mcp-smart discover "read a file from disk" --json\n\nRun `mcp-smart <command> --help` for the options of a command.',
    )
    .exitOverride()
    .configureOutput({
      writeOut: (t) => io.stdout(t),
      writeErr: (t) => io.stderr(t),
      outputError: (t, write) => write(t),
    });

  const register = (cmd: Command, name: string): Command =>
    cmd.action(async (...actionArgs: unknown[]) => {
      const command = actionArgs[actionArgs.length - 1] as Command;
      const opts = command.optsWithGlobals<Record<string, unknown>>();
      const global = globalsFrom(opts, argv);
      state.json = global.format === 'json';
      state.debug = global.debug;
      const positional = command.args;
      const ctx: CommandContext = { io, global, chalk: makeChalk(io, global.color) };
      const loader = RUNNERS[name];
      if (!loader) throw new SmartError('INTERNAL', { message: `no runner for ${name}` });
      const runner = await loader();
      const { exitCode } = await runner(ctx, positional, command.opts<Record<string, unknown>>());
      state.exitCode = exitCode;
    });

  register(
    program
      .command('servers')
      .description('list configured servers: name, transport, source file, enabled')
      .addHelpText('after', '\nExamples:\n  mcp-smart servers\n  mcp-smart servers --config ~/.cursor/mcp.json --json'),
    'servers',
  );

  register(
    program
      .command('dump')
      .description('connect to every server and write a snapshot of its tools, prompts and resources')
      .option('-o, --output <file>', 'write the snapshot here (default: stdout)')
      .addHelpText(
        'after',
        '\nExamples:\n  mcp-smart dump -o mcp-snapshot.json\n  mcp-smart dump --stdio "node dist/index.js" --name mine',
      ),
    'dump',
  );

  register(
    program
      .command('audit')
      .description('token cost per server and tool, condensing potential, and findings')
      .addOption(
        new Option('--fail-on <severity>', 'exit 1 when a finding is at or above this severity').choices([
          'error',
          'warning',
          'info',
        ]),
      )
      .option('--top <n>', 'how many of the most expensive tools to list', '10')
      .option('--window <tokens>', 'context window the shares are computed against', '200000')
      .addOption(
        new Option('--render <style>', 'how the tool list is rendered before counting')
          .choices(['json', 'cline'])
          .default('json'),
      )
      .option('--anthropic-count', "also ask Anthropic's token-counting endpoint (needs ANTHROPIC_API_KEY)")
      .option('--html <file>', 'also write a self-contained HTML report (treemap, condense levels, every finding)')
      .option(
        '--baseline <file>',
        "servers of this baseline that were not reached are findings (default: the config's baseline or mcp-smart.lock.json, when present)",
      )
      .addHelpText(
        'after',
        '\nExamples:\n  mcp-smart audit\n  mcp-smart audit --snapshot mcp-snapshot.json --fail-on error --format markdown\n  mcp-smart --demo audit --html audit.html',
      ),
    'audit',
  );

  register(
    program
      .command('condense')
      .description('write condensed tool definitions and show before/after tokens')
      .addOption(
        new Option('--level <level>', 'how far to condense')
          .choices(['lossless', 'compact', 'minimal', 'names', 'meta'])
          .default('lossless'),
      )
      .option('-o, --output <file>', 'write the condensed definitions here (default: stdout with --json)')
      .addOption(
        new Option('--render <style>', 'rendering used for the token counts')
          .choices(['json', 'cline'])
          .default('json'),
      )
      .addHelpText(
        'after',
        '\nExamples:\n  mcp-smart condense --level lossless -o tools.lossless.json\n  mcp-smart condense --level minimal --snapshot snap.json --json',
      ),
    'condense',
  );

  register(
    program
      .command('discover')
      .description('rank the tools of your servers for a natural-language intent')
      .argument('[intent]', 'what you want to do, in plain words')
      .option('-k <n>', 'how many tools to show (default 5; 3 for the keyword engine)')
      .addOption(
        new Option('--engine <engine>', 'ranking engine')
          .choices(['keyword', 'bm25', 'semantic', 'hybrid'])
          .default('hybrid'),
      )
      .option('--explain', "show each signal's contribution to the score")
      .option('--queries <file>', 'labelled intents (.jsonl) to evaluate: prints Recall@k and MRR')
      .option(
        '--model <model>',
        'a sentence model for the semantic signal instead of the shipped word vectors: use-lite (optional npm packages) or a local ' +
          'sentence-transformer directory',
      )
      .option('--store <file-or-url>', 'usage store to read the usage prior from (a file or postgres://…)')
      .addHelpText(
        'after',
        '\nExamples:\n  mcp-smart discover "read a file from disk" -k 3\n  mcp-smart discover --queries intents.jsonl --engine bm25 --json',
      ),
    'discover',
  );

  register(
    program
      .command('budget')
      .description('does the tool context fit the budget; if not, a plan that fits')
      .option('--max <tokens>', 'context window size in tokens')
      .option('--share <fraction>', 'share of --max the tool context may use (default 0.10)')
      .option('--limit <tokens>', 'tokens the tool context may use (instead of --share)')
      .option('--intent <text>', 'keep full schemas for the tools most relevant to this intent, names for the rest')
      .option('--store <file-or-url>', 'usage store used to find least-used servers and tools (a file or postgres://…)')
      .option('--apply', 'write the definitions that result from the plan (needs -o)')
      .option('-o, --output <file>', 'where --apply writes the resulting definitions')
      .addHelpText(
        'after',
        '\nExamples:\n  mcp-smart budget --max 128000\n  mcp-smart budget --max 200000 --limit 8000 --apply -o tools.budget.json',
      ),
    'budget',
  );

  register(
    program
      .command('check')
      .description('compare against a committed baseline (CI gate)')
      .option('--baseline <file>', 'baseline file', 'mcp-smart.lock.json')
      .option('--update', 'write the baseline from the current servers')
      .option('--max-growth <limit>', 'allowed growth: a percentage ("5%") or tokens ("500")')
      .option('--max <tokens>', 'absolute limit on total tool tokens')
      .option('--queries <file>', 'labelled intents (.jsonl) for the retrieval gate')
      .option('--min-recall <r>', 'fail when discovery Recall@k on --queries falls below this')
      .option('-k <n>', 'k for the retrieval gate', '5')
      .option('--store <file-or-url>', 'the retrieval gate ranks with this usage store (a file or postgres://…)')
      .addHelpText('after', '\nExamples:\n  mcp-smart check --snapshot mcp-snapshot.json\n  mcp-smart check --update'),
    'check',
  );

  register(
    program
      .command('replay')
      .description('replay recorded sessions: ranking quality, usage learning, weight tuning')
      .argument('[paths...]', 'Claude Code transcripts, Cline/Roo histories, labelled intents, or folders of them')
      .option('--learn', 'update the usage store from the recordings')
      .option(
        '--store <file-or-url>',
        'usage store to start from and --learn into: a file (default: in the user data folder) or postgres://…',
      )
      .option('--no-store', 'replay from nothing, not from what the usage store knows')
      .option(
        '--user <name>',
        'with --learn: attribute the learned calls to this user (stored hashed unless the config says plain)',
      )
      .option('--tune', 'search the hybrid weights with cross-validation by session')
      .option('--folds <n>', 'folds for --tune', '5')
      .option('--write', 'with --tune: store the tuned weights in mcp-smart.config.json')
      .option('--min-recall <r>', 'exit 1 when hybrid Recall@5 falls below this')
      .option('-k <n>', 'k for the top-k token comparison', '5')
      .option('--ttl-days <days>', 'usage memory: forget tools unused for this many days (0 = never)', '7')
      .option('--seed <n>', 'seed for the --tune search and folds', '1')
      .addHelpText(
        'after',
        '\nExamples:\n  mcp-smart replay ~/.claude/projects --snapshot snap.json\n  mcp-smart replay sessions/ --tune --write',
      ),
    'replay',
  );

  register(
    program
      .command('serve')
      .description(
        'an MCP server in front of your servers: serves what fits the budget, the rest behind find_tool/call_tool; forwards calls and learns from them',
      )
      .addOption(
        new Option('--mode <mode>', 'what the model sees (default auto, or serve.mode)').choices([
          'auto',
          'tools',
          'meta',
        ]),
      )
      .addOption(
        new Option('--level <level>', 'condensing of first-class tools (default lossless)').choices([
          'full',
          'lossless',
          'compact',
          'minimal',
          'names',
        ]),
      )
      .addOption(
        new Option('--transport <transport>', 'stdio, or Streamable HTTP').choices(['stdio', 'http']).default('stdio'),
      )
      .option('--port <n>', 'HTTP port (0: a free one, printed on stderr)', '0')
      .option('--host <address>', 'HTTP bind address; anything but loopback needs --token-env or --issuer', '127.0.0.1')
      .option('--token-env <var>', 'HTTP: require "Authorization: Bearer <value of this variable>"')
      .option('--issuer <url>', 'HTTP: accept OAuth access tokens (JWT) of this issuer (default serve.auth.issuer)')
      .option('--audience <url>', 'HTTP: the audience tokens must name (default serve.auth.audience, else this URL)')
      .option('--scope <scopes>', 'HTTP: scopes every token must carry, comma-separated (default serve.auth.scopes)')
      .option('--audit-log <file>', 'append who called which tool, outcome and duration as JSON lines (no values)')
      .option(
        '--state-key-file <file>',
        'HTTP: seal input_required state with the keys in this file (one per line, the first seals), shared by every replica',
      )
      .option(
        '--session-idle <ms>',
        'HTTP: close a 2025 session after this long with no request (default 1800000, 30 min)',
      )
      .option(
        '--max-sessions <n>',
        'HTTP: 2025 sessions kept open at most; past it the one unused longest closes (default 1000)',
      )
      .option('--max <tokens>', 'auto mode: context window size (default budget.max, else 200000)')
      .option('--share <fraction>', 'auto mode: share of --max for tools (default 0.10)')
      .option('--limit <tokens>', 'auto mode: tokens the tool context may use (instead of --share)')
      .option('--activate', 'a tool called through call_tool becomes first-class while it fits the budget')
      .option(
        '--record <file>',
        'append "intent → tool" cases found by find_tool and then called, as labelled-intents JSONL',
      )
      .option('--no-learn', 'do not update the usage store from forwarded calls')
      .option('--user <name>', 'attribute learned calls to this user (stored hashed unless the config says plain)')
      .option(
        '--no-load-hints',
        'do not set _meta anthropic/alwaysLoad and anthropic/searchHint on pass-through tools from the usage store',
      )
      .option(
        '--store <file-or-url>',
        'usage store to rank with and learn into: a file or postgres://… (default: store in config, else the user data folder)',
      )
      .option('--key <name>', 'the name your client gives this server (tool names are fitted to its limits)')
      .option('--spawn-timeout <ms>', 'limit for a server to start and initialize (default --timeout)')
      .option('--call-timeout <ms>', 'limit for one forwarded call (default 120000)')
      .option(
        '--otlp <url>',
        'export OpenTelemetry traces and metrics to this OTLP/HTTP collector (default: OTEL_EXPORTER_OTLP_* if set, else off)',
      )
      .option(
        '--first-list-wait <ms>',
        'how long a tools/list waits for servers still starting before answering with what is ready (default 10000)',
      )
      .option(
        '--print-config <client>',
        'print the snippet that makes a client start mcp-smart serve, and the mode that suits it',
      )
      .addHelpText(
        'after',
        '\nExamples:\n  mcp-smart serve --print-config claude-desktop\n  mcp-smart --demo serve --mode meta\n  mcp-smart serve --transport http --port 8808 --max 128000',
      ),
    'serve',
  );

  register(
    program
      .command('adopt')
      .description(
        'write mcp-smart.config.json from the servers a client loads (tool filters and plain values kept, secrets as ${VAR}); print the switch that runs mcp-smart instead of them, and the way back',
      )
      .argument('<client>', 'claude-code, claude-desktop, cursor, vscode, windsurf, gemini, codex, cline or roo')
      .option(
        '--force',
        'replace the servers of an existing, different mcp-smart.config.json (a regular file, never a link; the old one is copied to a .bak beside it)',
      )
      .option('--dry-run', 'print what would be written; write nothing')
      .option(
        '--apply',
        "make the switch in the client's own files: turn the adopted servers off there (Claude Code disabledMcpServers, Gemini mcp.excluded, Codex enabled = false, …) and add mcp-smart; a copy of each file is kept",
      )
      .option(
        '--undo',
        'take back the switch --apply made: each file as it was, byte for byte (changes made since are kept)',
      )
      .option(
        '--scope-from-use',
        "write this project's scope derived from use (the tools serve saw it call; mcp-smart store scope) as the client's own tool filter on the entry the switch adds: Gemini CLI includeTools, Codex enabled_tools (other clients have none: refused); serve then runs in --mode tools",
      )
      .option(
        '--store <file-or-url>',
        "the usage store --scope-from-use reads (default: the config's store, else the usage file)",
      )
      .addHelpText(
        'after',
        '\n' +
          'The switch adds an entry named "smart" (one token in each tool name the client\n' +
          'sends the model; "mcp-smart" if a server you keep has that name) and starts\n' +
          'serve in the mode that suits the client: --mode tools where the client has its\n' +
          'own tool search (Claude Code, Codex, VS Code), --mode meta where it sends\n' +
          'every tool on each request (Gemini CLI, Cursor, Windsurf, Claude Desktop,\n' +
          'Cline, Roo): the five meta-tools, every tool reachable through find_tool and\n' +
          'call_tool.\n' +
          '\nExamples:\n  mcp-smart adopt claude-code\n  mcp-smart adopt claude-code --apply\n  mcp-smart adopt claude-code --undo\n  mcp-smart adopt codex --dry-run --json\n  mcp-smart adopt gemini --scope-from-use --apply',
      ),
    'adopt',
  );

  register(
    program
      .command('init')
      .description('set up mcp-smart.config.json, a first baseline and optionally a CI workflow')
      .option('-y, --yes', 'accept the defaults without asking')
      .option('--force', 'overwrite existing files')
      .option('--servers <names>', 'comma-separated servers to include (default: all found)')
      .option('--max <tokens>', 'context window for the budget', '200000')
      .option('--share <fraction>', 'share of the window the tool context may use', '0.1')
      .option('--max-growth <limit>', 'allowed growth before check fails', '5%')
      .option('--github', 'also write .github/workflows/mcp-smart.yml')
      .option(
        '--ci-snapshot',
        'the workflow checks a committed snapshot (written now) instead of starting the servers in CI',
      )
      .option('--no-baseline', 'do not write a first baseline')
      .addHelpText('after', '\nExamples:\n  mcp-smart init\n  mcp-smart init --yes --github --ci-snapshot'),
    'init',
  );

  register(
    program
      .command('login')
      .description(
        'authorize mcp-smart with remote servers behind OAuth (browser + loopback redirect); stores the tokens',
      )
      .argument('[server]', 'the server to log in to (default: every remote server that needs it)')
      .addHelpText(
        'after',
        '\nExamples:\n  mcp-smart login linear\n  mcp-smart --auth-open none login   # print the URL instead of opening a browser',
      ),
    'login',
  );

  register(
    program
      .command('logout')
      .description('forget the stored OAuth tokens of a server (default: of every server)')
      .argument('[server]', 'the server whose tokens to forget')
      .addHelpText('after', '\nExamples:\n  mcp-smart logout linear\n  mcp-smart logout'),
    'logout',
  );

  register(
    program
      .command('trust')
      .description("approve this project's own servers (.mcp.json, .cursor/mcp.json, …) so mcp-smart may start them")
      .addHelpText(
        'after',
        '\nA changed server definition asks again. In CI pass --trust-project (or MCP_SMART_TRUST_PROJECT=1) instead.\n\nExamples:\n  mcp-smart servers\n  mcp-smart trust',
      ),
    'trust',
  );

  register(
    program
      .command('store')
      .description(
        'the usage store: set up a team store (init), move a file store into it and back (import, export), forget a tool or a user, show the scope derived from use (scope)',
      )
      .argument('<action>', 'init, import <file>, export <file>, forget --tool <id> | --user <name>, or scope')
      .argument('[file]', 'import: the usage store file to read; export: the file to write')
      .option(
        '--store <file-or-url>',
        'the store acted on: postgres://… or a file (default: store in config, else the user data folder)',
      )
      .option('--tool <id>', 'forget: a tool id (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
      .option('--user <name>', "forget: a user's calls (the name, labelled as the config says, or the stored label)")
      .option('--force', 'export: replace an existing file')
      .option('--project <dir>', "scope: only this directory's project (its key is a hash of the path)")
      .addHelpText(
        'after',
        '\nExamples:\n  mcp-smart store init --store postgres://mcp@db.internal/mcp_smart\n  mcp-smart store import ~/.local/share/mcp-smart/usage.json --store postgres://mcp@db.internal/mcp_smart',
      ),
    'store',
  );

  return program;
}

/** Entry point used by bin/mcp-smart.js. Returns the exit code. */
export async function main(proc: ProcessLike): Promise<number> {
  const controller = new AbortController();
  const uninstall = installSignalPath(process, controller);
  const stdout = guardStdout(proc.stdout as GuardedStream);
  // What dependencies print (console, warnings, stderr writes) is redacted and cut from here on (foreign-output.ts);
  // our own stderr text goes past that filter, already scrubbed below.
  const foreign = installForeignOutput(process, { debug: proc.argv.includes('--debug') });
  // Every byte we print passes the secret scrub: the last defence for a value some path forgot.
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

/** Whether argv asks for JSON (`--json`, `--format json`, `--format=json`), so even usage errors come as JSON. */
function wantsJson(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') break;
    if (arg === '--json' || arg === '--format=json' || (arg === '--format' && argv[i + 1] === 'json')) return true;
  }
  return false;
}

/** run(argv, io) → exit code. Drives everything in-process so tests need no child process. */
export async function run(argv: string[], io: Io): Promise<number> {
  const state: ProgramState = { exitCode: 0, json: wantsJson(argv), debug: argv.includes('--debug') };
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
    return reportError(e, io, { json: state.json, debug: state.debug });
  }
}
