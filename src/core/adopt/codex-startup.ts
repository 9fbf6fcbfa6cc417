/**
 * The keys every Codex entry that starts serve carries, beside command and args (adopt's switch and print-config).
 * Codex (0.147 on) sends a session's first model request about 1 s after launch (its `mcp_optional_startup_grace_ms`)
 * without the tools of an optional server still starting, and does not list them again within the session; a cold
 * serve (no catalogue cache) lists its tools in about that time or later. `required = true` makes Codex 0.171 wait for
 * this server's tools/list before the first turn, and fail the session with "required MCP servers failed to
 * initialize: <name>: …" when serve cannot start or answer. Its `startup_timeout_sec` covers initialize and tools/list
 * (past it: "timed out awaiting tools/list after <n>s"), so it stays above serve's default first-list wait (10 s,
 * after which serve answers with what is ready) plus serve's own start on a loaded machine.
 */
export const CODEX_STARTUP_KEYS = { required: true, startup_timeout_sec: 30 } as const;

/** The keys as the `key = value` lines of a TOML table. */
export const codexStartupLines = (): string[] =>
  Object.entries(CODEX_STARTUP_KEYS).map(([key, value]) => `${key} = ${String(value)}`);
