/** Exit codes and the one catalog of known failures. Wording lives here so it stays consistent. */

export const EXIT_CODES = {
  ok: 0,
  checkFailed: 1,
  usage: 2,
  serverFailed: 3,
  internal: 4,
  interrupted: 130,
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

type Details = Record<string, string | number | undefined>;

interface CatalogEntry {
  exitCode: ExitCode;
  message: (d: Details) => string;
}

const s = (v: string | number | undefined): string => (v === undefined ? '' : String(v));

/** Every known failure, keyed by a stable code. Messages say what, where, and what to do next. */
export const ERROR_CATALOG = {
  USAGE: { exitCode: 2, message: (d) => s(d.message) },
  BAD_FLAG: {
    exitCode: 2,
    message: (d) => `Invalid value for ${s(d.flag)}: ${d.value === '' ? '""' : s(d.value)}. ${s(d.hint)}`.trim(),
  },
  FILE_NOT_FOUND: {
    exitCode: 2,
    message: (d) => `Cannot read ${s(d.file)}: file not found.${d.hint ? ` ${s(d.hint)}` : ''}`,
  },
  FILE_UNREADABLE: {
    exitCode: 2,
    message: (d) => `Cannot read ${s(d.file)}: ${s(d.reason)}`,
  },
  FILE_UNWRITABLE: {
    exitCode: 2,
    message: (d) => `Cannot write ${s(d.file)}: ${s(d.reason)}`,
  },
  FILE_PARSE: {
    exitCode: 2,
    message: (d) => `${s(d.file)} is not valid ${s(d.kind)}: ${s(d.reason)}`,
  },
  CONFIG_INVALID: {
    exitCode: 2,
    message: (d) => `${s(d.file)}: ${s(d.key)}: ${s(d.reason)}`,
  },
  CONFIG_UNKNOWN_SHAPE: {
    exitCode: 2,
    message: (d) =>
      `${s(d.file)}: no MCP servers found. Expected a "mcpServers" or "servers" object, or a Codex [mcp_servers] table.`,
  },
  SNAPSHOT_INVALID: {
    exitCode: 2,
    message: (d) =>
      `${s(d.file)} is not an mcp-smart snapshot (${s(d.reason)}). Create one with: mcp-smart dump -o ${s(d.file)}`,
  },
  NO_SERVERS: {
    exitCode: 2,
    message: () =>
      'No MCP servers found. Searched the project and user config locations (see `mcp-smart servers --debug`). Pass --config <file>, --stdio "<command>", --url <url>, --snapshot <file>, or try --demo.',
  },
  UNKNOWN_SERVER: {
    exitCode: 2,
    message: (d) => `No server named "${s(d.name)}". Known servers: ${s(d.known)}.`,
  },
  DEMO_NOT_INSTALLED: {
    exitCode: 2,
    message: (d) =>
      `The demo server package ${s(d.pkg)} is not installed. The demo servers are optional dependencies of mcp-smart: this install left them out (\`--omit=optional\` or \`--no-optional\`). Reinstall mcp-smart without that flag (\`npm install -g mcp-smart\`, or \`npm install\` in a clone) to use \`--demo\`, or point mcp-smart at your own servers instead.`,
  },
  INIT_NOTHING_REACHED: {
    exitCode: 3,
    message: (d) =>
      `None of the selected servers could be reached (${s(d.servers)}), so there is nothing to take a baseline from; no file was written. See why with \`mcp-smart dump\`, fix the servers, then run init again (or pass --no-baseline to write only the config).`,
  },
  BASELINE_MISSING: {
    exitCode: 2,
    message: (d) => `No baseline at ${s(d.file)}. Create one with: mcp-smart check --update`,
  },
  MISSING_API_KEY: {
    exitCode: 2,
    message: () => '--anthropic-count needs ANTHROPIC_API_KEY in the environment.',
  },
  BASELINE_FROM_FAILED: {
    exitCode: 3,
    message: (d) =>
      `Not writing ${s(d.file)}: a baseline is never written from servers that failed. Could not be reached: ${s(d.servers)}. Fix them, or leave them out with --server.`,
  },
  FILE_EXISTS: {
    exitCode: 2,
    message: (d) => `${s(d.file)} already exists. Pass --force to overwrite it.`,
  },
  REMOTE_FAILED: {
    exitCode: 3,
    message: (d) => `${s(d.service)} request failed: ${s(d.reason)}`,
  },
  MODEL_UNAVAILABLE: {
    exitCode: 2,
    message: (d) => s(d.message),
  },
  // Per-server connection failures: the text lands in ServerSnapshot.error (the server name is shown beside it).
  CONNECT_NOT_FOUND: {
    exitCode: 3,
    message: (d) => `command not found: ${s(d.command)}. Is it installed and on PATH (or is the path right)?`,
  },
  CONNECT_SPAWN_FAILED: {
    exitCode: 3,
    message: (d) => `could not start ${s(d.command)}: ${s(d.reason)}`,
  },
  CONNECT_EXITED: {
    exitCode: 3,
    message: (d) => `exited ${s(d.how)} during ${s(d.phase)}${d.tail ? ` — last stderr line: ${s(d.tail)}` : ''}`,
  },
  CONNECT_FAILED: {
    exitCode: 3,
    message: (d) => `could not connect to ${s(d.target)}: ${s(d.reason)}`,
  },
  CONNECT_TIMEOUT: {
    exitCode: 3,
    message: (d) => `did not answer ${s(d.phase)} within ${s(d.ms)} ms; raise --timeout`,
  },
  CONNECT_PROTOCOL: {
    exitCode: 3,
    message: (d) => `${s(d.phase)} failed: ${s(d.reason)}`,
  },
  CONNECT_PAGINATION: {
    exitCode: 3,
    message: (d) => `${s(d.method)} did not end: ${s(d.reason)} after ${s(d.pages)} pages; that list was dropped`,
  },
  CONNECT_MALFORMED_TOOLS: {
    exitCode: 3,
    message: (d) =>
      `tools/list returned ${s(d.count)} malformed tool entr${d.count === 1 ? 'y' : 'ies'} (${s(d.details)}); the ${s(d.kept)} well-formed tools were kept`,
  },
  CONNECT_ABORTED: {
    exitCode: 3,
    message: (d) => `interrupted during ${s(d.phase)}`,
  },
  // serve: failures of one forwarded request (the client sees them as an error result naming the server or tool).
  SERVE_SERVER_UNAVAILABLE: {
    exitCode: 3,
    message: (d) => `server "${s(d.server)}" is unavailable: ${s(d.reason)}`,
  },
  SERVE_SERVER_BACKOFF: {
    exitCode: 3,
    message: (d) =>
      `server "${s(d.server)}" failed (${s(d.reason)}); mcp-smart restarts it in ${s(d.seconds)} s — try again then, or use another tool`,
  },
  SERVE_CALL_TIMEOUT: {
    exitCode: 3,
    message: (d) =>
      `server "${s(d.server)}" did not answer within ${s(d.ms)} ms; raise serve.callTimeout in mcp-smart.config.json if the tool is slow`,
  },
  SERVE_UNKNOWN_TOOL: {
    exitCode: 2,
    message: (d) => `no tool "${s(d.name)}". ${s(d.hint)}`.trim(),
  },
  SERVE_BAD_ARGUMENTS: {
    exitCode: 2,
    message: (d) =>
      `arguments for ${s(d.name)} do not match its input schema: ${s(d.problems)}. Call describe_tool {"name": "${s(d.name)}"} for the schema.`,
  },
  SERVE_NOT_READ_ONLY: {
    exitCode: 2,
    message: (d) =>
      `${s(d.name)} is not annotated readOnlyHint, so call_tool_read refuses it; use ${s(d.call)} (which your client may ask you to approve).`,
  },
  SERVE_INSECURE_BIND: {
    exitCode: 2,
    message: (d) =>
      `Refusing to serve on ${s(d.host)} without a token: any machine that can reach it could call your tools. Pass --token-env <VAR> (clients then send "Authorization: Bearer <value of VAR>"), or bind to 127.0.0.1.`,
  },
  SERVE_TOKEN_MISSING: {
    exitCode: 2,
    message: (d) => `--token-env ${s(d.variable)}: that environment variable is not set or empty.`,
  },
  // OAuth (issue 19). Never put a token, code, verifier or client secret in these details.
  AUTH_REQUIRED: {
    exitCode: 3,
    message: (d) =>
      `needs authorization${d.why ? ` (${s(d.why)})` : ''}: run \`mcp-smart login ${s(d.server)}\`, or in CI give it a header from an environment variable (README: "Servers behind OAuth")`,
  },
  AUTH_NOT_REMOTE: {
    exitCode: 2,
    message: (d) =>
      `${s(d.server)} is a ${s(d.transport)} server; login is for remote (HTTP/SSE) servers behind OAuth.`,
  },
  AUTH_FAILED: {
    exitCode: 3,
    message: (d) => `authorization failed: ${s(d.reason)}`,
  },
  AUTH_NO_BROWSER: {
    exitCode: 3,
    message: (d) =>
      `will not open a browser ${s(d.why)}. Pass --auth-open none to print the authorization URL instead, or in CI give ${s(d.server)} a header from an environment variable (README: "Servers behind OAuth").`,
  },
  STORE_REFUSED: {
    exitCode: 2,
    message: (d) =>
      `${s(d.file)}: ${s(d.reason)}. It was left untouched; ${s(d.hint) || 'pass --store with another file'}.`,
  },
  STDOUT_FAILED: {
    exitCode: 2,
    message: (d) => `Cannot write to standard output: ${s(d.reason)}`,
  },
  INTERRUPTED: {
    exitCode: 130,
    message: () => 'Stopped by SIGINT (Ctrl-C); nothing half-done was written.',
  },
  TERMINATED: {
    exitCode: 143,
    message: () => 'Stopped by SIGTERM; nothing half-done was written.',
  },
  INTERNAL: {
    exitCode: 4,
    message: (d) =>
      `Internal error: ${s(d.message)}\nThis is a bug in mcp-smart. Please file an issue with the command you ran and the output of --debug.`,
  },
} satisfies Record<string, CatalogEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** A known failure. Its text comes from ERROR_CATALOG; `cause` keeps the underlying error. */
export class SmartError extends Error {
  readonly code: ErrorCode;
  readonly details: Details;
  readonly exitCode: ExitCode;

  constructor(code: ErrorCode, details: Details = {}, options?: { cause?: unknown }) {
    const entry: CatalogEntry = ERROR_CATALOG[code];
    super(entry.message(details), options);
    this.name = 'SmartError';
    this.code = code;
    this.details = details;
    this.exitCode = entry.exitCode;
  }
}

export function isSmartError(e: unknown): e is SmartError {
  return e instanceof SmartError;
}

/** A failed request to a remote service as REMOTE_FAILED (exit 3), whatever was thrown (fetch failed, a timeout, …). */
export function remoteFailure(e: unknown, service: string): SmartError {
  if (isSmartError(e)) return e;
  const cause = e instanceof Error && e.cause instanceof Error ? ` (${e.cause.message})` : '';
  return new SmartError('REMOTE_FAILED', { service, reason: `${errorText(e)}${cause}` }, { cause: e });
}

/** Text of any thrown value, without a stack. */
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
