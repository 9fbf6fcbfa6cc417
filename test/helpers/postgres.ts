// A real PostgreSQL server for a test file, in the test's temporary folder (postgres-server.mjs does the work; the
// benches use it too).
import { join } from 'node:path';
import { PG_PASSWORD, startPostgresIn, type PgServer } from './postgres-server.mjs';
import { tempDir } from './temp.js';

export { PG_PASSWORD, PG_USER, type PgServer } from './postgres-server.mjs';

export const startPostgres = (): Promise<PgServer> => startPostgresIn(tempDir('mcp-smart-pg-'));

/** The environment of a CLI run against a test's PostgreSQL: its own cache and data folders under `cwd`, the password. */
export const teamStoreEnv = (cwd: string, extra: Record<string, string> = {}): Record<string, string> => ({
  NO_COLOR: '1',
  MCP_SMART_CACHE_DIR: join(cwd, 'cache'),
  MCP_SMART_DATA_DIR: join(cwd, 'data'),
  PGPASSWORD: PG_PASSWORD,
  ...extra,
});
