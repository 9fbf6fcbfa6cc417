// Per-project counts (issue 38.3) in the PostgreSQL store against a real server: a database at schema 3 (before
// them) is migrated to 4 keeping what it held, and `replay --learn` of recordings that name their directory
// writes each project's counts, which `store scope` shows as the file store does.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/core/store/postgres-schema.js';
import { projectKey } from '../../src/core/session/scope.js';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { startPostgres, teamStoreEnv, type PgServer } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';

const SNAP = fixture('snapshots', 'replay-demo.json');
const tmp = (): string => tempDir('mcp-smart-team-scope-');
const cli = (cwd: string, args: string[]) => runCli(args, { cwd, env: teamStoreEnv(cwd) });

let pg: PgServer;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await pg?.stop();
});

describe('PostgreSQL store: per-project counts', () => {
  it('a schema-3 database is migrated keeping its rows; replay --learn writes each project; store scope shows them', async () => {
    const cwd = tmp();
    const url = await pg.createDatabase('scope_old');
    // The database as mcp-smart before per-project counts left it: migrations 1 to 3 and one learned tool.
    await pg.query('scope_old', 'CREATE TABLE mcp_smart_schema_version (version integer NOT NULL)');
    for (let v = 0; v < 3; v++) {
      await pg.query('scope_old', MIGRATIONS[v]!);
      await pg.query('scope_old', `INSERT INTO mcp_smart_schema_version VALUES (${v + 1})`);
    }
    await pg.query(
      'scope_old',
      "INSERT INTO mcp_smart_tools (tool_id, success, failure, last_used) VALUES ('filesystem.read_text_file', 4, 0, 1000)",
    );
    const none = await cli(cwd, ['--json', 'store', 'scope', '--store', url]);
    expect(none.code, none.stderr).toBe(0);
    expect(JSON.parse(none.stdout)).toMatchObject({ tools: 1, scopes: [] });
    expect(await pg.query('scope_old', 'SELECT max(version) AS v FROM mcp_smart_schema_version')).toEqual([{ v: 4 }]);

    const rec = join(cwd, 'recorded.jsonl');
    const line = (dir: string, id: string, n: number): string =>
      JSON.stringify({ intent: `step ${n}`, expected: [id], cwd: dir, session: `${dir}-s`, time: 2000 + n }) + '\n';
    writeFileSync(
      rec,
      line('/w/docs', 'filesystem.read_text_file', 1) +
        line('/w/docs', 'filesystem.read_text_file', 2) +
        line('/w/graph', 'memory.create_entities', 3),
    );
    const learn = await cli(cwd, ['--snapshot', SNAP, '--json', 'replay', rec, '--learn', '--store', url]);
    expect(learn.code, learn.stderr).toBe(0);
    expect(
      await pg.query('scope_old', 'SELECT project_key, tool_id, success FROM mcp_smart_project_tools ORDER BY 1, 2'),
    ).toEqual(
      [
        { project_key: projectKey('/w/docs'), tool_id: 'filesystem.read_text_file', success: 2 },
        { project_key: projectKey('/w/graph'), tool_id: 'memory.create_entities', success: 1 },
      ].sort((a, b) => (a.project_key < b.project_key ? -1 : 1)),
    );
    const shown = JSON.parse((await cli(cwd, ['--json', 'store', 'scope', '--store', url])).stdout) as {
      tools: number;
      scopes: { key: string; tools: { id: string; calls: number }[] }[];
    };
    // The old tool's counts are still there, beside the new ones.
    expect(shown.tools).toBe(2);
    expect(Object.fromEntries(shown.scopes.map((s) => [s.key, s.tools]))).toEqual({
      [projectKey('/w/docs')]: [{ id: 'filesystem.read_text_file', calls: 2, success: 2 }],
      [projectKey('/w/graph')]: [{ id: 'memory.create_entities', calls: 1, success: 1 }],
    });
  });
});
