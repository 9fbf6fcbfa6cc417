// The PostgreSQL usage store against a real server (test/helpers/postgres.ts): the same learning as the file
// store, moved into the database and back losing nothing, credentials never printed, an unreachable database is
// exit 3, the schema is versioned.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { PG_PASSWORD, startPostgres, teamStoreEnv, type PgServer } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';

const SNAP = fixture('snapshots', 'replay-demo.json');
const SESSIONS = fixture('sessions');
const tmp = (): string => tempDir('mcp-smart-team-store-');
const env = teamStoreEnv;
const cli = (cwd: string, args: string[], extra: Record<string, string> = {}) =>
  runCli(args, { cwd, env: env(cwd, extra) });
const withoutTime = (doc: Record<string, unknown>): Record<string, unknown> => ({ ...doc, updatedAt: 'x' });

let pg: PgServer;
let dbs = 0;
const freshDb = (): Promise<string> => pg.createDatabase(`t${++dbs}`);

beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await pg?.stop();
});

describe('PostgreSQL usage store', () => {
  it('replay --learn into PostgreSQL holds exactly what the file store holds; export gives that file back', async () => {
    const cwd = tmp();
    const url = await freshDb();
    const file = join(cwd, 'file-store.json');
    const replay = (store: string) =>
      cli(cwd, ['--snapshot', SNAP, '--json', 'replay', SESSIONS, '--learn', '--store', store, '--ttl-days', '0']);
    const viaFile = await replay(file);
    const viaPg = await replay(url);
    expect(viaPg.code).toBe(0);
    const learned = JSON.parse(viaPg.stdout).learned;
    // One case calls only a tool the snapshot lacks: it is left for a later run, not counted as learned.
    expect(learned).toMatchObject({ store: url, cases: 138, alreadyLearned: 0, notLearned: 1, expired: 0 });
    expect(learned.tools).toBe(JSON.parse(viaFile.stdout).learned.tools);
    // Learning the same recordings again counts nothing twice (the sessions guard).
    const again = JSON.parse((await replay(url)).stdout).learned;
    expect(again).toMatchObject({ cases: 0, alreadyLearned: 138, notLearned: 1 });

    const out = join(cwd, 'exported.json');
    const exp = await cli(cwd, ['--json', 'store', 'export', out, '--store', url]);
    expect(exp.code).toBe(0);
    const exported = JSON.parse(readFileSync(out, 'utf8'));
    expect(withoutTime(exported)).toEqual(withoutTime(JSON.parse(readFileSync(file, 'utf8'))));
    // Nowhere a folder named "postgres:" (the old bug: the URL taken for a file path).
    expect(() => readFileSync(join(cwd, 'postgres:'))).toThrow();
  });

  it('store import then export round-trips a file store losing nothing (latencies, categories, intents, sessions)', async () => {
    const cwd = tmp();
    const url = await freshDb();
    const source = join(cwd, 'usage.json');
    const doc = {
      format: 'mcp-smart/usage@1',
      updatedAt: '2026-01-01T00:00:00.000Z',
      tools: {
        'a.read': {
          success: 7,
          failure: 2,
          lastUsed: 1_760_000_000_123,
          categories: { file_operation: 5, other: 2 },
          avgLatencyMs: 12.345678901234,
          latencySamples: 9,
        },
        'a.write': { success: 1, failure: 0, lastUsed: 1_760_000_100_000, categories: {} },
        'b.zero': { success: 0, failure: 3, lastUsed: 1_760_000_000_000, categories: {}, avgLatencyMs: 4 },
      },
      intents: {
        'a.read': [
          { text: 'read the config file', count: 3, last: 1_760_000_000_100 },
          { text: 'Open README', count: 1, last: 1_760_000_000_050 },
        ],
        'a.write': [{ text: 'save notes', count: 1, last: 1_760_000_100_000 }],
      },
      sessions: { s1: 4, 'session two': 11 },
    };
    writeFileSync(source, JSON.stringify(doc));
    const imp = await cli(cwd, ['--json', 'store', 'import', source, '--store', url]);
    expect(imp.code).toBe(0);
    expect(JSON.parse(imp.stdout)).toMatchObject({
      command: 'store',
      action: 'import',
      kind: 'postgres',
      tools: 3,
      intents: 3,
      sessions: 2,
    });
    const back = join(cwd, 'back.json');
    expect((await cli(cwd, ['store', 'export', back, '--store', url])).code).toBe(0);
    expect(withoutTime(JSON.parse(readFileSync(back, 'utf8')))).toEqual(withoutTime(doc));
    // An existing file is not replaced without --force.
    const refused = await cli(cwd, ['store', 'export', back, '--store', url]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--force');
  });

  it('discover ranks with the team store; forget --tool removes a tool everywhere', async () => {
    const cwd = tmp();
    const url = await freshDb();
    await cli(cwd, ['--snapshot', SNAP, 'replay', SESSIONS, '--learn', '--store', url, '--ttl-days', '0']);
    const explain = await cli(cwd, [
      '--snapshot',
      SNAP,
      '--json',
      'discover',
      'create an issue',
      '--explain',
      '--store',
      url,
    ]);
    expect(explain.code).toBe(0);
    const before = await pg.query(`t${dbs}`, 'SELECT count(*)::int AS n FROM mcp_smart_tools');
    const victim = (await pg.query(`t${dbs}`, 'SELECT tool_id FROM mcp_smart_tools ORDER BY tool_id LIMIT 1'))[0]!
      .tool_id as string;
    const f = await cli(cwd, ['--json', 'store', 'forget', '--tool', victim, '--store', url]);
    expect(JSON.parse(f.stdout)).toMatchObject({ removed: 1, tools: (before[0]!.n as number) - 1 });
    for (const table of ['mcp_smart_tools', 'mcp_smart_categories', 'mcp_smart_intents'])
      expect(await pg.query(`t${dbs}`, `SELECT 1 FROM ${table} WHERE tool_id = '${victim}'`)).toEqual([]);
  });

  it('creates a versioned schema once; a newer schema is refused, untouched', async () => {
    const cwd = tmp();
    const url = await freshDb();
    const db = `t${dbs}`;
    expect((await cli(cwd, ['store', 'init', '--store', url])).code).toBe(0);
    expect((await cli(cwd, ['store', 'init', '--store', url])).code).toBe(0);
    // Every migration ran once (2 added per-user attribution, 3 any number of cases, 4 per-project counts), however
    // often init runs.
    expect(await pg.query(db, 'SELECT version FROM mcp_smart_schema_version ORDER BY version')).toEqual([
      { version: 1 },
      { version: 2 },
      { version: 3 },
      { version: 4 },
    ]);
    await pg.query(db, 'INSERT INTO mcp_smart_schema_version VALUES (99)');
    const r = await cli(cwd, ['store', 'init', '--store', url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/schema is version 99/);
  });

  it('init creates a database that does not exist yet (one command); every other command leaves it missing', async () => {
    const cwd = tmp();
    const url = pg.url('team_not_yet');
    const other = await cli(cwd, ['--json', 'discover', 'read a file', '--snapshot', SNAP, '--store', url]);
    expect(other.code).toBe(3);
    expect(other.stdout).toMatch(
      /database \\"team_not_yet\\" does not exist.*`mcp-smart store init --store <url>` creates it/,
    );
    const first = await cli(cwd, ['--json', 'store', 'init', '--store', url]);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      action: 'init',
      kind: 'postgres',
      createdDatabase: true,
      tools: 0,
    });
    const again = await cli(cwd, ['store', 'init', '--store', url]);
    expect(again.stdout).toMatch(/^Usage store postgres:\/\/mcp@127\.0\.0\.1:\d+\/team_not_yet is ready/);
    expect(await pg.query('team_not_yet', 'SELECT max(version) AS v FROM mcp_smart_schema_version')).toEqual([
      { v: 4 },
    ]);
  });

  it('credentials come from the environment or ${VAR} and are never printed; unreachable is exit 3', async () => {
    const cwd = tmp();
    const url = await freshDb();
    const withVar = url.replace('//mcp@', '//mcp:${TEAM_PW}@');
    const ok = await cli(cwd, ['store', 'init', '--store', withVar], { PGPASSWORD: '', TEAM_PW: PG_PASSWORD });
    expect(ok.code).toBe(0);
    expect(ok.stdout + ok.stderr).not.toContain(PG_PASSWORD);
    expect(ok.stdout).toContain('mcp:***@');

    const wrong = await cli(cwd, ['store', 'init', '--store', url.replace('//mcp@', '//mcp:nottheword@')], {
      PGPASSWORD: '',
    });
    expect(wrong.code).toBe(3);
    expect(wrong.stdout + wrong.stderr).not.toContain('nottheword');
    // Redacted by the store's label, and again by the output scrub every printed byte passes.
    expect(wrong.stderr).toMatch(
      /Cannot reach the usage store postgres:\/\/(mcp:\*\*\*|redacted:redacted)@127\.0\.0\.1:\d+\/t\d+: password authentication failed/,
    );

    // Nothing listens on port 1: every reader and writer says so, exit 3, the URL redacted.
    const down = 'postgres://mcp:hunter2secret@127.0.0.1:1/team';
    for (const args of [
      ['--snapshot', SNAP, 'discover', 'read a file', '--store', down],
      ['--snapshot', SNAP, 'budget', '--max', '100000', '--store', down],
      ['--snapshot', SNAP, 'replay', SESSIONS, '--learn', '--store', down],
    ]) {
      const r = await cli(cwd, args);
      expect(r.code, args.join(' ')).toBe(3);
      expect(r.stderr).toMatch(/postgres:\/\/(mcp:\*\*\*|redacted:redacted)@127\.0\.0\.1:1\/team/);
      expect(r.stdout + r.stderr).not.toContain('hunter2secret');
    }
    const unset = await cli(cwd, ['store', 'init', '--store', 'postgres://mcp:${NOPE_UNSET}@127.0.0.1/x']);
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('NOPE_UNSET');
  });

  it('the config file\'s "store" is used when --store is not given', async () => {
    const cwd = tmp();
    const url = await freshDb();
    const config = join(cwd, 'mcp-smart.config.json');
    writeFileSync(config, JSON.stringify({ store: url }));
    const r = await cli(cwd, [
      '--config',
      config,
      '--snapshot',
      SNAP,
      '--json',
      'replay',
      SESSIONS,
      '--learn',
      '--ttl-days',
      '0',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).learned.store).toBe(url);
    expect((await pg.query(`t${dbs}`, 'SELECT count(*)::int AS n FROM mcp_smart_sessions'))[0]!.n).toBe(138); // a row per case learned
  });

  it('attributes learned calls to a user, hashed or plain; forget --user takes exactly their calls off, on both stores', async () => {
    const cwd = tmp();
    const url = await freshDb();
    const file = join(cwd, 'team.json');
    // In a folder of its own: a ./mcp-smart.config.json would label alice's calls plain too (the kind is the config's).
    mkdirSync(join(cwd, 'bob'));
    const config = join(cwd, 'bob', 'mcp-smart.config.json');
    const bobFile = join(cwd, 'bob.jsonl');
    writeFileSync(config, JSON.stringify({ servers: {}, user: { name: 'bob', label: 'plain' } }));
    writeFileSync(
      bobFile,
      JSON.stringify({ intent: 'read the notes', expected: ['filesystem.read_text_file'] }) + '\n',
    );
    const totals = (doc: { tools: Record<string, { success: number }> }): number =>
      Object.values(doc.tools).reduce((n, t) => n + t.success, 0);
    for (const store of [url, file]) {
      const tag = store === file ? 'file' : 'pg';
      const alice = await cli(cwd, [
        '--snapshot',
        SNAP,
        'replay',
        SESSIONS,
        '--user',
        'alice',
        '--learn',
        '--store',
        store,
        '--ttl-days',
        '0',
      ]);
      expect(alice.code).toBe(0);
      expect(
        (
          await cli(cwd, [
            '--config',
            config,
            '--snapshot',
            SNAP,
            'replay',
            bobFile,
            '--learn',
            '--store',
            store,
            '--ttl-days',
            '0',
          ])
        ).code,
      ).toBe(0);
      const out = join(cwd, `export-${tag}.json`);
      expect((await cli(cwd, ['store', 'export', out, '--store', store])).code).toBe(0);
      const doc = JSON.parse(readFileSync(out, 'utf8'));
      const labels = Object.keys(doc.users).sort();
      expect(labels).toHaveLength(2);
      expect(labels).toContain('bob');
      // The name is stored only as its hash (a fixture session happens to be called "labelled-alice…").
      expect(JSON.stringify(doc.users)).not.toContain('alice');
      const aliceLabel = labels.find((l) => l !== 'bob')!;
      expect(aliceLabel).toMatch(/^u-[0-9a-f]{16}$/);
      const aliceCalls = Object.values(doc.users[aliceLabel] as Record<string, { success: number }>).reduce(
        (n, u) => n + u.success,
        0,
      );
      expect(aliceCalls).toBeGreaterThan(100);
      expect(doc.users.bob).toEqual({
        'filesystem.read_text_file': { success: 1, failure: 0, lastUsed: expect.any(Number) },
      });
      const before = totals(doc);
      const forget = await cli(cwd, ['--json', 'store', 'forget', '--user', 'alice', '--store', store]);
      expect(forget.code).toBe(0);
      expect(JSON.parse(forget.stdout)).toMatchObject({ user: aliceLabel });
      const after = join(cwd, `after-${tag}.json`);
      expect((await cli(cwd, ['store', 'export', after, '--store', store])).code).toBe(0);
      const left = JSON.parse(readFileSync(after, 'utf8'));
      expect(Object.keys(left.users)).toEqual(['bob']);
      expect(totals(left)).toBe(before - aliceCalls);
    }
  });
});
