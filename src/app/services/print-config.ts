/** `serve --print-config <client>`: the exact snippet that makes a client start mcp-smart, and the mode that suits it. */
import { SmartError } from '../../process/errors.js';
import { parseClientName as parseClientId } from '../../core/config/clients.js';
import type { ClientId, ServeMode } from '../../core/types.js';
import type { Launch } from './launcher.js';
import { codexStartupLines } from '../../core/adopt/codex-startup.js';

export const CLIENTS = [
  'claude-code',
  'claude-desktop',
  'cursor',
  'vscode',
  'windsurf',
  'gemini-cli',
  'codex',
  'cline',
  'roo',
] as const;
export type ClientName = (typeof CLIENTS)[number];

interface ClientInfo {
  title: string;
  file: string;
  /** `mcpServers` JSON, VS Code's `servers` JSON, or Codex TOML. */
  shape: 'mcpServers' | 'vscode' | 'toml';
  mode: ServeMode;
  why: string;
  /** CLI clients: their own add and remove commands (they write their config; mcp-smart never does). */
  cli?: { add: (name: string, launch: Launch) => string[]; remove: (name: string) => string[] };
  /**
   * How the client names the variables of its own environment a server it starts may see, when it does not pass its
   * whole environment on: the key of its entry and where that list is documented.
   */
  envAllowlist?: { key: string; note: string };
  /**
   * How the client's add command is given a variable it would withhold from the servers it starts (Gemini CLI: its
   * env option, which stores the value in its own settings), and why.
   */
  envFlag?: { flag: string; note: string };
  /** The client passes its whole environment on to a server (its env flag then only carries what adopt made). */
  passesEnv?: true;
  /** Lines the entry carries beside command and args, which the client's add command has no flag for, and why. */
  startup?: { lines: string[]; note: string };
}

const OWN_SEARCH =
  'it runs its own tool search over whatever tools a server exposes, so condensed tools beat a second search layer';
const NO_SEARCH =
  'it sends every tool to the model on each request, so the budget decides what is first-class and the rest sits behind find_tool';

const INFO: Record<ClientName, ClientInfo> = {
  'claude-code': {
    title: 'Claude Code',
    file: '.mcp.json (project) or ~/.claude.json',
    shape: 'mcpServers',
    mode: 'tools',
    why: OWN_SEARCH,
    // `claude mcp add [options] <name> <commandOrUrl> [args...]`; the local scope is this project, private to you.
    cli: {
      add: (name, l) => ['claude', 'mcp', 'add', '--scope', 'local', name, '--', l.command, ...l.args],
      remove: (name) => ['claude', 'mcp', 'remove', '--scope', 'local', name],
    },
    // `claude mcp add -e KEY=value` stores the value in the entry's env (~/.claude.json): the secrets adopt turned
    // into variables reach serve wherever Claude Code is started from.
    envFlag: {
      flag: '-e',
      note: 'Claude Code stores these values in its own config for the mcp-smart entry, as it stored them in your entries; run this where each is set to the value your entry had (adopt never prints it)',
    },
    passesEnv: true,
  },
  'claude-desktop': {
    title: 'Claude Desktop',
    file: 'claude_desktop_config.json (Settings → Developer → Edit Config)',
    shape: 'mcpServers',
    mode: 'auto',
    why: NO_SEARCH,
  },
  cursor: {
    title: 'Cursor',
    file: '.cursor/mcp.json (project) or ~/.cursor/mcp.json',
    shape: 'mcpServers',
    mode: 'auto',
    why: `${NO_SEARCH}; Cursor also uses only about 40 tools`,
  },
  vscode: { title: 'VS Code', file: '.vscode/mcp.json', shape: 'vscode', mode: 'tools', why: OWN_SEARCH },
  windsurf: {
    title: 'Windsurf',
    file: '~/.codeium/windsurf/mcp_config.json',
    shape: 'mcpServers',
    mode: 'auto',
    why: NO_SEARCH,
  },
  'gemini-cli': {
    title: 'Gemini CLI',
    file: '.gemini/settings.json or ~/.gemini/settings.json',
    shape: 'mcpServers',
    mode: 'auto',
    why: NO_SEARCH,
    // `gemini mcp add [options] <name> <commandOrUrl> [args...]`; after `--` yargs keeps `--demo` etc. as args.
    // The user scope (~/.gemini/settings.json) keeps this machine's absolute paths out of the project's files.
    cli: {
      add: (name, l) => ['gemini', 'mcp', 'add', '--scope', 'user', name, l.command, '--', ...l.args],
      remove: (name) => ['gemini', 'mcp', 'remove', '--scope', 'user', name],
    },
    // Gemini CLI 0.61 starts a stdio server with its environment redacted, always (bundle connectToMcpServer →
    // sanitizeEnvironment with enableEnvironmentVariableRedaction forced on): names matching TOKEN, KEY, AUTH,
    // SECRET, PASSWORD, CREDENTIAL, CERT, … and values that look like GitHub tokens, Google API keys or private keys
    // are dropped, and `$VAR` left in an entry's env at that point is expanded from the redacted environment. A
    // value given with `-e NAME=value` is stored in its settings and passed as written; a `$NAME` written in
    // settings.json is filled earlier, when the settings are read, from the full environment
    // (test/e2e/real-clients-print-env.test.ts shows both reach serve).
    envFlag: {
      flag: '-e',
      note: 'Gemini CLI withholds variables named like secrets (…_TOKEN, …_KEY, …) from the servers it starts; run this where they are set: the shell puts their values into its own settings, where your entries had them',
    },
  },
  codex: {
    title: 'Codex',
    file: '~/.codex/config.toml',
    shape: 'toml',
    mode: 'tools',
    why: OWN_SEARCH,
    // `codex mcp add <NAME> -- <COMMAND>...` writes ~/.codex/config.toml.
    cli: {
      add: (name, l) => ['codex', 'mcp', 'add', name, '--', l.command, ...l.args],
      remove: (name) => ['codex', 'mcp', 'remove', name],
    },
    // Codex starts a stdio server with HOME, PATH, TMPDIR and a few more of its own variables, plus the entry's env
    // and env_vars (codex-rs rmcp-client create_env_for_mcp_server, DEFAULT_ENV_VARS; seen with 0.171.0: a variable
    // set where Codex ran did not reach the server). `codex mcp add` has --env KEY=VALUE but no env_vars flag.
    envAllowlist: {
      key: 'env_vars',
      note: 'Codex gives a server only HOME, PATH and a few other variables of its own, so serve would start your servers without these',
    },
    startup: {
      lines: codexStartupLines(),
      note: `required = true: Codex waits for serve's tools before its first turn (without it a cold start can leave them out) and stops with an error naming the entry when serve cannot start within startup_timeout_sec`,
    },
  },
  cline: {
    title: 'Cline',
    file: 'cline_mcp_settings.json (MCP Servers → Configure)',
    shape: 'mcpServers',
    mode: 'auto',
    why: NO_SEARCH,
  },
  roo: {
    title: 'Roo Code',
    file: '.roo/mcp.json or mcp_settings.json',
    shape: 'mcpServers',
    mode: 'auto',
    why: NO_SEARCH,
  },
};

/** print-config's name for a client id: `gemini` is `gemini-cli` there. */
export const printName = (client: ClientId): ClientName => (client === 'gemini' ? 'gemini-cli' : client);

/** print-config's name for a client: the ids and their spellings as --client takes them. */
export function parseClientName(value: string): ClientName {
  const { client, suggestion } = parseClientId(value);
  if (client) return printName(client);
  throw new SmartError('BAD_FLAG', {
    flag: '--print-config',
    value,
    hint: `${suggestion ? `Did you mean "${printName(suggestion)}"? ` : ''}Expected one of: ${CLIENTS.join(', ')}.`,
  });
}

/** The mode print-config suits to a client when --mode is not given. */
export function clientMode(client: ClientName): ServeMode {
  return INFO[client].mode;
}

/** A word as a POSIX shell reads it back unchanged: bare when safe, else in single quotes. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

const TOML_BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** True when the client does not pass its whole environment on to a server it starts (Codex, Gemini CLI). */
export function withholdsEnv(client: ClientName): boolean {
  const info = INFO[client];
  return info.envAllowlist !== undefined || (info.envFlag !== undefined && info.passesEnv !== true);
}

/** The add command as printed: with `-e "NAME=$NAME"` for each variable the client would withhold (Gemini CLI). */
function addLine(info: ClientInfo, req: PrintRequest): string {
  const words = info.cli!.add(req.name, req.launch).map(shellQuote);
  const flag = info.envFlag;
  const vars = carriedVars(info, req);
  if (!flag || !vars?.length) return words.join(' ');
  const given = vars.flatMap((v) => [flag.flag, `"${v}=$${v}"`]);
  return [...words.slice(0, 3), ...given, ...words.slice(3)].join(' ');
}

/** `["A", "B"]`: a TOML array of strings. */
const tomlStrings = (values: string[]): string => `[${values.map((v) => JSON.stringify(v)).join(', ')}]`;

/** The variables the client must pass on to serve, where it would not by itself (Codex: `env_vars = [...]`). */
function passOnLine(client: ClientName, envVars: string[] | undefined): string | undefined {
  const allow = INFO[client].envAllowlist;
  return allow && envVars?.length ? `${allow.key} = ${tomlStrings(envVars)}` : undefined;
}

/**
 * The entry a client's own config file holds for `name`, in that client's format. `envVars`: the variables the
 * servers behind serve refer to, listed where the client passes on only the variables an entry names (Codex).
 */
export function configSnippet(client: ClientName, name: string, launch: Launch, envVars?: string[]): string {
  const { command, args } = launch;
  const shape = INFO[client].shape;
  if (shape === 'toml') {
    const key = TOML_BARE_KEY.test(name) ? name : JSON.stringify(name);
    const lines = [...(INFO[client].startup?.lines ?? []), passOnLine(client, envVars) ?? []].flat();
    return [
      `[mcp_servers.${key}]`,
      `command = ${JSON.stringify(command)}`,
      `args = ${tomlStrings(args)}`,
      ...lines,
    ].join('\n');
  }
  if (shape === 'vscode') return JSON.stringify({ servers: { [name]: { type: 'stdio', command, args } } }, null, 2);
  // Gemini CLI fills `$NAME` in its settings from its own, unredacted environment when it reads them (bundle
  // loadSettings → resolveEnvVarsInObject), before it redacts what a server is started with: references, no values.
  const refs =
    INFO[client].envFlag && envVars?.length
      ? { env: Object.fromEntries(envVars.map((v) => [v, INFO[client].passesEnv ? `\${${v}}` : `$${v}`])) }
      : {};
  return JSON.stringify({ mcpServers: { [name]: { command, args, ...refs } } }, null, 2);
}

export interface PrintRequest {
  client: ClientName;
  /** The name the client gives the server (serve --key). */
  name: string;
  launch: Launch;
  mode: ServeMode;
  /** True when --mode chose the mode. */
  modeAsked: boolean;
  /** Why this mode, when the caller chose it for another reason than the client's default (adopt). */
  why?: string;
  /** The variables the servers behind serve refer to (`${VAR}` in the file serve reads). */
  envVars?: string[];
  /**
   * For a client that passes its whole environment on (Claude Code): the variables its add command still carries
   * with its env flag — the secrets adopt turned into variables, which nothing else sets. `envVars` is ignored there.
   */
  carry?: string[];
}

/** The variables a client's add command gives with its env flag. */
function carriedVars(info: ClientInfo, req: PrintRequest): string[] | undefined {
  return info.passesEnv ? req.carry : req.envVars;
}

/** The snippet, the client's own switch and way back (CLI clients), and the reasoning, as printed text. */
export function printConfig(req: PrintRequest): string {
  const info = INFO[req.client];
  const lines = [
    `# ${info.title}, mode ${req.mode}${req.modeAsked ? ' (chosen with --mode)' : `: ${req.why ?? info.why}`}.`,
    `# Keep your servers in the file serve reads (mcp-smart.config.json "servers"), not in ${info.title}'s own config,`,
    '# or it starts them too. Printing this edits no file; `adopt --apply` makes the switch in its files, `--undo` undoes it.',
    req.launch.via === 'registry'
      ? `# Starts mcp-smart ${req.launch.args[1]?.split('@')[1] ?? ''} from the npm registry (npx, pinned to this version).`
      : `# Starts this copy of mcp-smart by its path; after moving or reinstalling it, print this again.`,
  ];
  const carried = carriedVars(info, req);
  const snippet = configSnippet(req.client, req.name, req.launch, carried);
  const passOn = passOnLine(req.client, req.envVars);
  const byHand = [...(info.startup?.lines ?? []), ...(passOn ? [passOn] : [])];
  if (info.cli) {
    const addWords = info.cli.add(req.name, req.launch).slice(0, 3).join(' ');
    lines.push(
      `# Switch: ${info.title} adds the entry to its own config.`,
      ...(info.envFlag && carried?.length ? [`# ${info.envFlag.note}.`] : []),
      addLine(info, req),
      ...(byHand.length > 0
        ? [
            `# Then add ${byHand.length === 1 ? 'this line' : 'these lines'} to the "${req.name}" entry in ${info.file} (${addWords} has no flag for ${byHand.length === 1 ? 'it' : 'them'});`,
            ...(info.startup ? [`# ${info.startup.note}.`] : []),
            ...(passOn ? [`# ${info.envAllowlist!.note}:`] : []),
            ...byHand,
          ]
        : []),
      '# Way back:',
      removeCommand(req.client, req.name)!,
      info.envFlag && carried?.length && !info.passesEnv
        ? `# Or by hand, in ${info.file} ("$NAME" is filled in from ${info.title}'s environment when it reads the file):`
        : `# Or by hand, in ${info.file}:`,
    );
  } else {
    lines.push(`# Add this to ${info.file}; to go back, remove it and restore your own entries.`);
  }
  return `${lines.join('\n')}\n${snippet}\n`;
}

/** A CLI client's own add and remove commands for the entry `name`, as argv arrays; undefined for GUI clients. */
export function clientCommands(
  client: ClientName,
  name: string,
  launch: Launch,
): { switch: string[]; back: string[] } | undefined {
  const cli = INFO[client].cli;
  return cli && { switch: cli.add(name, launch), back: cli.remove(name) };
}

/** A CLI client's own command that removes the entry `name` added by the printed switch; undefined for GUI clients. */
export function removeCommand(client: ClientName, name: string): string | undefined {
  return INFO[client].cli?.remove(name).map(shellQuote).join(' ');
}
