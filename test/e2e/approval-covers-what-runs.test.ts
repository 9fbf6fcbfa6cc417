// Issue 41, classes 1 and 3: an approval covers what will run and where learning goes, and nothing else.
// (3b) An approved entry whose NODE_OPTIONS value (in the entry, or in a VS Code envFile) becomes `--require
// <payload>` is not started until approved again. (3a) A --config file (what adopt writes into a client) counts as
// approved as first named; a server added to it later is held. (1) A project config's `store` that reaches outside
// the project (PostgreSQL, a file outside the folder) is not connected to or written without approval. Real
// processes: the built CLI, a real fixture server, a real PostgreSQL; the payload proves itself by writing a file.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { PG_PASSWORD, startPostgres, type PgServer } from '../helpers/postgres.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const SERVER = fixture('servers', 'catalog-server.mjs');
const TINY = fixture('servers', 'catalogs', 'tiny.json');
const SNAP = fixture('snapshots', 'replay-demo.json');

let pg: PgServer;
beforeAll(async () => {
  pg = await startPostgres();
}, 120_000);
afterAll(async () => {
  await pg?.stop();
});

/** A sandbox: a project folder, its own HOME and data folders, no blanket approval (MCP_SMART_TRUST_PROJECT ''). */
function sandbox(): { dir: string; project: string; marker: string; payload: string; env: Record<string, string> } {
  const dir = tempDir('mcp-smart-approval-');
  const project = join(dir, 'project');
  mkdirSync(project);
  const marker = join(dir, 'payload-ran');
  const payload = join(dir, 'payload.cjs');
  writeFileSync(payload, `require('node:fs').appendFileSync(${JSON.stringify(marker)}, 'ran\\n');\n`);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: join(dir, 'home'),
    NO_COLOR: '1',
    MCP_SMART_CACHE_DIR: join(dir, 'cache'),
    MCP_SMART_DATA_DIR: join(dir, 'data'),
    MCP_SMART_TRUST_PROJECT: '',
    PGPASSWORD: PG_PASSWORD,
  };
  return { dir, project, marker, payload, env };
}

const cli = (cwd: string, env: Record<string, string>, args: string[]) =>
  spawnCli(['--no-cache', ...args], { cwd, env, timeoutMs: 90_000 });

const server = (env: Record<string, string> = {}) => ({ command: 'node', args: [SERVER, TINY], env });

describe('an approval covers the env values that change what runs', () => {
  it.each([
    [
      'NODE_OPTIONS in the entry',
      (s: ReturnType<typeof sandbox>, value: string) =>
        writeFileSync(
          join(s.project, 'mcp-smart.config.json'),
          JSON.stringify({ servers: { tools: server({ NODE_OPTIONS: value, API_TOKEN: `tok-${value.length}` }) } }),
        ),
    ],
    [
      'NODE_OPTIONS in a VS Code envFile',
      (s: ReturnType<typeof sandbox>, value: string) => {
        mkdirSync(join(s.project, '.vscode'), { recursive: true });
        writeFileSync(
          join(s.project, '.vscode', 'mcp.json'),
          JSON.stringify({ servers: { tools: { ...server(), envFile: '${workspaceFolder}/.env' } } }),
        );
        writeFileSync(join(s.project, '.env'), `NODE_OPTIONS=${value}\n`);
      },
    ],
  ])(
    '%s: changed to --require <payload> after approval, the payload does not run',
    async (_what, write) => {
      const s = sandbox();
      write(s, '--max-old-space-size=256');
      expect((await cli(s.project, s.env, ['trust'])).code).toBe(0);
      const approved = await cli(s.project, s.env, ['audit', '--json']);
      expect(approved.code, approved.stderr).toBe(0);
      expect(JSON.parse(approved.stdout).servers[0].status).toBe('ok');

      write(s, `--require ${s.payload}`);
      const changed = await cli(s.project, s.env, ['audit']);
      expect(existsSync(s.marker)).toBe(false);
      expect(changed.stderr).toContain('pending approval');
      // Approving again is what lets it run: the payload then does (the test would see it).
      expect((await cli(s.project, s.env, ['trust'])).code).toBe(0);
      await cli(s.project, s.env, ['audit']);
      expect(readFileSync(s.marker, 'utf8')).toContain('ran');
    },
    180_000,
  );
});

describe('a --config file is approved as first named; a change asks again', () => {
  it('a server added to the file by a pull is not started through --config until `trust -c`', async () => {
    const s = sandbox();
    const file = join(s.project, 'mcp-smart.config.json');
    writeFileSync(file, JSON.stringify({ servers: { tools: server() } }));
    // Named from elsewhere, as a client's entry (`serve --config <file>`) names it.
    const first = await cli(s.dir, s.env, ['-c', file, 'audit', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).servers.map((x: { status: string }) => x.status)).toEqual(['ok']);

    writeFileSync(
      file,
      JSON.stringify({ servers: { tools: server(), pulled: server({ NODE_OPTIONS: `--require ${s.payload}` }) } }),
    );
    const after = await cli(s.dir, s.env, ['-c', file, 'audit']);
    expect(existsSync(s.marker)).toBe(false);
    expect(after.stderr).toContain(`mcp-smart trust -c ${file}`);

    expect((await cli(s.dir, s.env, ['-c', file, 'trust'])).code).toBe(0);
    await cli(s.dir, s.env, ['-c', file, 'audit']);
    expect(readFileSync(s.marker, 'utf8')).toContain('ran');
  }, 180_000);
});

describe("a project config's store that reaches outside the project needs the approval", () => {
  const tables = async (db: string): Promise<number> =>
    Number(
      (
        await pg.query(
          db,
          "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name LIKE 'mcp_smart%'",
        )
      )[0]!.n,
    );

  it('a PostgreSQL store: discover, budget and replay --learn never connect until `trust`', async () => {
    const s = sandbox();
    const url = await pg.createDatabase('cloned');
    writeFileSync(join(s.project, 'mcp-smart.config.json'), JSON.stringify({ store: url }));
    for (const args of [
      ['--snapshot', SNAP, 'discover', 'read a file'],
      ['--snapshot', SNAP, 'budget', '--max', '100000'],
      ['--snapshot', SNAP, 'replay', fixture('sessions'), '--learn'],
    ]) {
      const r = await cli(s.project, s.env, args);
      expect(await tables('cloned'), args.join(' ')).toBe(0);
      expect(r.stderr, args.join(' ')).toContain('was not used: it reaches outside the project');
    }
    const trust = await cli(s.project, s.env, ['trust']);
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toContain('Approved the usage store');
    expect(trust.stdout).not.toContain(PG_PASSWORD);
    const learned = await cli(s.project, s.env, ['--snapshot', SNAP, 'replay', fixture('sessions'), '--learn']);
    expect(learned.code, learned.stderr).toBe(0);
    expect(await tables('cloned')).toBeGreaterThan(0);
  }, 180_000);

  it('a store file outside the project is not written until `trust`; one inside needs nothing', async () => {
    const s = sandbox();
    const outside = join(s.dir, 'elsewhere', 'usage.json');
    writeFileSync(join(s.project, 'mcp-smart.config.json'), JSON.stringify({ store: '../elsewhere/usage.json' }));
    const held = await cli(s.project, s.env, ['--snapshot', SNAP, 'replay', fixture('sessions'), '--learn']);
    expect(held.code, held.stderr).toBe(0);
    expect(existsSync(outside)).toBe(false);
    writeFileSync(join(s.project, 'mcp-smart.config.json'), JSON.stringify({ store: 'usage.json' }));
    const inside = await cli(s.project, s.env, ['--snapshot', SNAP, 'replay', fixture('sessions'), '--learn']);
    expect(inside.code, inside.stderr).toBe(0);
    expect(existsSync(join(s.project, 'usage.json'))).toBe(true);
  }, 180_000);
});
