// Types for postgres-server.mjs, so TypeScript tests can import it (benches import the .mjs directly).
export const PG_USER: string;
export const PG_PASSWORD: string;
export interface PgServer {
  port: number;
  /** postgres://mcp@127.0.0.1:<port>/<db> — no password in it; pass PG_PASSWORD through PGPASSWORD. */
  url(db?: string): string;
  /** Creates a fresh database and returns its URL (without password). */
  createDatabase(name: string): Promise<string>;
  /** Runs SQL in a database through the pg client. */
  query(db: string, sql: string): Promise<Record<string, unknown>[]>;
  /** Stops the server, keeping its data ("the database is down"); start() brings it back on the same port. */
  pause(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}
export function postgresBin(): string | undefined;
export function startPostgresIn(dir: string): Promise<PgServer>;
