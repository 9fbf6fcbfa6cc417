/** Shared domain types. Plain JSON data: everything here can be written to and read from disk. */

export type Transport = 'stdio' | 'http' | 'sse';

/** Where a server definition came from. */
export type SourceScope = 'project' | 'user' | 'explicit' | 'adhoc' | 'demo';

/** The MCP clients whose config files mcp-smart reads as that client does (`--client <name>`). */
export type ClientId =
  'claude-code' | 'claude-desktop' | 'cursor' | 'vscode' | 'windsurf' | 'gemini' | 'codex' | 'cline' | 'roo';

/** Which layer of its client's config a definition came from, for that client's precedence. */
export type ConfigLayer = 'local' | 'project' | 'user' | 'system' | 'system-defaults';

/** Tools the client hides from the model although the server lists them (allow list, then deny list). */
export interface ToolFilter {
  /** Only these tools are sent (Codex `enabled_tools`, Gemini `includeTools`). */
  include?: string[];
  /** These tools are never sent; wins over `include` (Codex `disabled_tools`, Gemini `excludeTools`, …). */
  exclude?: string[];
  /** Key paths the filter came from, for messages. */
  keys: string[];
}

/** One MCP server as a client config describes it, after `${VAR}` expansion. */
export interface ServerDefinition {
  name: string;
  transport: Transport;
  command?: string;
  args?: string[];
  /** Secret: never printed, cached or written to a snapshot. */
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  /** Secret: never printed, cached or written to a snapshot. */
  headers?: Record<string, string>;
  enabled: boolean;
  /** The config file (absolute path) or a pseudo-source such as `--stdio`. */
  source: string;
  scope: SourceScope;
  /** `true` when `type` was not given for a URL server: try Streamable HTTP, then SSE. */
  autoTransport?: boolean;
  /** Sources of same-named definitions this one shadowed (lower precedence). */
  shadowed?: string[];
  /** Name was given explicitly (config key or --name); ad-hoc servers may take serverInfo.name. */
  nameFromServer?: boolean;
  /** The client whose file this definition was read from (absent for generic files, ad-hoc and demo servers). */
  client?: ClientId;
  /** The layer of that client's config (Claude Code local/project/user, Gemini system/project/user, …). */
  layer?: ConfigLayer;
  /** Tools the client hides from the model; counting separates them from the tools it sends. */
  toolFilter?: ToolFilter;
  /** Why the client would not load this server although the file lists it (enabled is false then). */
  notLoaded?: string;
  /**
   * Variables the definition refers to that are not set and have no default (names only). The client would start
   * the server with "" in their place; serve does not start it, and says which variable is missing.
   */
  unsetVariables?: string[];
  /** The client trust gate that keeps this server from loading (core/config/client-trust.ts). */
  gate?:
    | 'claude-pending'
    | 'claude-rejected'
    | 'claude-switched-off'
    | 'gemini-folder-untrusted'
    | 'codex-project-untrusted';
  /** The client's own records show this project server approved (or its folder trusted). */
  clientApproved?: boolean;
  /** Not started: a project-file server nobody approved yet (core/trust/project-gate.ts). */
  pendingTrust?: boolean;
  /** A pre-registered OAuth client for a remote server (issue 19); `clientSecret` is a secret like env. */
  oauth?: OAuthClientSettings;
}

/** `"oauth": {clientId, clientSecret?, scopes?, clientMetadataUrl?}` on a server entry. */
export interface OAuthClientSettings {
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
  /** An https URL where mcp-smart's client ID metadata document is published (used when the server supports it). */
  clientMetadataUrl?: string;
}

/** An ad-hoc server from --stdio / --url, in command-line order, with its --name. */
export interface AdhocServer {
  kind: 'stdio' | 'url';
  value: string;
  name?: string;
}

/** A tool exactly as the server sent it. */
export interface ToolSnapshot {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: JsonObject;
  outputSchema?: JsonObject;
  annotations?: JsonObject;
  [key: string]: unknown;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue | undefined;
}

export type ServerStatus = 'ok' | 'error';

/** The central value: one server, connected (or failed), with everything it listed. */
export interface ServerSnapshot {
  name: string;
  transport: Transport;
  source?: string;
  status: ServerStatus;
  /** Human-readable reason when status is "error". */
  error?: string;
  /** Problems on a server whose tools still count: malformed entries set aside, an optional list that failed. */
  notes?: string[];
  /** Stable code for the failure (see errors.ts CONNECT_* codes). */
  errorCode?: string;
  serverInfo?: { name: string; version?: string; [key: string]: unknown };
  protocolVersion?: string;
  /** A 2026-07-28 server's own cache hint on its tools/list result (ttlMs, cacheScope); absent for 2025 servers. */
  listCache?: { ttlMs: number; cacheScope: 'public' | 'private' };
  /** The same server's own cache hints on its other lists; absent for 2025 servers. */
  listCaches?: Partial<
    Record<'prompts' | 'resources' | 'resourceTemplates', { ttlMs: number; cacheScope: 'public' | 'private' }>
  >;
  instructions?: string;
  tools: ToolSnapshot[];
  prompts?: JsonObject[];
  resources?: JsonObject[];
  resourceTemplates?: JsonObject[];
  /** Server stderr, only kept in memory for --debug; never written to a snapshot. */
  stderr?: string;
  /** Milliseconds from spawn/connect to the last list call, when connected live. */
  elapsedMs?: number;
  /** True when this snapshot came from the tool-list cache. */
  cached?: boolean;
  /** When the cached list was stored (ms since the epoch); in memory only. */
  cachedAt?: number;
}

export const SNAPSHOT_FORMAT = 'mcp-smart/snapshot@1';

export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  createdAt: string;
  servers: ServerSnapshot[];
}

export type Encoding = 'o200k_base' | 'cl100k_base';
export const ENCODINGS: readonly Encoding[] = ['o200k_base', 'cl100k_base'];

export type OutputFormat = 'table' | 'json' | 'markdown' | 'github';

export type CondenseLevel = 'full' | 'lossless' | 'compact' | 'minimal' | 'names' | 'meta';
export const CONDENSE_LEVELS: readonly CondenseLevel[] = ['lossless', 'compact', 'minimal', 'names', 'meta'];

export type EngineName = 'keyword' | 'bm25' | 'semantic' | 'hybrid';
export const ENGINES: readonly EngineName[] = ['keyword', 'bm25', 'semantic', 'hybrid'];

/** A tool addressed across servers: id is `<server>.<tool>`. */
export interface ToolRef {
  id: string;
  server: string;
  tool: ToolSnapshot;
  /** Server instructions, for rankers that index them. */
  serverInstructions?: string;
}

/** Pattern rules from config (dynamic-discovery note). */
export interface PatternRule {
  match: string;
  boost?: number;
  pin?: boolean;
  exclude?: boolean;
}

/** `mcp-smart.config.json` after validation. Every key is optional. */
export interface SmartConfig {
  servers?: Record<string, unknown>;
  cache?: { ttlSeconds?: number };
  budget?: { max?: number; share?: number; limit?: number };
  thresholds?: { maxGrowth?: string | number; max?: number; minRecall?: number };
  baseline?: string;
  patterns?: { rules?: PatternRule[]; allowList?: boolean };
  weights?: Record<string, unknown>;
  keywords?: Record<string, string[]>;
  serve?: ServeConfig;
  /** The usage store: a file path or a PostgreSQL URL (`${VAR}` expanded from the environment). */
  store?: string;
  /** Who learned calls are attributed to: a name (stored hashed), or `{name, label}` to choose plain or hashed. */
  user?: string | { name: string; label?: 'plain' | 'hashed' };
}

/** How `serve` sends the tools: first-class (`tools`), behind meta-tools (`meta`), or chosen by the budget (`auto`). */
export type ServeMode = 'auto' | 'tools' | 'meta';

/** The `serve` section of mcp-smart.config.json: what `mcp-smart serve` sends. */
export interface ServeConfig {
  mode?: ServeMode;
  level?: 'full' | 'lossless' | 'compact' | 'minimal' | 'names';
  budget?: { max?: number; share?: number; limit?: number };
  servers?: Record<string, ServeServerConfig>;
  /** Prefix for the meta-tool names: `<prefix>_find_tool`. */
  prefix?: string;
  /** The name the client gives this server (for name-length limits); default "mcp-smart". */
  key?: string;
  activate?: boolean;
  /** Milliseconds for a server to start and initialize. */
  spawnTimeout?: number;
  /** Milliseconds for one forwarded call. */
  callTimeout?: number;
  /** Milliseconds a 2026-07-28 client's call is held open waiting for its retry with inputResponses (default 60,000). */
  inputTimeout?: number;
  /** Milliseconds a first tools/list waits for servers still starting before it is answered with what is ready. */
  firstListWait?: number;
  /** `_meta` load hints on pass-through tools (anthropic/alwaysLoad, anthropic/searchHint); false: none. */
  loadHints?: false | { maxTools?: number; maxTokens?: number; coverage?: number; searchHint?: boolean };
  /** Token budget of one find_tool answer (default 1,500; a call's `maxTokens` overrides it). */
  findToolMaxTokens?: number;
  /** `serve --transport http` as an OAuth 2.1 protected resource (src/serve/auth/): issuer, audience, per-user filters. */
  auth?: ServeAuthConfig;
}

/** Which served tools (ids "server.tool", `*` any run of characters) one user or group sees and may call. */
export interface IdentityToolFilter {
  includeTools?: string[];
  excludeTools?: string[];
}

export interface ServeAuthConfig {
  /** The issuer whose JWT access tokens are accepted (its discovery document names the JWKS). */
  issuer?: string;
  /** The token audience this gateway accepts (default: its own URL, e.g. http://127.0.0.1:8808/mcp). */
  audience?: string;
  /** Scopes every token must carry (403 insufficient_scope otherwise). */
  scopes?: string[];
  /** The issuer's JWKS URL, when discovery should not be asked for it. */
  jwksUri?: string;
  /** The claim naming the user's groups (default "groups"). */
  groupsClaim?: string;
  /** Per-user (token subject) tool filters. */
  users?: Record<string, IdentityToolFilter>;
  /** Per-group tool filters. */
  groups?: Record<string, IdentityToolFilter>;
}

export interface ServeServerConfig {
  load?: 'eager' | 'defer' | 'off';
  /** Seconds without a call after which the server is stopped; 0 or absent: never. */
  idleTimeout?: number;
  disable?: string[];
  pin?: string[];
  /** false: no load hints on this server's tools. */
  loadHints?: boolean;
  /** Tools of this server that get no load hints. */
  noHints?: string[];
}

/** Learned usage of one tool (usage-learning note). Times are ms since the epoch. */
export interface ToolUsage {
  success: number;
  failure: number;
  lastUsed: number;
  /** Task category (file_operation, web_request, …) → how often the tool served it. */
  categories: Record<string, number>;
  avgLatencyMs?: number;
  /** How many timed calls `avgLatencyMs` averages (so merged averages stay exact). */
  latencySamples?: number;
}

/** An intent a tool was really called for, as `replay --learn` remembers it (deduplicated, bounded). */
export interface RememberedIntent {
  /** The intent's text: whitespace collapsed, secrets redacted, at most MAX_INTENT_CHARS characters. */
  text: string;
  /** How often the tool was called for this intent (the same text, ignoring case). */
  count: number;
  /** Ms since the epoch of the latest such call. */
  last: number;
}

/** The usage store's content: tool id (`server.tool`) → usage. */
export interface UsageStats {
  tools: Record<string, ToolUsage>;
  /** Tool id → the intents it was called for; absent in stores written before remembered intents. */
  intents?: Record<string, RememberedIntent[]>;
}
