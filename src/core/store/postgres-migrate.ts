/**
 * Bringing the PostgreSQL store's schema to this version, needing no more rights than the work asks: a schema
 * already current is only read (SELECT), so a role that may only read the store reads it; creating or migrating
 * (CREATE) happens only when the schema is absent or older, once across processes (an advisory lock), in one
 * transaction. A reader that may not create an absent schema reads an empty store.
 */
import type { PoolClient } from 'pg';
import { SmartError } from '../../process/errors.js';
import { MIGRATIONS, MIGRATION_LOCK, SCHEMA_VERSION } from './postgres-schema.js';

/** `current`: the tables are there at this version; `absent`: none yet, and this role may not create them. */
export type SchemaState = 'current' | 'absent';

/** The schema version the database holds (0: no mcp-smart schema), read without taking any lock. */
async function versionOf(c: PoolClient): Promise<number> {
  const present = await c.query<{ present: boolean }>(
    "SELECT to_regclass('mcp_smart_schema_version') IS NOT NULL AS present",
  );
  if (!present.rows[0]?.present) return 0;
  const row = (
    await c.query<{ version: number | null }>('SELECT max(version) AS version FROM mcp_smart_schema_version')
  ).rows[0];
  return row?.version ?? 0;
}

function refuseNewer(at: number): SmartError {
  return new SmartError('STORE_REFUSED', {
    file: 'the PostgreSQL store',
    reason: `its schema is version ${at}, newer than this mcp-smart's ${SCHEMA_VERSION}`,
    hint: 'upgrade mcp-smart',
  });
}

/**
 * Makes the schema current. `write`: the caller will write, so an absent schema must be created (a permission
 * error is the caller's to report); otherwise an absent schema this role may not create is `absent`.
 */
export async function ensureSchema(c: PoolClient, write: boolean): Promise<SchemaState> {
  const at = await versionOf(c);
  if (at > SCHEMA_VERSION) throw refuseNewer(at);
  if (at === SCHEMA_VERSION) return 'current';
  try {
    await migrate(c);
    return 'current';
  } catch (e) {
    if (!write && at === 0 && (e as { code?: string }).code === '42501') return 'absent';
    throw e;
  }
}

/** Creates or migrates the schema under the migration lock, in one transaction (re-reading the version there). */
async function migrate(c: PoolClient): Promise<void> {
  await c.query('BEGIN');
  try {
    await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await c.query('CREATE TABLE IF NOT EXISTS mcp_smart_schema_version (version integer NOT NULL)');
    const at = await versionOf(c);
    if (at > SCHEMA_VERSION) throw refuseNewer(at);
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
