/** What each MCP client does with its config: how it expands variables and what `--client` calls it. Pure data. */
import type { ClientId } from '../types.js';
import { closestKey } from './key-path.js';

/** Which `${…}` forms a client expands, and what it does with a variable that is not set. */
export interface VariableSyntax {
  /** `${VAR}` (and, when `defaults`, `${VAR:-default}`). */
  braces: boolean;
  defaults: boolean;
  /** `${env:VAR}`. */
  envPrefix: boolean;
  /** Bare `$VAR`. */
  dollar: boolean;
  /** `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}`, `${/}`. */
  editorVars: boolean;
  /** `${input:id}` (and `${command:…}`, `${config:…}`): asked of the user by the editor, unknown to mcp-smart. */
  inputs: boolean;
  /** An unset variable without default: replaced by "", kept as written, or the server is refused. */
  unset: 'empty' | 'literal' | 'refuse';
}

export interface ClientInfo {
  id: ClientId;
  label: string;
  vars: VariableSyntax;
}

const NONE: VariableSyntax = {
  braces: false,
  defaults: false,
  envPrefix: false,
  dollar: false,
  editorVars: false,
  inputs: false,
  unset: 'literal',
};

/** What mcp-smart does for a file no client owns (an unrecognised `--config` file, mcp-settings.json). */
export const GENERIC_VARS: VariableSyntax = {
  braces: true,
  defaults: true,
  envPrefix: true,
  dollar: false,
  editorVars: true,
  inputs: true,
  unset: 'empty',
};

export const CLIENTS: Record<ClientId, ClientInfo> = {
  // https://code.claude.com/docs/en/mcp "Environment variable expansion in .mcp.json": ${VAR} and
  // ${VAR:-default} in command, args, env, url, headers; "If a required environment variable is not set and
  // has no default value, Claude Code will fail to parse the config."
  'claude-code': {
    id: 'claude-code',
    label: 'Claude Code',
    vars: { ...NONE, braces: true, defaults: true, unset: 'refuse' },
  },
  // https://modelcontextprotocol.io/docs/develop/connect-local-servers: values are passed as written (no
  // expansion); a wrapper such as mcp-remote may fill ${VAR} from the server's own env.
  'claude-desktop': { id: 'claude-desktop', label: 'Claude Desktop', vars: NONE },
  // https://cursor.com/docs/context/mcp "Config interpolation": ${env:NAME}, ${userHome}, ${workspaceFolder},
  // ${workspaceFolderBasename}, ${pathSeparator} / ${/}; a plain ${VAR} is not one of them and stays literal.
  cursor: { id: 'cursor', label: 'Cursor', vars: { ...NONE, envPrefix: true, editorVars: true, unset: 'empty' } },
  // https://code.visualstudio.com/docs/copilot/reference/mcp-configuration: predefined variables
  // (${workspaceFolder}, ${userHome}, …), ${env:VAR} and ${input:id} (prompted); https://code.visualstudio.com/docs/reference/variables-reference
  // — an unset ${env:VAR} becomes ""; a plain ${VAR} is not a VS Code variable and stays literal.
  vscode: {
    id: 'vscode',
    label: 'VS Code',
    vars: { ...NONE, envPrefix: true, editorVars: true, inputs: true, unset: 'empty' },
  },
  // https://docs.windsurf.com/windsurf/cascade/mcp "Config interpolation": ${env:VAR} in command, args, env,
  // serverUrl, url and headers.
  windsurf: { id: 'windsurf', label: 'Windsurf', vars: { ...NONE, envPrefix: true, unset: 'empty' } },
  // google-gemini/gemini-cli docs/tools/mcp-server.md ("$VAR_NAME or ${VAR_NAME}") and
  // packages/cli/src/utils/envVarResolver.ts: $VAR, ${VAR}, ${VAR:-default}; an unset variable is left as written.
  gemini: {
    id: 'gemini',
    label: 'Gemini CLI',
    vars: { ...NONE, braces: true, defaults: true, dollar: true, unset: 'literal' },
  },
  // https://developers.openai.com/codex/mcp and openai/codex docs/config.md: values are literal; variables
  // are named instead (env_vars, bearer_token_env_var, env_http_headers).
  codex: { id: 'codex', label: 'Codex', vars: NONE },
  // https://docs.cline.bot/mcp/configuring-mcp-servers: no variable expansion is documented; values are literal.
  cline: { id: 'cline', label: 'Cline', vars: NONE },
  // https://docs.roocode.com/features/mcp/using-mcp-in-roo "Environment variables": ${env:VAR}.
  roo: { id: 'roo', label: 'Roo Code', vars: { ...NONE, envPrefix: true, editorVars: true, unset: 'empty' } },
};

export const CLIENT_IDS = Object.keys(CLIENTS) as ClientId[];

/** Other spellings of the ids: the clients' own names ("Gemini CLI", "Roo Code") and what people type. */
const CLIENT_ALIASES: Record<string, ClientId> = {
  'gemini-cli': 'gemini',
  'vs-code': 'vscode',
  code: 'vscode',
  'roo-code': 'roo',
  'cline/roo': 'cline',
};

/**
 * The client id for a client's name (`--client`, `adopt <client>`, `serve --print-config`: one set of names, so the
 * `gemini-cli` print-config shows is taken by adopt too), or undefined with a suggestion.
 */
export function parseClientName(value: string): { client?: ClientId; suggestion?: ClientId } {
  const v = value
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  const id = CLIENT_ALIASES[v] ?? v;
  if ((CLIENT_IDS as string[]).includes(id)) return { client: id as ClientId };
  const s = closestKey(v, CLIENT_IDS);
  return s === undefined ? {} : { suggestion: s };
}

export function variableSyntax(client: ClientId | undefined): VariableSyntax {
  return client === undefined ? GENERIC_VARS : CLIENTS[client].vars;
}

export function clientLabel(client: ClientId | undefined): string {
  return client === undefined ? 'mcp-smart' : CLIENTS[client].label;
}
