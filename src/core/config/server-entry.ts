/** Validates one client-config server entry and normalises it (before `${VAR}` expansion). Pure. */
import { SmartError } from '../../process/errors.js';
import type { ClientId, ServerDefinition, ToolFilter, Transport } from '../types.js';
import { describeType, formatKeyPath, isPlainObject, type KeyPart } from './key-path.js';

/** One entry as the file has it, before `${VAR}` expansion: a ServerDefinition without where it came from. */
export type RawServer = Omit<
  ServerDefinition,
  'source' | 'scope' | 'shadowed' | 'nameFromServer' | 'autoTransport' | 'client' | 'layer'
> & {
  autoTransport: boolean;
  /** VS Code / Cursor `envFile`, as written (expanded and read by the loader). */
  envFile?: string;
  /** Codex `env_vars`: names of variables passed on from the client's own environment. */
  envVars?: string[];
  /** Codex headers whose value is read from a named variable (`bearer_token_env_var`, `env_http_headers`). */
  headerVars?: Record<string, { prefix: string; variable: string }>;
  /** What the client would do differently from what the file seems to say, with the key path. */
  warnings: string[];
};

const TYPE_MAP: Record<string, Transport> = {
  stdio: 'stdio',
  local: 'stdio',
  http: 'http',
  'streamable-http': 'http',
  streamablehttp: 'http',
  streamable_http: 'http',
  'streamable http': 'http',
  remote: 'http',
  sse: 'sse',
};

class EntryReader {
  constructor(
    private readonly file: string,
    private readonly at: readonly KeyPart[],
    private readonly raw: Record<string, unknown>,
  ) {}

  fail(key: readonly KeyPart[], reason: string): never {
    throw new SmartError('CONFIG_INVALID', { file: this.file, key: formatKeyPath([...this.at, ...key]), reason });
  }

  string(key: string): string | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string')
      this.fail([key], `expected a string, got ${describeType(v)}. Put the value in double quotes.`);
    return v;
  }

  boolean(key: string): boolean | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') this.fail([key], `expected true or false, got ${describeType(v)}.`);
    return v;
  }

  /** `example`: how the list is written, for the error (arguments by default; tool names for a tool filter). */
  stringArray(key: string, example = '["--flag", "value"]'): string[] | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v))
      this.fail([key], `expected an array of strings, got ${describeType(v)}. Write it as ${example}.`);
    return v.map((item: unknown, i) => {
      if (typeof item !== 'string')
        this.fail([key, i], `expected a string, got ${describeType(item)}. Put the value in double quotes.`);
      return item;
    });
  }

  stringMap(key: string): Record<string, string> | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (!isPlainObject(v)) this.fail([key], `expected an object of string values, got ${describeType(v)}.`);
    const out: Record<string, string> = {};
    for (const [k, item] of Object.entries(v)) {
      if (typeof item !== 'string')
        this.fail([key, k], `expected a string, got ${describeType(item)}. Put the value in double quotes.`);
      out[k] = item;
    }
    return out;
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Validates and normalises `raw` found at key path `at` of `file`, read as `client` reads it. Throws CONFIG_INVALID. */
export function normalizeServerEntry(
  name: string,
  raw: unknown,
  at: readonly KeyPart[],
  file: string,
  client: ClientId | undefined,
): RawServer {
  if (!isPlainObject(raw)) {
    throw new SmartError('CONFIG_INVALID', {
      file,
      key: formatKeyPath(at),
      reason: `expected an object with "command" (stdio) or "url" (HTTP/SSE), got ${describeType(raw)}.`,
    });
  }
  const r: EntryReader = new EntryReader(file, at, raw);
  const keyOf = (...k: KeyPart[]): string => formatKeyPath([...at, ...k]);
  const warnings: string[] = [];
  let notLoaded: string | undefined;
  const refuse = (key: string, behaviour: string): void => {
    warnings.push(`${file}: ${key}: ${behaviour}`);
    notLoaded ??= behaviour;
  };

  const command = r.string('command');
  const args = r.stringArray('args');
  const env = r.stringMap('env');
  const cwd = r.string('cwd');
  const disabled = r.boolean('disabled');
  const enabled = r.boolean('enabled');
  const httpUrl = r.string('httpUrl');
  const serverUrl = r.string('serverUrl');
  const url = r.string('url');
  const headers: Record<string, string> = { ...r.stringMap('headers'), ...r.stringMap('http_headers') };
  const headerVars: Record<string, { prefix: string; variable: string }> = {};
  // Codex names the environment variables that hold header values instead of the values themselves
  // (openai/codex docs/config.md "Streamable HTTP": bearer_token_env_var, env_http_headers).
  for (const [header, variable] of Object.entries(r.stringMap('env_http_headers') ?? {}))
    headerVars[header] = { prefix: '', variable };
  const bearerVar = r.string('bearer_token_env_var');
  if (bearerVar !== undefined) headerVars.Authorization = { prefix: 'Bearer ', variable: bearerVar };
  // Codex `env_vars`: variables forwarded from Codex's own environment (openai/codex docs/config.md "STDIO").
  const envVars = client === 'codex' ? r.stringArray('env_vars') : undefined;
  // VS Code and Cursor: "envFile" loads variables from a file (code.visualstudio.com/docs/copilot/reference/mcp-configuration,
  // cursor.com/docs/context/mcp).
  const envFile = client === 'vscode' || client === 'cursor' || client === undefined ? r.string('envFile') : undefined;

  let typeKey: string | undefined;
  let typeValue: string | undefined;
  for (const key of ['type', 'transport', 'transportType']) {
    const v = r.string(key);
    if (v !== undefined) {
      typeKey = key;
      typeValue = v;
      break;
    }
  }
  let transport: Transport | undefined;
  if (typeKey !== undefined && typeValue !== undefined) {
    transport = TYPE_MAP[typeValue.toLowerCase()];
    if (!transport)
      r.fail([typeKey], `unknown transport "${typeValue}". Use one of: stdio, http, streamable-http, sse.`);
  }

  const anyUrl = httpUrl ?? serverUrl ?? url;
  let autoTransport = false;
  const urlKey = httpUrl !== undefined ? 'httpUrl' : serverUrl !== undefined ? 'serverUrl' : 'url';
  if (command !== undefined && anyUrl !== undefined) {
    // No client documents both (Gemini: exactly one of command, url, httpUrl); which one a client takes differs.
    if (transport === undefined)
      r.fail([], `has both "command" (a stdio server) and "${urlKey}" (an HTTP server): keep the one you mean.`);
    else
      warnings.push(
        `${file}: ${keyOf(transport === 'stdio' ? urlKey : 'command')}: ignored: "${typeKey}" is "${typeValue}".`,
      );
  }
  if (transport === undefined) {
    if (command !== undefined) transport = 'stdio';
    else if (httpUrl !== undefined) transport = 'http';
    else if (serverUrl !== undefined || url !== undefined) {
      transport = 'http';
      // Codex speaks Streamable HTTP only (openai/codex docs/config.md). Gemini's `url` without `type`: current
      // releases try Streamable HTTP and fall back to SSE (gemini-cli packages/core/src/tools/mcp-client.ts
      // createTransport); the others try both too.
      autoTransport = client !== 'codex';
      if (client === 'claude-code') {
        // https://code.claude.com/docs/en/mcp: remote entries in .mcp.json / ~/.claude.json carry "type": "http"
        // or "sse"; without it the entry is read as stdio and rejected for lacking "command".
        refuse(
          keyOf('type'),
          `Claude Code needs "type": "http" or "sse" beside "url"; without it Claude Code rejects this server.`,
        );
      }
    } else {
      r.fail([], 'needs "command" (a stdio server) or "url" (an HTTP/SSE server).');
    }
  } else if (transport === 'http' && client === 'vscode') {
    // code.visualstudio.com/docs/copilot/customization/mcp-servers: for "type": "http" VS Code tries Streamable HTTP
    // first and falls back to SSE when the server does not support it.
    autoTransport = true;
  }
  if (transport === 'stdio' && command === undefined) {
    r.fail(['command'], 'a stdio server needs "command": the program to start.');
  }
  if (transport === 'stdio' && command?.trim() === '') r.fail(['command'], 'is empty: name the program to start.');
  if (transport !== 'stdio' && anyUrl === undefined) {
    r.fail(['url'], `a ${transport} server needs "url".`);
  }
  // A literal URL is checked here (exit 2, like --url); one built from a variable is checked when it is used.
  if (transport !== 'stdio' && anyUrl !== undefined && !anyUrl.includes('$') && !isHttpUrl(anyUrl)) {
    const key = httpUrl !== undefined ? 'httpUrl' : serverUrl !== undefined ? 'serverUrl' : 'url';
    r.fail([key], 'is not an http:// or https:// URL. Write it like "http://127.0.0.1:3000/mcp".');
  }
  if (transport !== 'stdio' && client === 'claude-desktop') {
    // support.claude.com "Getting started with custom connectors using remote MCP": Claude Desktop does not connect
    // to remote servers configured directly in claude_desktop_config.json; they are added as connectors.
    refuse(
      keyOf(httpUrl !== undefined ? 'httpUrl' : serverUrl !== undefined ? 'serverUrl' : 'url'),
      'Claude Desktop starts only stdio servers from this file (remote servers are added under Settings > Connectors), so it does not load this one.',
    );
  }
  if (client === 'roo' && raw.alwaysAllow !== undefined && !Array.isArray(raw.alwaysAllow)) {
    // RooCodeInc/Roo-Code src/services/mcp/McpHub.ts: the server schema declares alwaysAllow as an array of
    // tool names; a config failing the schema is reported as invalid and the server is not started.
    refuse(
      keyOf('alwaysAllow'),
      `Roo Code requires "alwaysAllow" to be an array of tool names (got ${describeType(raw.alwaysAllow)}); it rejects this server's settings and does not start it.`,
    );
  }

  const out: RawServer = {
    name,
    transport,
    autoTransport,
    enabled: disabled !== true && enabled !== false,
    warnings,
  };
  const filter = toolFilterOf(r, client, at);
  if (filter) out.toolFilter = filter;
  if (notLoaded !== undefined) out.notLoaded = notLoaded;
  if (transport === 'stdio') {
    out.command = command;
    if (args) out.args = args;
    if (env) out.env = env;
    if (cwd !== undefined) out.cwd = cwd;
    if (envFile !== undefined) out.envFile = envFile;
    if (envVars && envVars.length > 0) out.envVars = envVars;
  } else {
    out.url = anyUrl;
    if (Object.keys(headers).length > 0) out.headers = headers;
    if (Object.keys(headerVars).length > 0) out.headerVars = headerVars;
    const oauth = readOAuthSettings(r, raw.oauth, client);
    if (oauth) out.oauth = oauth;
  }
  return out;
}

/**
 * The per-server tool allow/deny lists of the clients that have them. A file no client owns (mcp-smart.config.json,
 * a generic --config file) takes every client's spelling, so an entry copied from any client keeps its filter:
 * several allow lists all apply (a tool must be on each), deny lists add up.
 */
function toolFilterOf(r: EntryReader, client: ClientId | undefined, at: readonly KeyPart[]): ToolFilter | undefined {
  const pairs: { include: string[]; exclude: string[] } =
    client === 'codex'
      ? // openai/codex docs/config.md: enabled_tools (allow list) and disabled_tools (applied after it).
        { include: ['enabled_tools'], exclude: ['disabled_tools'] }
      : client === 'gemini'
        ? // gemini-cli docs/tools/mcp-server.md: includeTools / excludeTools; "excludeTools takes precedence".
          { include: ['includeTools'], exclude: ['excludeTools'] }
        : client === 'roo' || client === 'windsurf'
          ? // docs.roocode.com/features/mcp/using-mcp-in-roo and docs.windsurf.com/windsurf/cascade/mcp: disabledTools.
            { include: [], exclude: ['disabledTools'] }
          : client === undefined
            ? { include: TOOL_FILTER_KEYS.include, exclude: TOOL_FILTER_KEYS.exclude }
            : { include: [], exclude: [] };
  const filter: ToolFilter = { keys: [] };
  const tools = '["tool_name", "other_tool"]';
  for (const key of pairs.include) {
    const list = r.stringArray(key, tools);
    if (list === undefined) continue;
    filter.include = filter.include === undefined ? list : filter.include.filter((t) => list.includes(t));
    filter.keys.push(formatKeyPath([...at, key]));
  }
  for (const key of pairs.exclude) {
    const list = r.stringArray(key, tools);
    if (list === undefined) continue;
    filter.exclude = [...new Set([...(filter.exclude ?? []), ...list])];
    filter.keys.push(formatKeyPath([...at, key]));
  }
  return filter.keys.length > 0 ? filter : undefined;
}

/** Tool filter keys mcp-smart.config.json accepts on a server entry (every client's spelling). */
export const TOOL_FILTER_KEYS = {
  include: ['includeTools', 'enabled_tools'],
  exclude: ['excludeTools', 'disabled_tools', 'disabledTools'],
};

// --- OAuth client settings (issue 19): `"oauth": {clientId, clientSecret?, scopes?, clientMetadataUrl?}` ---
const OAUTH_KEYS = ['clientId', 'clientSecret', 'scopes', 'clientMetadataUrl'];
// Gemini's own "oauth" block: every key of MCPOAuthConfig in @google/gemini-cli-core 0.61.0
// (dist/src/mcp/oauth-provider.d.ts); the ones not in OAUTH_KEYS configure Gemini's flow, not ours.
const GEMINI_OAUTH_KEYS = [
  'enabled',
  'authorizationUrl',
  'issuer',
  'tokenUrl',
  'audiences',
  'redirectUri',
  'tokenParamName',
  'registrationUrl',
];

function readOAuthSettings(r: EntryReader, v: unknown, client: ClientId | undefined): RawServer['oauth'] {
  if (v === undefined || v === null) return undefined;
  if (!isPlainObject(v)) r.fail(['oauth'], `expected an object like {"clientId": "…"}, got ${describeType(v)}.`);
  const at = (key: string, reason: string): never => r.fail(['oauth', key], reason);
  for (const key of Object.keys(v))
    // A file of no known client is read permissively, like its server maps: Gemini's keys pass there too.
    if (
      !OAUTH_KEYS.includes(key) &&
      !((client === 'gemini' || client === undefined) && GEMINI_OAUTH_KEYS.includes(key))
    )
      at(key, `unknown key. Expected one of: ${OAUTH_KEYS.join(', ')}.`);
  const pick = (key: string): string | undefined => {
    const x = v[key];
    if (x === undefined || x === null) return undefined;
    if (typeof x !== 'string' || x === '') at(key, 'expected a non-empty string.');
    return x as string;
  };
  const clientId = pick('clientId');
  const clientSecret = pick('clientSecret');
  const clientMetadataUrl = pick('clientMetadataUrl');
  if (clientSecret !== undefined && clientId === undefined) at('clientSecret', 'a client secret needs "clientId".');
  let scopes: string[] | undefined;
  if (v.scopes !== undefined && v.scopes !== null) {
    if (!Array.isArray(v.scopes) || v.scopes.some((x) => typeof x !== 'string'))
      at('scopes', 'expected an array of strings, like ["repo", "read:org"].');
    scopes = v.scopes as string[];
  }
  return {
    ...(clientId !== undefined ? { clientId } : {}),
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    ...(scopes !== undefined ? { scopes } : {}),
    ...(clientMetadataUrl !== undefined ? { clientMetadataUrl } : {}),
  };
}

export interface WrittenFields {
  command?: string;
  args?: string[];
  cwd?: string;
  url?: string;
}

/** The fields of an entry that reference a variable, as written (`${API_HOST}/mcp`), not expanded. */
export function writtenFields(raw: RawServer): WrittenFields {
  const has = (v: string | undefined): v is string => v !== undefined && v.includes('$');
  const out: WrittenFields = {};
  if (has(raw.command)) out.command = raw.command;
  if (raw.args?.some(has)) out.args = raw.args;
  if (has(raw.cwd)) out.cwd = raw.cwd;
  if (has(raw.url)) out.url = raw.url;
  return out;
}
