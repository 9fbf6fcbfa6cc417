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
import { upsertParts } from './postgres-write.js';

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
  const all = upsertParts(delta, users, projects);
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
