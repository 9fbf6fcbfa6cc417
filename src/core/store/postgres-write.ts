/**
 * Writes to the PostgreSQL store as atomic increments (INSERT … ON CONFLICT DO UPDATE SET n = n + EXCLUDED.n), so
 * any number of processes add at once and none reads the whole store to write it. The memory rules are the file
 * store's own pure ones (strongestIntents, capIntents, memoryToForget), applied to the rows a write touched.
 */
import type { PoolClient } from 'pg';
import type { RememberedIntent, UsageStats } from '../types.js';
import { dict } from '../dict.js';
import { MAX_INTENTS_PER_TOOL, MAX_REMEMBERED_INTENTS, capIntents, strongestIntents } from '../session/usage.js';
import { memoryToForget, type MemoryOptions } from '../session/usage-store.js';
import type { UserUsage } from '../session/users.js';
import type { ProjectUsage } from '../session/scope.js';
import { forgetLimit, retentionWarnings } from './retention.js';

const TOOLS_SQL = `
  INSERT INTO mcp_smart_tools AS t (tool_id, success, failure, last_used, avg_latency_ms, latency_samples)
  SELECT * FROM unnest($1::text[], $2::float8[], $3::float8[], $4::float8[], $5::float8[], $6::float8[])
  ON CONFLICT (tool_id) DO UPDATE SET
    success = t.success + EXCLUDED.success,
    failure = t.failure + EXCLUDED.failure,
    last_used = GREATEST(t.last_used, EXCLUDED.last_used),
    avg_latency_ms = CASE
      WHEN EXCLUDED.avg_latency_ms IS NULL THEN t.avg_latency_ms
      WHEN t.avg_latency_ms IS NULL THEN EXCLUDED.avg_latency_ms
      ELSE (t.avg_latency_ms * COALESCE(t.latency_samples, 1) + EXCLUDED.avg_latency_ms * COALESCE(EXCLUDED.latency_samples, 1))
        / (COALESCE(t.latency_samples, 1) + COALESCE(EXCLUDED.latency_samples, 1)) END,
    latency_samples = CASE
      WHEN EXCLUDED.avg_latency_ms IS NULL THEN t.latency_samples
      WHEN t.avg_latency_ms IS NULL THEN EXCLUDED.latency_samples
      ELSE COALESCE(t.latency_samples, 1) + COALESCE(EXCLUDED.latency_samples, 1) END`;

const CATEGORIES_SQL = `
  INSERT INTO mcp_smart_categories AS c (tool_id, category, n)
  SELECT * FROM unnest($1::text[], $2::text[], $3::float8[])
  ON CONFLICT (tool_id, category) DO UPDATE SET n = c.n + EXCLUDED.n`;

const INTENTS_SQL = `
  INSERT INTO mcp_smart_intents AS i (tool_id, key, text, count, last)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::float8[])
  ON CONFLICT (tool_id, key) DO UPDATE SET count = i.count + EXCLUDED.count, last = GREATEST(i.last, EXCLUDED.last)
  RETURNING tool_id, (xmax = 0) AS inserted`;

const SESSIONS_SQL = `
  INSERT INTO mcp_smart_sessions AS s (session_id, cases)
  SELECT * FROM unnest($1::text[], $2::float8[])
  ON CONFLICT (session_id) DO UPDATE SET cases = GREATEST(s.cases, EXCLUDED.cases)`;

const USERS_SQL = `
  INSERT INTO mcp_smart_user_tools AS u (user_label, tool_id, success, failure, last_used)
  SELECT * FROM unnest($1::text[], $2::text[], $3::float8[], $4::float8[], $5::float8[])
  ON CONFLICT (user_label, tool_id) DO UPDATE SET
    success = u.success + EXCLUDED.success,
    failure = u.failure + EXCLUDED.failure,
    last_used = GREATEST(u.last_used, EXCLUDED.last_used)`;

const PROJECTS_SQL = `
  INSERT INTO mcp_smart_project_tools AS u (project_key, tool_id, success, failure, last_used)
  SELECT * FROM unnest($1::text[], $2::text[], $3::float8[], $4::float8[], $5::float8[])
  ON CONFLICT (project_key, tool_id) DO UPDATE SET
    success = u.success + EXCLUDED.success,
    failure = u.failure + EXCLUDED.failure,
    last_used = GREATEST(u.last_used, EXCLUDED.last_used)`;

const DELETE_INTENTS_SQL = `
  DELETE FROM mcp_smart_intents i USING unnest($1::text[], $2::text[]) AS d(tool_id, key)
  WHERE i.tool_id = d.tool_id AND i.key = d.key`;

/** Intent rows of `delta` (one per tool and text ignoring case, in the order remembered). */
function intentRows(delta: UsageStats): { tool: string; key: string; r: RememberedIntent }[] {
  const rows = new Map<string, { tool: string; key: string; r: RememberedIntent }>();
  for (const tool of Object.keys(delta.intents ?? {}).sort())
    for (const r of delta.intents![tool]!) {
      const key = r.text.toLowerCase();
      const seen = rows.get(`${tool}\u0000${key}`);
      if (seen) seen.r = { text: seen.r.text, count: seen.r.count + r.count, last: Math.max(seen.r.last, r.last) };
      else rows.set(`${tool}\u0000${key}`, { tool, key, r });
    }
  return [...rows.values()];
}

/** One upsert of a write: its SQL (parameters from $1) and its parameter arrays. */
export interface UpsertPart {
  sql: string;
  params: unknown[][];
  /** Its rows are read back (the intents: which were new). */
  returns?: boolean;
}

/** Per-key counts (user or project → tool → counts) as the parameter arrays of USERS_SQL / PROJECTS_SQL. */
function countParams(counts: UserUsage): unknown[][] | undefined {
  const rows = Object.keys(counts)
    .sort()
    .flatMap((key) =>
      Object.keys(counts[key]!)
        .sort()
        .map((id) => ({ key, id, u: counts[key]![id]! })),
    );
  if (rows.length === 0) return undefined;
  return [
    rows.map((r) => r.key),
    rows.map((r) => r.id),
    rows.map((r) => r.u.success),
    rows.map((r) => r.u.failure),
    rows.map((r) => r.u.lastUsed),
  ];
}

/**
 * A write's upserts in the order every writer locks them (tools, categories, intents, per-user, per-project counts),
 * rows in key order within each table, so two writers never wait for each other in a cycle. Both the full write
 * (one statement each) and serve's one-statement write (postgres-increment.ts) run these.
 */
export function upsertParts(delta: UsageStats, users: UserUsage, projects: ProjectUsage): UpsertPart[] {
  const out: UpsertPart[] = [];
  const ids = Object.keys(delta.tools).sort();
  if (ids.length > 0) {
    const u = ids.map((id) => delta.tools[id]!);
    out.push({
      sql: TOOLS_SQL,
      params: [
        ids,
        u.map((t) => t.success),
        u.map((t) => t.failure),
        u.map((t) => t.lastUsed),
        u.map((t) => t.avgLatencyMs ?? null),
        u.map((t) => t.latencySamples ?? null),
      ],
    });
    const cats = ids.flatMap((id) =>
      Object.keys(delta.tools[id]!.categories)
        .sort()
        .map((cat) => [id, cat, delta.tools[id]!.categories[cat]!] as const),
    );
    if (cats.length > 0)
      out.push({ sql: CATEGORIES_SQL, params: [cats.map((x) => x[0]), cats.map((x) => x[1]), cats.map((x) => x[2])] });
  }
  const rows = intentRows(delta);
  if (rows.length > 0)
    out.push({
      sql: INTENTS_SQL,
      returns: true,
      params: [
        rows.map((x) => x.tool),
        rows.map((x) => x.key),
        rows.map((x) => x.r.text),
        rows.map((x) => x.r.count),
        rows.map((x) => x.r.last),
      ],
    });
  const u = countParams(users);
  if (u) out.push({ sql: USERS_SQL, params: u });
  const p = countParams(projects);
  if (p) out.push({ sql: PROJECTS_SQL, params: p });
  return out;
}

/** Adds `delta` and `sessions`, then applies the memory caps. Returns tool counts before and after the TTL cap. */
export async function writeIncrements(
  c: PoolClient,
  delta: UsageStats,
  sessions: Record<string, number>,
  memory: MemoryOptions,
  users: UserUsage = {},
  projects: ProjectUsage = {},
): Promise<{ before: number; tools: number; warnings: string[] }> {
  // Rows go in key order, so two writers lock shared rows in the same order (no deadlock between them).
  for (const part of upsertParts(delta, users, projects)) {
    const res = await c.query<{ tool_id: string; inserted: boolean }>(part.sql, part.params);
    if (!part.returns) continue;
    const grown = [...new Set(res.rows.filter((r) => r.inserted).map((r) => r.tool_id))];
    if (grown.length > 0) await capRememberedIntents(c, grown);
  }
  const sids = Object.keys(sessions).sort();
  if (sids.length > 0) await c.query(SESSIONS_SQL, [sids, sids.map((s) => sessions[s]!)]);
  const before = await countTools(c);
  // Rows dated later than the database's clock (another writer's clock ahead, an imported 2999) are clamped to it.
  const future = (await c.query<{ n: number; latest: number | null; now: number }>(FUTURE_SQL)).rows[0]!;
  const clamped = { clamped: future.n, ...(future.latest !== null ? { latest: future.latest } : {}) };
  const { ttlMs } = memoryToForget(memory);
  let forgotten = 0;
  let deferred = 0;
  if (ttlMs > 0) {
    // The cap, relative to the newest recording but never later than now() (store/retention.ts), forgetting at most
    // forgetLimit(before) tools, the oldest first.
    const past = await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM mcp_smart_tools WHERE ${PAST_CAP}`, [
      ttlMs,
    ]);
    const limit = forgetLimit(before);
    const gone = await c.query<{ tool_id: string }>(
      `DELETE FROM mcp_smart_tools WHERE tool_id IN (
         SELECT tool_id FROM mcp_smart_tools WHERE ${PAST_CAP} ORDER BY last_used, tool_id LIMIT $2)
       RETURNING tool_id`,
      [ttlMs, limit],
    );
    forgotten = gone.rows.length;
    deferred = Math.max(0, past.rows[0]!.n - forgotten);
    if (gone.rows.length > 0)
      await dropToolRows(
        c,
        gone.rows.map((r) => r.tool_id),
        false,
      );
  }
  const warnings = retentionWarnings(clamped, { forgotten, deferred, total: before }, future.now, "the database's");
  return { before, tools: ttlMs > 0 ? await countTools(c) : before, warnings };
}

/** Adds per-user or per-project counts (key → tool id → counts), in key order. */
/** The database's clock in ms since the epoch, as SQL. */
// The statement's start, not the transaction's (now()): a tidy in its own transaction (serve's one-statement writes)
// would otherwise take rows other serves committed after its BEGIN for times in the future.
const DB_NOW = `(extract(epoch FROM statement_timestamp()) * 1000)::float8`;

/** Clamps every future time (tools, intents, per-user rows) to the database's clock; counts what it clamped. */
const FUTURE_SQL = `
  WITH old AS (SELECT tool_id, last_used AS was FROM mcp_smart_tools WHERE last_used > ${DB_NOW}),
       t AS (UPDATE mcp_smart_tools x SET last_used = ${DB_NOW} FROM old WHERE x.tool_id = old.tool_id
             RETURNING old.was),
       i AS (UPDATE mcp_smart_intents SET last = ${DB_NOW} WHERE last > ${DB_NOW} RETURNING last),
       u AS (UPDATE mcp_smart_user_tools SET last_used = ${DB_NOW} WHERE last_used > ${DB_NOW} RETURNING 1),
       p AS (UPDATE mcp_smart_project_tools SET last_used = ${DB_NOW} WHERE last_used > ${DB_NOW} RETURNING 1)
  SELECT (SELECT count(*) FROM t)::int + (SELECT count(*) FROM i)::int AS n, (SELECT max(was) FROM t) AS latest,
         ${DB_NOW} AS now`;

/** A tool past the TTL ($1 ms) before the newest recording, the newest taken no later than the database's clock. */
const PAST_CAP = `last_used < LEAST((SELECT max(last_used) FROM mcp_smart_tools), ${DB_NOW}) - $1`;

async function countTools(c: PoolClient): Promise<number> {
  return (await c.query<{ n: number }>('SELECT count(*)::int AS n FROM mcp_smart_tools')).rows[0]!.n;
}

/** Removes a tool's categories and intents (and, with `tool`, its counts). */
export async function dropToolRows(c: PoolClient, ids: string[], tool: boolean): Promise<void> {
  if (tool) await c.query('DELETE FROM mcp_smart_tools WHERE tool_id = ANY($1)', [ids]);
  await c.query('DELETE FROM mcp_smart_categories WHERE tool_id = ANY($1)', [ids]);
  await c.query('DELETE FROM mcp_smart_intents WHERE tool_id = ANY($1)', [ids]);
  await c.query('DELETE FROM mcp_smart_user_tools WHERE tool_id = ANY($1)', [ids]);
  await c.query('DELETE FROM mcp_smart_project_tools WHERE tool_id = ANY($1)', [ids]);
}

interface IntentRow {
  tool_id: string;
  key: string;
  text: string;
  count: number;
  last: number;
}

/** The per-tool cap on the tools that gained an intent, then the store-wide cap when it is exceeded. */
export async function capRememberedIntents(c: PoolClient, grown: string[]): Promise<void> {
  const drop: { tool: string; key: string }[] = [];
  const over = await c.query<IntentRow>(
    `SELECT tool_id, key, text, count, last FROM mcp_smart_intents WHERE tool_id IN (
       SELECT tool_id FROM mcp_smart_intents WHERE tool_id = ANY($1) GROUP BY tool_id HAVING count(*) > $2)
     ORDER BY tool_id, seq`,
    [grown, MAX_INTENTS_PER_TOOL],
  );
  for (const [tool, list] of groupIntents(over.rows)) {
    const keep = new Set(strongestIntents(list.map(toIntent)).map((r) => r.text.toLowerCase()));
    for (const r of list) if (!keep.has(r.key)) drop.push({ tool, key: r.key });
  }
  await deleteIntents(c, drop);
  const total = (await c.query<{ n: number }>('SELECT count(*)::int AS n FROM mcp_smart_intents')).rows[0]!.n;
  if (total <= MAX_REMEMBERED_INTENTS) return;
  const all = await c.query<IntentRow>('SELECT tool_id, key, text, count, last FROM mcp_smart_intents ORDER BY seq');
  const stats: UsageStats = { tools: dict(), intents: dict() };
  for (const [tool, list] of groupIntents(all.rows)) stats.intents![tool] = list.map(toIntent);
  capIntents(stats);
  const kept = new Set(
    Object.entries(stats.intents ?? {}).flatMap(([tool, list]) =>
      list.map((r) => `${tool}\u0000${r.text.toLowerCase()}`),
    ),
  );
  await deleteIntents(
    c,
    all.rows.filter((r) => !kept.has(`${r.tool_id}\u0000${r.key}`)).map((r) => ({ tool: r.tool_id, key: r.key })),
  );
}

const toIntent = (r: IntentRow): RememberedIntent => ({ text: r.text, count: Number(r.count), last: Number(r.last) });

function groupIntents(rows: IntentRow[]): Map<string, IntentRow[]> {
  const by = new Map<string, IntentRow[]>();
  for (const r of rows) by.set(r.tool_id, [...(by.get(r.tool_id) ?? []), r]);
  return by;
}

async function deleteIntents(c: PoolClient, rows: { tool: string; key: string }[]): Promise<void> {
  if (rows.length > 0) await c.query(DELETE_INTENTS_SQL, [rows.map((r) => r.tool), rows.map((r) => r.key)]);
}
