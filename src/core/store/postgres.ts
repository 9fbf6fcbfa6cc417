/**
 * The PostgreSQL backend: one store for a team. The `pg` client is loaded only when a postgres URL is used, so the
 * file store's start-up stays as fast as before. A failure names what failed, with its SQLSTATE (pg-errors.ts), and
 * the URL's credentials redacted; serve turns it into a logged, retried condition (serve/learn.ts). Reads need
 * only SELECT; every wait for a lock and every statement is bounded (lock_timeout, statement_timeout); text is
 * made safe for PostgreSQL before it is sent (pg-text.ts).
 */
import type { Pool, PoolClient } from 'pg';
import { errorText } from '../../process/errors.js';
import type { ToolUsage, UsageStats } from '../types.js';
import { dict } from '../dict.js';
import { USAGE_FORMAT, type MemoryOptions, type StoreRead, type UsageStoreDoc } from '../session/usage-store.js';
import { SESSIONS_LOCK } from './postgres-schema.js';
import { ensureSchema, type SchemaState } from './postgres-migrate.js';
import { kindOf, storeFailure } from './pg-errors.js';
import { pgSafeSessions, pgSafeUsage, pgSafeUsers, pgText } from './pg-text.js';
import { keepUserTools, mergeUserUsage, userUsageOf, type UserUsage } from '../session/users.js';
import { capRememberedIntents, dropToolRows, writeIncrements } from './postgres-write.js';
import { incrementOnce } from './postgres-increment.js';
import type { LearnPlan, StoreWriteResult, UsageStore } from './types.js';

/** Conflicts two concurrent writers can meet; the transaction is simply run again. */
const RETRIED = new Set(['40P01', '40001']);

export interface PostgresStoreOptions {
  connectTimeoutMs?: number;
  /** The longest wait for a lock another session holds (default 10 s); then the work fails as `lock`. */
  lockTimeoutMs?: number;
  /** The longest one statement may run (default 60 s). */
  statementTimeoutMs?: number;
}

export class PostgresUsageStore implements UsageStore {
  readonly kind = 'postgres';
  private pool: Pool | undefined;
  private schema: Promise<SchemaState> | undefined;

  /** `conn` holds the credentials and is never shown; `label` is the redacted URL. */
  constructor(
    private readonly conn: string,
    readonly label: string,
    private readonly opts: PostgresStoreOptions = {},
  ) {}

  /**
   * Connects and brings the schema to this version (once per store object). With `createDatabase`, a database
   * that does not exist yet (3D000) is created first, through the server's `postgres` database with the same
   * credentials (which need the CREATEDB right); returns whether it was created.
   */
  async open(opts: { createDatabase?: boolean } = {}): Promise<{ created: boolean }> {
    // `store init` creates the schema; any other command only checks it (a reader needs no more than SELECT).
    const write = opts.createDatabase === true;
    try {
      await this.run(() => Promise.resolve(), write);
      return { created: false };
    } catch (e) {
      const code = ((e as { cause?: { code?: string } }).cause ?? {}).code;
      if (!opts.createDatabase || code !== '3D000') throw e;
    }
    await this.createDatabase();
    await this.run(() => Promise.resolve(), write);
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
      throw storeFailure(e, this.label, this.conn, 'could not create the database');
    } finally {
      await admin.end().catch(() => undefined);
    }
  }

  async read(now: number, opts: { lockTimeoutMs?: number } = {}): Promise<StoreRead> {
    return this.run(async (c, schema) => {
      if (schema === 'absent') return { doc: emptyDoc(now), warnings: [], missing: true as const };
      await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await limitLockWait(c, opts.lockTimeoutMs);
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
        const projects = await c.query<{
          project_key: string;
          tool_id: string;
          success: number;
          failure: number;
          last_used: number;
        }>('SELECT * FROM mcp_smart_project_tools ORDER BY project_key, tool_id');
        const doc = emptyDoc(now);
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
        for (const p of projects.rows)
          ((doc.projects ??= dict())[p.project_key] ??= dict())[p.tool_id] = {
            success: p.success,
            failure: p.failure,
            lastUsed: p.last_used,
          };
        const missing = tools.rows.length === 0 && sessions.rows.length === 0;
        return { doc, warnings: [], ...(missing ? { missing: true as const } : {}) };
      } finally {
        await c.query('COMMIT');
      }
    });
  }

  /**
   * Adds a batch (serve's live learning). When the database rejects the batch's rows (a constraint, a trigger, a
   * value it cannot take), each tool is written on its own, so one bad row costs its own calls, said in a warning,
   * never the whole batch again and again.
   */
  async add(
    delta: UsageStats,
    opts: {
      now: number;
      memory?: MemoryOptions;
      user?: string;
      users?: UserUsage;
      project?: string;
      lockTimeoutMs?: number;
    },
  ): Promise<StoreWriteResult> {
    const safe = pgSafeUsage(delta);
    const user = opts.user === undefined ? undefined : pgText(opts.user);
    const given = opts.users === undefined ? undefined : pgSafeUsers(opts.users);
    const project = opts.project === undefined ? undefined : pgText(opts.project);
    // Each caller's counts for the tools of `d` (a batch written tool by tool keeps each tool's own).
    const usersFor = (d: UsageStats): UserUsage =>
      given ? keepUserTools(given, d.tools) : user ? userUsageOf(d, user) : {};
    const one = (d: UsageStats): Promise<StoreWriteResult> =>
      this.transaction(
        async (c) => ({
          ...(await writeIncrements(c, d, {}, opts.memory ?? {}, usersFor(d), project ? userUsageOf(d, project) : {})),
        }),
        opts.lockTimeoutMs,
      );
    const ids = Object.keys(safe.tools);
    try {
      return await one(safe);
    } catch (e) {
      const kind = kindOf(e);
      if (ids.length < 2 || (kind !== 'constraint' && kind !== 'data')) throw e;
    }
    const warnings: string[] = [];
    let last: StoreWriteResult | undefined;
    for (const id of ids.sort()) {
      const part: UsageStats = { tools: { [id]: safe.tools[id]! } };
      if (safe.intents?.[id]) part.intents = { [id]: safe.intents[id] };
      try {
        last = await one(part);
        warnings.push(...last.warnings);
      } catch (e) {
        const u = safe.tools[id]!;
        warnings.push(
          `${u.success + u.failure} learned call(s) of ${JSON.stringify(id)} were not written: ${errorText(e)}`,
        );
      }
    }
    return { tools: last?.tools ?? 0, before: last?.before ?? 0, warnings };
  }

  /** Tools whose remembered intents grew by `addNow`: the per-tool cap is due for them at the next `tidy`. */
  private readonly untidy = new Set<string>();

  /**
   * Adds a batch in one statement, one round trip (postgres-increment.ts): for answers that wait for their learned
   * call's commit. The memory rules wait for `tidy`. A batch the database refuses (or a lock conflict) is written
   * by `add` instead, which sorts it out tool by tool.
   */
  async addNow(
    delta: UsageStats,
    opts: { now: number; users?: UserUsage; project?: string },
  ): Promise<{ warnings: string[] }> {
    const safe = pgSafeUsage(delta);
    const users = pgSafeUsers(opts.users ?? {});
    const project = opts.project === undefined ? undefined : pgText(opts.project);
    try {
      const grown = await this.run(
        (c) => incrementOnce(c, safe, users, project ? userUsageOf(safe, project) : {}),
        true,
      );
      for (const id of grown) this.untidy.add(id);
      return { warnings: [] };
    } catch (e) {
      const kind = kindOf(e);
      if (kind !== 'constraint' && kind !== 'data' && kind !== 'lock') throw e;
    }
    return this.add(delta, opts);
  }

  /** The memory rules `addNow` left: the per-tool intent cap where intents grew, future times, the TTL cap. */
  async tidy(opts: { memory?: MemoryOptions } = {}): Promise<{ warnings: string[] }> {
    const grown = [...this.untidy].sort();
    this.untidy.clear();
    try {
      return await this.transaction(async (c) => {
        if (grown.length > 0) await capRememberedIntents(c, grown);
        return writeIncrements(c, { tools: dict() }, {}, opts.memory ?? {});
      });
    } catch (e) {
      for (const id of grown) this.untidy.add(id);
      throw e;
    }
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
      const planned = plan(known);
      const delta = pgSafeUsage(planned.delta);
      const users = pgSafeUsers(planned.users ?? {});
      const added = mergeUserUsage(users, opts.user ? userUsageOf(delta, pgText(opts.user)) : {});
      const projects = pgSafeUsers(planned.projects ?? {});
      return {
        ...(await writeIncrements(c, delta, pgSafeSessions(planned.sessions), opts.memory ?? {}, added, projects)),
      };
    });
  }

  /** Forgets tools: their counts, categories and intents. Returns how many tools were removed. */
  forgetTools(given: string[], _now?: number): Promise<number> {
    const ids = given.map(pgText);
    return this.transaction(async (c) => {
      const n = (await c.query('SELECT 1 FROM mcp_smart_tools WHERE tool_id = ANY($1)', [ids])).rowCount ?? 0;
      await dropToolRows(c, ids, true);
      return n;
    });
  }

  /** Takes a user's calls off the tools' counts and removes their per-user rows. */
  forgetUser(given: string): Promise<number> {
    const user = pgText(given);
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
    this.schema = undefined;
    await pool?.end().catch(() => undefined);
  }

  private async transaction<T>(fn: (c: PoolClient) => Promise<T>, lockTimeoutMs?: number): Promise<T> {
    return this.run(async (c) => {
      for (let attempt = 1; ; attempt++) {
        await c.query('BEGIN');
        try {
          await limitLockWait(c, lockTimeoutMs);
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
    }, true);
  }

  /**
   * A pooled connection with the schema checked (`write`: made current, creating it if need be); any failure
   * becomes an error naming what failed (pg-errors.ts).
   */
  private async run<T>(fn: (c: PoolClient, schema: SchemaState) => Promise<T>, write = false): Promise<T> {
    let client: PoolClient | undefined;
    let doing = '';
    try {
      const pool = await this.connectPool();
      client = await pool.connect();
      doing = write ? 'preparing the schema' : 'checking the schema';
      const c = client;
      let schema = await this.checked(() => ensureSchema(c, write));
      // Read as absent (a reader may not create it), and now a write: create it, or fail naming why.
      if (write && schema === 'absent') {
        this.schema = undefined;
        schema = await this.checked(() => ensureSchema(c, true));
      }
      doing = '';
      return await fn(client, schema);
    } catch (e) {
      throw storeFailure(e, this.label, this.conn, doing || undefined);
    } finally {
      client?.release();
    }
  }

  /** The schema check, once per store object while it succeeds. */
  private checked(check: () => Promise<SchemaState>): Promise<SchemaState> {
    this.schema ??= check().catch((e: unknown) => {
      this.schema = undefined;
      throw e;
    });
    return this.schema;
  }

  private async connectPool(): Promise<Pool> {
    if (this.pool) return this.pool;
    const pg = (await import('pg')).default;
    const pool = new pg.Pool({
      connectionString: this.conn,
      max: 2,
      connectionTimeoutMillis: this.opts.connectTimeoutMs ?? 5000,
      idleTimeoutMillis: 10_000,
      lock_timeout: this.opts.lockTimeoutMs ?? 10_000,
      statement_timeout: this.opts.statementTimeoutMs ?? 60_000,
    });
    // A connection the server drops emits 'error' (on the pool when idle, on the client otherwise), which would end
    // the process unheard; the query that needs it fails instead (STORE_UNREACHABLE), and the next one reconnects.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    this.pool = pool;
    return pool;
  }
}

/** A shorter wait for locks than the connection's, for this transaction only. */
async function limitLockWait(c: PoolClient, ms: number | undefined): Promise<void> {
  if (ms !== undefined) await c.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(ms))}`);
}

function emptyDoc(now: number): UsageStoreDoc {
  return {
    format: USAGE_FORMAT,
    updatedAt: new Date(now).toISOString(),
    tools: dict(),
    intents: dict(),
    sessions: dict(),
  };
}
