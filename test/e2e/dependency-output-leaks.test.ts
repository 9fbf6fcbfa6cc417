// Issue 41, class 0: what our dependencies print goes through the same redaction and size limits as our own output.
// A real loopback server (fixtures/servers/misbehaving/leaky-500.mjs) answers 500 with a 100 KB HTML page quoting a
// token; in OAuth mode its token endpoint does so for a refresh grant, quoting the stored refresh token it was sent
// (the MCP SDK's own console warning then carried the whole page). The pg driver's deprecation warning (a password
// from a pgpass file) is a dependency's output too. Neither token nor body reaches stdout/stderr of audit, --json,
// --debug or dump.
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { PG_PASSWORD, PG_USER, startPostgres, type PgServer } from '../helpers/postgres.js';
import { spawnCli, startHttpFixture } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const LEAKY = fixture('servers', 'misbehaving', 'leaky-500.mjs');
// Short enough to sit inside the 60 characters of a page's text an error message quotes.
const PAGE_TOKEN = 'pagetok-PLANT-77ff';
const REFRESH = 'refresh-PLANT-8888aaaa1111';
const ACCESS = 'access-PLANT-9999bbbb2222';
const children: ChildProcess[] = [];
let plainUrl = '';
let oauthUrl = '';
let pg: PgServer;

beforeAll(async () => {
  plainUrl = await startHttpFixture(LEAKY, ['--token', PAGE_TOKEN], children);
  oauthUrl = await startHttpFixture(LEAKY, ['--oauth', '--token', PAGE_TOKEN], children);
  pg = await startPostgres();
}, 120_000);
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await pg?.stop();
});

/** A project whose one server is `url`, with a stored (refusable) OAuth token for it. */
function project(url: string): { cwd: string; env: Record<string, string | undefined> } {
  const cwd = tempDir('mcp-smart-leaks-');
  const home = join(cwd, 'home');
  const config = join(home, 'config');
  mkdirSync(config, { recursive: true, mode: 0o700 });
  writeFileSync(join(cwd, 'mcp-smart.config.json'), JSON.stringify({ servers: { web: { type: 'http', url } } }));
  const entry = {
    url,
    client: 'dynamic',
    clientInformation: { client_id: 'client-1' },
    tokens: { access_token: ACCESS, token_type: 'bearer', refresh_token: REFRESH },
  };
  const store = join(config, 'oauth-tokens.json');
  writeFileSync(store, JSON.stringify({ format: 'mcp-smart/oauth-tokens@1', entries: { [`${url} dynamic`]: entry } }));
  chmodSync(store, 0o600);
  return {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      NO_COLOR: '1',
      MCP_SMART_CONFIG_DIR: config,
      MCP_SMART_CACHE_DIR: join(home, 'cache'),
      MCP_SMART_DATA_DIR: join(home, 'data'),
    },
  };
}

const COMMANDS = [['audit'], ['audit', '--json'], ['audit', '--debug'], ['dump'], ['dump', '--debug']];

describe('output of dependencies', () => {
  it.each([
    ['a 500 with a 100 KB HTML page', () => plainUrl],
    ['an OAuth refresh answered by a 500 page quoting the refresh token', () => oauthUrl],
  ])(
    '%s: no token, no page on stdout or stderr',
    async (_what, url) => {
      const p = project(url());
      for (const args of COMMANDS) {
        const r = await spawnCli(args, { ...p, timeoutMs: 60_000 });
        const both = r.stdout + r.stderr;
        // The run did reach the server and report it failed (exit 3: a server failed).
        expect(r.code, `${args.join(' ')}: ${r.stderr.slice(0, 500)}`).toBe(3);
        for (const secret of [PAGE_TOKEN, REFRESH, ACCESS]) expect(both, args.join(' ')).not.toContain(secret);
        expect(both).not.toContain('stack frame of the failing handler');
        // A few lines, not the page: our own messages fit in 4 KB per stream.
        expect(r.stderr.length, `${args.join(' ')} stderr`).toBeLessThan(4_000);
        expect(r.stdout.length, `${args.join(' ')} stdout`).toBeLessThan(4_000);
      }
    },
    120_000,
  );

  it("the pg driver's deprecation warning (a password from a pgpass file) is not printed; --debug shows it redacted", async () => {
    const cwd = tempDir('mcp-smart-leaks-pg-');
    const url = await pg.createDatabase('leaks');
    const pgpass = join(cwd, 'pgpass');
    writeFileSync(pgpass, `127.0.0.1:${pg.port}:*:${PG_USER}:${PG_PASSWORD}\n`);
    chmodSync(pgpass, 0o600);
    const env = {
      PATH: process.env.PATH,
      HOME: cwd,
      NO_COLOR: '1',
      PGPASSFILE: pgpass,
      MCP_SMART_CACHE_DIR: join(cwd, 'cache'),
      MCP_SMART_DATA_DIR: join(cwd, 'data'),
    };
    const plain = await spawnCli(['store', 'init', '--store', url], { cwd, env, timeoutMs: 60_000 });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).not.toMatch(/DeprecationWarning|pgpass support/);
    const debug = await spawnCli(['store', 'init', '--store', url, '--debug'], { cwd, env, timeoutMs: 60_000 });
    expect(debug.code, debug.stderr).toBe(0);
    expect(debug.stderr).toMatch(/\(dependency\) DeprecationWarning: pgpass support is deprecated/);
    expect(debug.stdout + debug.stderr).not.toContain(PG_PASSWORD);
  }, 120_000);
});
