// The PostgreSQL store's failures, each named for what it is (permission, schema, constraint, lock, unreachable)
// with its SQLSTATE, against a real server (test/helpers/postgres.ts): not all "Cannot reach the usage store". A
// role that may only SELECT reads the store; text PostgreSQL cannot hold (U+0000, a lone surrogate) never fails a
// write; numbers come back as they went in.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { PG_PASSWORD, startPostgres, type PgServer } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';

const tmp = (): string => tempDir('mcp-smart-store-errors-');
const env = (cwd: string, password = PG_PASSWORD): Record<string, string> => ({
  NO_COLOR: '1',
  MCP_SMART_CACHE_DIR: join(cwd, 'cache'),
  MCP_SMART_DATA_DIR: join(cwd, 'data'),
  PGPASSWORD: password,
});
const cli = (cwd: string, args: string[], password?: string) => runCli(args, { cwd, env: env(cwd, password) });

let pg: PgServer;
let dbs = 0;
/** A fresh database: its name and the URL for the test's owner role. */
async function freshDb(): Promise<{ name: string; url: string }> {
  const name = `e${++dbs}`;
  return { name, url: await pg.createDatabase(name) };
}

const READER_PW = 'reader-only-pw';
beforeAll(async () => {
  pg = await startPostgres();
  await pg.query('postgres', `CREATE ROLE reader LOGIN PASSWORD '${READER_PW}'`);
});
afterAll(async () => {
  await pg?.stop();
});

const DOC = {
  format: 'mcp-smart/usage@1',
  updatedAt: '2026-01-01T00:00:00.000Z',
  tools: {
    'a.read': { success: 7, failure: 2, lastUsed: 1_760_000_000_123, categories: { file_operation: 5 } },
    'a.write': { success: 1, failure: 0, lastUsed: 1_760_000_100_000, categories: {} },
  },
  intents: { 'a.read': [{ text: 'read the config file', count: 3, last: 1_760_000_000_100 }] },
  sessions: { s1: 4 },
};

/** A database holding DOC, imported by the owner. */
async function storeWithDoc(cwd: string): Promise<{ name: string; url: string }> {
  const db = await freshDb();
  const source = join(cwd, 'usage.json');
  writeFileSync(source, JSON.stringify(DOC));
  const imp = await cli(cwd, ['store', 'import', source, '--store', db.url]);
  expect(imp.stderr).toBe('');
  expect(imp.code).toBe(0);
  return db;
}

const learnArgs = (cwd: string, url: string): string[] => {
  const source = join(cwd, 'more.json');
  writeFileSync(source, JSON.stringify({ ...DOC, sessions: { s2: 1 } }));
  return ['store', 'import', source, '--store', url];
};

describe('PostgreSQL store errors name what failed, with the SQLSTATE', () => {
  it('tables mcp-smart did not make (a foreign table, a changed column) are a schema refusal, exit 2', async () => {
    const cwd = tmp();
    const foreign = await freshDb();
    await pg.query(foreign.name, 'CREATE TABLE mcp_smart_tools (id integer PRIMARY KEY, owner text)');
    const out = join(cwd, 'out.json');
    const r = await cli(cwd, ['store', 'export', out, '--store', foreign.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('Cannot reach');
    expect(r.stderr).toMatch(/relation "mcp_smart_tools" already exists \(schema, SQLSTATE 42P07\)/);
    expect(r.stderr).toContain('another database');
    // The foreign table is left as it was.
    expect(await pg.query(foreign.name, 'SELECT count(*)::int AS n FROM mcp_smart_tools')).toEqual([{ n: 0 }]);

    const changed = await storeWithDoc(cwd);
    await pg.query(changed.name, 'ALTER TABLE mcp_smart_tools ALTER COLUMN success TYPE text');
    const w = await cli(cwd, learnArgs(cwd, changed.url));
    expect(w.code).toBe(2);
    expect(w.stderr).not.toContain('Cannot reach');
    expect(w.stderr).toMatch(/\(schema, SQLSTATE 42[0-9A-Z]{3}\)/);
  });

  it('a trigger that rejects rows is a constraint refusal naming its message; nothing of the write is kept', async () => {
    const cwd = tmp();
    const db = await storeWithDoc(cwd);
    await pg.query(
      db.name,
      `CREATE FUNCTION no_writes() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'usage is frozen'; END $$;
       CREATE TRIGGER frozen BEFORE INSERT OR UPDATE ON mcp_smart_tools FOR EACH ROW EXECUTE FUNCTION no_writes();`,
    );
    const r = await cli(cwd, learnArgs(cwd, db.url));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/usage is frozen \(constraint, SQLSTATE P0001\)/);
    expect(r.stderr).toContain('It was left untouched');
    expect(await pg.query(db.name, 'SELECT session_id FROM mcp_smart_sessions ORDER BY 1')).toEqual([
      { session_id: 's1' },
    ]);
  });

  it('a table locked past the lock timeout is a lock failure, exit 3, not "cannot reach"', async () => {
    const cwd = tmp();
    const db = await storeWithDoc(cwd);
    const pgm = (await import('pg')).default;
    const holder = new pgm.Client({ connectionString: db.url.replace('//mcp@', `//mcp:${PG_PASSWORD}@`) });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE mcp_smart_tools IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      const r = await cli(cwd, ['store', 'export', join(cwd, 'out.json'), '--store', db.url]);
      const took = Date.now() - started;
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/\(lock, SQLSTATE 55P03\)/);
      expect(r.stderr).not.toContain('Cannot reach');
      // Bounded by the lock timeout (10 s), not the lock's holder.
      expect(took).toBeLessThan(20_000);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }
  });

  it('an unreachable database is still "cannot reach", exit 3, and says why', async () => {
    const cwd = tmp();
    const r = await cli(cwd, ['store', 'export', join(cwd, 'x.json'), '--store', 'postgres://mcp@127.0.0.1:1/none']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/Cannot reach the usage store .*\(unreachable, SQLSTATE ECONNREFUSED\)/);
  });
});

describe('a role that may only read', () => {
  const readerUrl = (name: string): string => `postgres://reader@127.0.0.1:${pg.port}/${name}`;

  it('reads the store with SELECT alone (export, discover); writing is a permission refusal naming the table', async () => {
    const cwd = tmp();
    const db = await storeWithDoc(cwd);
    await pg.query(
      db.name,
      `GRANT CONNECT ON DATABASE ${db.name} TO reader; GRANT USAGE ON SCHEMA public TO reader;
       GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader;`,
    );
    const out = join(cwd, 'read.json');
    const r = await cli(cwd, ['--json', 'store', 'export', out, '--store', readerUrl(db.name)], READER_PW);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ tools: 2, intents: 1, sessions: 1 });
    expect({ ...JSON.parse(readFileSync(out, 'utf8')), updatedAt: 'x' }).toEqual({ ...DOC, updatedAt: 'x' });

    const w = await cli(cwd, learnArgs(cwd, readerUrl(db.name)), READER_PW);
    expect(w.code).toBe(2);
    expect(w.stderr).toMatch(/permission denied for table mcp_smart_\w+ \(permission, SQLSTATE 42501\)/);
    expect(w.stderr).toContain('only SELECT');
    expect(w.stderr).not.toContain(READER_PW);
  });

  it('reads a database with no store yet as empty, creating nothing', async () => {
    const cwd = tmp();
    const db = await freshDb();
    await pg.query(db.name, `GRANT CONNECT ON DATABASE ${db.name} TO reader`);
    const r = await cli(
      cwd,
      ['--json', 'store', 'export', join(cwd, 'e.json'), '--store', readerUrl(db.name)],
      READER_PW,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ tools: 0, sessions: 0 });
    expect(
      await pg.query(db.name, "SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'mcp_smart%'"),
    ).toEqual([{ n: 0 }]);
  });
});

describe('values on their way in and out', () => {
  it('U+0000 and lone surrogates in names and intents are replaced, and every call is kept', async () => {
    const cwd = tmp();
    const db = await freshDb();
    const doc = {
      format: 'mcp-smart/usage@1',
      updatedAt: '2026-01-01T00:00:00.000Z',
      tools: {
        'evil.na\u0000me': { success: 40, failure: 5, lastUsed: 1_760_000_000_000, categories: { 'c\u0000at': 3 } },
        'ok.one': { success: 2, failure: 0, lastUsed: 1_760_000_000_000, categories: {} },
        'ok.two\uD800': { success: 1, failure: 0, lastUsed: 1_760_000_000_000, categories: {} },
      },
      intents: { 'ok.one': [{ text: 'find \u0000 it', count: 1, last: 1_760_000_000_000 }] },
      sessions: { 'sess\u0000ion': 2 },
    };
    const source = join(cwd, 'nul.json');
    writeFileSync(source, JSON.stringify(doc));
    const imp = await cli(cwd, ['store', 'import', source, '--store', db.url]);
    expect(imp.stderr).toBe('');
    expect(imp.code).toBe(0);
    const rows = await pg.query(db.name, 'SELECT tool_id, success + failure AS calls FROM mcp_smart_tools ORDER BY 1');
    const made = Object.values(doc.tools).reduce((n, t) => n + t.success + t.failure, 0);
    const kept = rows.reduce((n, r) => n + Number(r.calls), 0);
    expect(`${kept} of ${made} calls kept`).toBe('48 of 48 calls kept');
    expect(rows.map((r) => r.tool_id)).toEqual(['evil.na\uFFFDme', 'ok.one', 'ok.two\uFFFD']);
    const intents = await pg.query(db.name, 'SELECT text, count FROM mcp_smart_intents');
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({ count: 1 });
    expect(intents[0]!.text).not.toContain('\u0000');
    expect(await pg.query(db.name, 'SELECT session_id FROM mcp_smart_sessions')).toEqual([
      { session_id: 'sess\uFFFDion' },
    ]);
  });

  it('edge numbers survive import and export unchanged', async () => {
    const cwd = tmp();
    const db = await freshDb();
    const doc = {
      format: 'mcp-smart/usage@1',
      updatedAt: '2026-01-01T00:00:00.000Z',
      tools: {
        'n.big': {
          success: 2 ** 53,
          failure: 0.1 + 0.2,
          // A time in the past, to the millisecond (a future one is clamped and reported: store-future-dates.test.ts).
          lastUsed: 1_700_000_000_123,
          categories: { other: Number.MAX_VALUE },
          avgLatencyMs: 5e-324,
          latencySamples: 3,
        },
        'n.tiny': { success: 0, failure: 0, lastUsed: 0, categories: {} },
      },
      intents: {},
      sessions: { huge: 2 ** 31, frac: 1.5, big: 2 ** 53 },
    };
    const source = join(cwd, 'edge.json');
    writeFileSync(source, JSON.stringify(doc));
    const imp = await cli(cwd, ['store', 'import', source, '--store', db.url]);
    expect(imp.stderr).toBe('');
    expect(imp.code).toBe(0);
    const back = join(cwd, 'back.json');
    expect((await cli(cwd, ['store', 'export', back, '--store', db.url])).code).toBe(0);
    expect({ ...JSON.parse(readFileSync(back, 'utf8')), updatedAt: 'x' }).toEqual({ ...doc, updatedAt: 'x' });
  });
});
