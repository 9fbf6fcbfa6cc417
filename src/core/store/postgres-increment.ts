/**
 * A batch of serve's learned calls as ONE statement (data-modifying CTEs: tools, categories, intents, per-user and
 * per-project counts), so a batch whose answers wait for its commit costs one round trip to PostgreSQL and one
 * implicit transaction — whole or absent, like the full write (postgres-write.ts), whose upserts it reuses. What the
 * full write also does per batch (clamping future times, the TTL cap, the per-tool cap on remembered intents) is
 * left to a later `tidy` off the answers' path: the tools whose remembered intents grew are returned for it.
 */
import type { PoolClient } from 'pg';
import type { UsageStats } from '../types.js';
import type { UserUsage } from '../session/users.js';
import { CATEGORIES_SQL, INTENTS_SQL, PROJECTS_SQL, TOOLS_SQL, USERS_SQL, intentRows } from './postgres-write.js';

/** One upsert of the statement: its SQL (parameters from $1) and its parameter arrays. */
interface Part {
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

function parts(delta: UsageStats, users: UserUsage, projects: UserUsage): Part[] {
  const out: Part[] = [];
  // Rows in key order within each table, as the full write orders them.
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

/**
 * Adds the batch in one statement. Returns the tools that gained a remembered intent (the per-tool cap is due for
 * them). Nothing to add: no statement at all.
 */
export async function incrementOnce(
  c: PoolClient,
  delta: UsageStats,
  users: UserUsage,
  projects: UserUsage,
): Promise<string[]> {
  const all = parts(delta, users, projects);
  if (all.length === 0) return [];
  const params: unknown[] = [];
  const ctes = all.map((part, k) => {
    const base = params.length;
    params.push(...part.params);
    let sql = part.sql.trim().replace(/\$(\d+)/g, (_, n: string) => `$${base + Number(n)}`);
    // PostgreSQL runs a statement's data-modifying CTEs in no set order, so rows would be locked table by table in
    // an order of its choosing, not the full write's (tools, categories, intents, users, projects): against a
    // concurrent full write (replay --learn, another serve's fallback) that is a deadlock, or a lock timeout. Each
    // part waits for the one before it (an init plan reading it whole) and returns a row for the next to wait on.
    if (k > 0) sql = sql.replace(/\n\s*ON CONFLICT/, `\n  WHERE (SELECT count(*) FROM w${k - 1}) >= 0$&`);
    if (!/\bRETURNING\b/.test(sql)) sql += '\n  RETURNING 1';
    return `w${k} AS (${sql})`;
  });
  const intents = all.findIndex((p) => p.returns);
  const select =
    intents < 0 ? 'SELECT NULL::text AS tool_id' : `SELECT DISTINCT tool_id FROM w${intents} WHERE inserted`;
  const res = await c.query<{ tool_id: string | null }>(`WITH ${ctes.join(',\n')}\n${select}`, params);
  return res.rows.flatMap((r) => (r.tool_id === null ? [] : [r.tool_id]));
}
