/**
 * The PostgreSQL store's schema, created and migrated by mcp-smart. Each migration runs once, in order, inside one
 * transaction under an advisory lock, so several processes starting at once migrate exactly once; the version
 * reached is kept in mcp_smart_schema_version. A database migrated by a newer mcp-smart is refused, not touched.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: tool counts, task categories, remembered intents, learned sessions.
  `CREATE TABLE mcp_smart_tools (
     tool_id text PRIMARY KEY,
     success double precision NOT NULL DEFAULT 0,
     failure double precision NOT NULL DEFAULT 0,
     last_used double precision NOT NULL DEFAULT 0,
     avg_latency_ms double precision,
     latency_samples double precision
   );
   CREATE TABLE mcp_smart_categories (
     tool_id text NOT NULL,
     category text NOT NULL,
     n double precision NOT NULL,
     PRIMARY KEY (tool_id, category)
   );
   CREATE TABLE mcp_smart_intents (
     tool_id text NOT NULL,
     key text NOT NULL,
     text text NOT NULL,
     count double precision NOT NULL,
     last double precision NOT NULL,
     seq bigserial,
     PRIMARY KEY (tool_id, key)
   );
   CREATE TABLE mcp_smart_sessions (
     session_id text PRIMARY KEY,
     cases integer NOT NULL
   );`,
  // 2: per-user attribution: each user's calls per tool, beside the team's totals.
  `CREATE TABLE mcp_smart_user_tools (
     user_label text NOT NULL,
     tool_id text NOT NULL,
     success double precision NOT NULL,
     failure double precision NOT NULL,
     last_used double precision NOT NULL,
     PRIMARY KEY (user_label, tool_id)
   );`,
  // 3: a session's case count is any number a file store holds (an integer column refused 2^31 and rounded 1.5).
  `ALTER TABLE mcp_smart_sessions ALTER COLUMN cases TYPE double precision;`,
  // 4: per-project scope (issue 38.3): each project's calls per tool, keyed by a hash of its directory (scope.ts).
  `CREATE TABLE mcp_smart_project_tools (
     project_key text NOT NULL,
     tool_id text NOT NULL,
     success double precision NOT NULL,
     failure double precision NOT NULL,
     last_used double precision NOT NULL,
     PRIMARY KEY (project_key, tool_id)
   );`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Any session id: one lock key for migrations, another for replay's session guard. */
export const MIGRATION_LOCK = 7_151_001;
export const SESSIONS_LOCK = 7_151_002;
