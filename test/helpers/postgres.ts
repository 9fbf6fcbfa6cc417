// A real PostgreSQL server for a test file, in the test's temporary folder (postgres-server.mjs does the work; the
// benches use it too).
import { startPostgresIn, type PgServer } from './postgres-server.mjs';
import { tempDir } from './temp.js';

export { PG_PASSWORD, PG_USER, type PgServer } from './postgres-server.mjs';

export const startPostgres = (): Promise<PgServer> => startPostgresIn(tempDir('mcp-smart-pg-'));
