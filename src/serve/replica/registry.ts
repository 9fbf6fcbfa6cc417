/**
 * The replicas of one gateway, in the shared PostgreSQL store (issue 38.2): each serve replica writes its id,
 * internal address and a heartbeat to `mcp_smart_replicas`; a replica asked to resume a round held elsewhere looks
 * the owner up there, so a replica that stopped beating is known gone at once (a clear retryable error, not a wait
 * for a connection that will not come). The table is the registry's own (created if absent, idempotent, outside the
 * usage schema's versions: it holds nothing learned and may be dropped at any time). The database being down costs
 * nothing but the liveness hint: the sealed state carries the owner's address, which is then tried directly.
 */
import type { Pool } from 'pg';

export const HEARTBEAT_MS = 5_000;
/** A replica whose last heartbeat is older than this is taken as gone. */
export const STALE_MS = 3 * HEARTBEAT_MS;

const CREATE = `CREATE TABLE IF NOT EXISTS mcp_smart_replicas (
  replica_id text PRIMARY KEY,
  address text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now()
)`;

/** What the registry knows of a replica: `gone` when absent or silent past STALE_MS; undefined: no answer. */
export type Liveness = { gone: false; address: string } | { gone: true; why: string } | undefined;

export class ReplicaRegistry {
  private pool?: Promise<Pool>;
  private timer?: NodeJS.Timeout;
  private created = false;

  constructor(
    private readonly conn: string,
    private readonly log: (text: string) => void,
  ) {}

  private connect(): Promise<Pool> {
    this.pool ??= import('pg').then(({ default: pg }) => {
      const pool = new pg.Pool({
        connectionString: this.conn,
        max: 2,
        connectionTimeoutMillis: 2_000,
        idleTimeoutMillis: 10_000,
        statement_timeout: 2_000,
        lock_timeout: 2_000,
      });
      pool.on('error', () => undefined);
      pool.on('connect', (client) => client.on('error', () => undefined));
      return pool;
    });
    return this.pool;
  }

  private async ensureTable(pool: Pool): Promise<void> {
    if (this.created) return;
    // Several replicas starting together may race on CREATE TABLE IF NOT EXISTS (a unique violation on the type).
    await pool.query(CREATE).catch((e: { code?: string }) => {
      if (e.code !== '23505' && e.code !== '42P07') throw e;
    });
    this.created = true;
  }

  /** Registers this replica and beats every HEARTBEAT_MS until stop(); a database that is down is retried quietly. */
  start(id: string, address: string): void {
    let warned = false;
    const beat = async (): Promise<void> => {
      try {
        const pool = await this.connect();
        await this.ensureTable(pool);
        await pool.query(
          `INSERT INTO mcp_smart_replicas (replica_id, address) VALUES ($1, $2)
           ON CONFLICT (replica_id) DO UPDATE SET address = $2, heartbeat_at = now()`,
          [id, address],
        );
        warned = false;
      } catch (e) {
        if (!warned) this.log(`warning: could not register this replica in the store (${(e as Error).message})`);
        warned = true;
      }
    };
    void beat();
    this.timer = setInterval(() => void beat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  /** The owner of a held call as the store knows it (undefined when the store does not answer). */
  async lookup(id: string): Promise<Liveness> {
    try {
      const pool = await this.connect();
      await this.ensureTable(pool);
      const rows = (
        await pool.query<{ address: string; age_ms: number }>(
          `SELECT address, (extract(epoch FROM now() - heartbeat_at) * 1000)::float8 AS age_ms
           FROM mcp_smart_replicas WHERE replica_id = $1`,
          [id],
        )
      ).rows;
      const row = rows[0];
      if (!row) return { gone: true, why: 'it is no longer registered (it stopped)' };
      if (row.age_ms > STALE_MS)
        return { gone: true, why: `its last heartbeat was ${Math.round(row.age_ms / 1000)} s ago` };
      return { gone: false, address: row.address };
    } catch {
      return undefined;
    }
  }

  /** Stops beating and removes this replica's row (bounded: the database may be down). */
  async stop(id: string): Promise<void> {
    clearInterval(this.timer);
    if (!this.pool) return;
    const pool = await this.pool;
    await Promise.race([
      pool.query('DELETE FROM mcp_smart_replicas WHERE replica_id = $1', [id]).catch(() => undefined),
      new Promise((r) => setTimeout(r, 2_000).unref()),
    ]);
    await pool.end().catch(() => undefined);
  }
}
