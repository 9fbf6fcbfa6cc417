/**
 * The PostgreSQL backend: one store for a team. The `pg` client is loaded only when a postgres URL is used, so the
 * file store's start-up stays as fast as before. Every failure to reach the database is STORE_UNREACHABLE (exit 3),
 * with the URL's credentials redacted; serve turns it into a logged, retried condition (serve/learn.ts).
 */
import type { Pool, PoolClient } from 'pg';
import { SmartError, errorText } from '../../errors.js';
import type { ToolUsage, UsageStats } from '../../types.js';
import { dict } from '../dict.js';
import { USAGE_FORMAT, type MemoryOptions, type StoreRead, type UsageStoreDoc } from '../session/usage-store.js';
import { MIGRATIONS, MIGRATION_LOCK, SCHEMA_VERSION, SESSIONS_LOCK } from './postgres-schema.js';
import { mergeUserUsage, userUsageOf } from '../session/users.js';
import { dropToolRows, writeIncrements } from './postgres-write.js';
import type { LearnPlan, StoreWriteResult, UsageStore } from './types.js';

/** Conflicts two concurrent writers can meet; the transaction is simply run again. */
const RETRIED = new Set(['40P01', '40001']);

export class PostgresUsageStore implements UsageStore {
  readonly kind = 'postgres';
  private pool: Pool | undefined;
  private migrated: Promise<void> | undefined;

  /** `conn` holds the credentials and is never shown; `label` is the redacted URL. */
  constructor(
    private readonly conn: string,
    readonly label: string,
    private readonly opts: { connectTimeoutMs?: number } = {},
  ) {}

  /**
   * Connects and brings the schema to this version (once per store object). With `createDatabase`, a database
   * that does not exist yet (3D000) is created first, through the server's `postgres` database with the same
   * credentials (which need the CREATEDB right); returns whether it was created.
   */
  async open(opts: { createDatabase?: boolean } = {}): Promise<{ created: boolean }> {
    try {
      await this.run(() => Promise.resolve());
      return { created: false };
    } catch (e) {
      const code = ((e as { cause?: { code?: string } }).cause ?? {}).code;
      if (!opts.createDatabase || code !== '3D000') throw e;
    }
    await this.createDatabase();
    await this.run(() => Promise.resolve());
    return { created: true };
  }

  private async createDatabase(): Promise<void> {
    const url = new URL(this.conn);
    const name = decodeURIComponent(url.pathname.slice(1));
    url.pathname = '/postgres';
    const pg = (await import('pg')).default;
    const admin = new pg.Client({
      connectionString: url.toString(),
      connectionTimeoutMillis: this.opts.connectTimeoutMs ?? 5000,
    });
    admin.on('error', () => undefined);
    try {
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    } catch (e) {
      // Another init created it meanwhile: as good.
      if ((e as { code?: string }).code === '42P04') return;
      throw new SmartError(
        'STORE_UNREACHABLE',
        { store: this.label, reason: `could not create the database: ${scrub(errorText(e), this.conn)}` },
        { cause: e },
      );
    } finally {
      await admin.end().catch(() => undefined);
    }
  }

  async read(now: number): Promise<StoreRead> {
    return this.run(async (c) => {
      await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      try {
        const tools = await c.query<{
          tool_id: string;
          success: number;
          failure: number;
          last_used: number;
          avg_latency_ms: number | null;
          latency_samples: number | null;
        }>('SELECT * FROM mcp_smart_tools ORDER BY tool_id');
        const cats = await c.query<{ tool_id: string; category: string; n: number }>(
          'SELECT tool_id, category, n FROM mcp_smart_categories ORDER BY tool_id, category',
        );
        const intents = await c.query<{ tool_id: string; text: string; count: number; last: number }>(
          'SELECT tool_id, text, count, last FROM mcp_smart_intents ORDER BY tool_id, seq',
        );
        const sessions = await c.query<{ session_id: string; cases: number }>(
          'SELECT session_id, cases FROM mcp_smart_sessions ORDER BY session_id',
        );
        const users = await c.query<{
          user_label: string;
          tool_id: string;
          success: number;
          failure: number;
          last_used: number;
        }>('SELECT * FROM mcp_smart_user_tools ORDER BY user_label, tool_id');
        const doc: UsageStoreDoc = {
          format: USAGE_FORMAT,
          updatedAt: new Date(now).toISOString(),
          tools: dict(),
          intents: dict(),
          sessions: dict(),
        };
        for (const t of tools.rows) {
          const u: ToolUsage = { success: t.success, failure: t.failure, lastUsed: t.last_used, categories: dict() };
          if (t.avg_latency_ms !== null) u.avgLatencyMs = t.avg_latency_ms;
          if (t.latency_samples !== null) u.latencySamples = t.latency_samples;
          doc.tools[t.tool_id] = u;
        }
        for (const r of cats.rows) {
          const u = doc.tools[r.tool_id];
          if (u) u.categories[r.category] = r.n;
        }
        for (const r of intents.rows)
          if (doc.tools[r.tool_id])
            (doc.intents![r.tool_id] ??= []).push({ text: r.text, count: r.count, last: r.last });
        for (const s of sessions.rows) doc.sessions[s.session_id] = s.cases;
        for (const u of users.rows)
          ((doc.users ??= dict())[u.user_label] ??= dict())[u.tool_id] = {
            success: u.success,
            failure: u.failure,
            lastUsed: u.last_used,
          };
        const missing = tools.rows.length === 0 && sessions.rows.length === 0;
        return { doc, warnings: [], ...(missing ? { missing: true as const } : {}) };
      } finally {
        await c.query('COMMIT');
      }
    });
  }

  add(delta: UsageStats, opts: { now: number; memory?: MemoryOptions; user?: string }): Promise<StoreWriteResult> {
    return this.transaction(async (c) => ({
      ...(await writeIncrements(c, delta, {}, opts.memory ?? {}, opts.user ? userUsageOf(delta, opts.user) : {})),
    }));
  }

  learn(
    plan: (sessions: Readonly<Record<string, number>>) => LearnPlan,
    opts: { now: number; memory?: MemoryOptions; user?: string },
  ): Promise<StoreWriteResult> {
    return this.transaction(async (c) => {
      // Only learners of sessions wait for each other; serve's increments never take this lock.
      await c.query('SELECT pg_advisory_xact_lock($1)', [SESSIONS_LOCK]);
      const rows = await c.query<{ session_id: string; cases: number }>(
        'SELECT session_id, cases FROM mcp_smart_sessions',
      );
      const known = dict<number>();
      for (const r of rows.rows) known[r.session_id] = r.cases;
      const { delta, sessions, users } = plan(known);
      const added = mergeUserUsage(users ?? {}, opts.user ? userUsageOf(delta, opts.user) : {});
      return writeIncrements(c, delta, sessions, opts.memory ?? {}, added);
    });
  }

  /** Forgets tools: their counts, categories and intents. Returns how many tools were removed. */
  forgetTools(ids: string[], _now?: number): Promise<number> {
    return this.transaction(async (c) => {
      const n = (await c.query('SELECT 1 FROM mcp_smart_tools WHERE tool_id = ANY($1)', [ids])).rowCount ?? 0;
      await dropToolRows(c, ids, true);
      return n;
    });
  }

  /** Takes a user's calls off the tools' counts and removes their per-user rows. */
  forgetUser(user: string): Promise<number> {
    return this.transaction(async (c) => {
      await c.query(
        `UPDATE mcp_smart_tools t SET success = GREATEST(0, t.success - u.success), failure = GREATEST(0, t.failure - u.failure)
           FROM mcp_smart_user_tools u WHERE u.user_label = $1 AND u.tool_id = t.tool_id`,
        [user],
      );
      return (await c.query('DELETE FROM mcp_smart_user_tools WHERE user_label = $1', [user])).rowCount ?? 0;
    });
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    this.migrated = undefined;
    await pool?.end().catch(() => undefined);
  }

  private async transaction<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
    return this.run(async (c) => {
      for (let attempt = 1; ; attempt++) {
        await c.query('BEGIN');
        try {
          const out = await fn(c);
          await c.query('COMMIT');
          return out;
        } catch (e) {
          await c.query('ROLLBACK').catch(() => undefined);
          const code = (e as { code?: string }).code;
          if (attempt < 8 && code && RETRIED.has(code)) continue;
          throw e;
        }
      }
    });
  }

  /** A pooled connection with the schema in place; any failure becomes STORE_UNREACHABLE. */
  private async run<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
    let client: PoolClient | undefined;
    try {
      const pool = await this.connectPool();
      client = await pool.connect();
      this.migrated ??= migrate(client).catch((e: unknown) => {
        this.migrated = undefined;
        throw e;
      });
      await this.migrated;
      return await fn(client);
    } catch (e) {
      if (e instanceof SmartError) throw e;
      throw new SmartError(
        'STORE_UNREACHABLE',
        { store: this.label, reason: scrub(errorText(e), this.conn) },
        { cause: e },
      );
    } finally {
      client?.release();
    }
  }

  private async connectPool(): Promise<Pool> {
    if (this.pool) return this.pool;
    const pg = (await import('pg')).default;
    const pool = new pg.Pool({
      connectionString: this.conn,
      max: 2,
      connectionTimeoutMillis: this.opts.connectTimeoutMs ?? 5000,
      idleTimeoutMillis: 10_000,
    });
    // A connection the server drops emits 'error' (on the pool when idle, on the client otherwise), which would end
    // the process unheard; the query that needs it fails instead (STORE_UNREACHABLE), and the next one reconnects.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    this.pool = pool;
    return pool;
  }
}

/** Creates or migrates the schema, once across processes (advisory lock), in one transaction. */
async function migrate(c: PoolClient): Promise<void> {
  await c.query('BEGIN');
  try {
    await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await c.query('CREATE TABLE IF NOT EXISTS mcp_smart_schema_version (version integer NOT NULL)');
    const row = (await c.query<{ version: number }>('SELECT max(version) AS version FROM mcp_smart_schema_version'))
      .rows[0];
    const at = row?.version ?? 0;
    if (at > SCHEMA_VERSION)
      throw new SmartError('STORE_REFUSED', {
        file: 'the PostgreSQL store',
        reason: `its schema is version ${at}, newer than this mcp-smart's ${SCHEMA_VERSION}`,
        hint: 'upgrade mcp-smart',
      });
    for (let v = at; v < SCHEMA_VERSION; v++) {
      await c.query(MIGRATIONS[v]!);
      await c.query('INSERT INTO mcp_smart_schema_version (version) VALUES ($1)', [v + 1]);
    }
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/** An error text without the connection string or its password, whatever the driver put in it. */
function scrub(text: string, conn: string): string {
  let out = text.split(conn).join('<store>');
  const pw = /^[a-z]+:\/\/[^:/@]*:([^@/]*)@/i.exec(conn)?.[1];
  if (pw) {
    out = out.split(pw).join('***');
    const plain = decodeURIComponent(pw);
    if (plain) out = out.split(plain).join('***');
  }
  return out;
}
