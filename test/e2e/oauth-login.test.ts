// Servers behind OAuth, end to end: the built CLI against our OAuth-protected fixture server (the SDK's auth
// router and bearer middleware, on 127.0.0.1), with a headless "browser" that follows the redirects.
// Steps run in order and share one temporary HOME: nothing before login, login, a listed tool set, an
// expired access token refreshed, a revoked refresh token, logout; then every output and file is searched
// for the planted secrets (tokens and codes carry a prefix; the pre-registered client has a known secret).
import type { ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture } from '../helpers/paths.js';
import { spawnCli, startHttpFixture, type SpawnRun } from '../helpers/spawn-cli.js';

const TOKEN_MARK = 'PLANTEDTOKEN';
const CLIENT_SECRET = 'PLANTEDCLIENTSECRET-6f1c';
const SERVER = fixture('servers', 'oauth-server.mjs');
const FOLLOWER = fixture('oauth', 'follow-redirects.mjs');

if (!existsSync(join(BIN, '..', '..', 'dist', 'cli.js')))
  throw new Error('dist/ is missing: run `npm run build` first');

const children: ChildProcess[] = [];
const outputs: string[] = [];
let root = '';
let home = '';
let config = '';
let browserLog = '';
let fxUrl = '';
let corpUrl = '';

function env(extra: Record<string, string> = {}): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: home, NO_COLOR: '1', CLIENT_SECRET, ...extra };
}

const authOpen = (): string => `"${process.execPath}" "${FOLLOWER}" --log "${browserLog}"`;

async function cli(args: string[], extra: Record<string, string> = {}): Promise<SpawnRun> {
  const run = await spawnCli(['--config', config, ...args], { cwd: root, env: env(extra), timeoutMs: 60_000 });
  outputs.push(run.stdout, run.stderr);
  return run;
}

async function admin(url: string, path: string, method = 'POST'): Promise<Record<string, number>> {
  const res = await fetch(new URL(path, url), { method });
  return (await res.json()) as Record<string, number>;
}

const storeFile = (): string => join(home, '.config', 'mcp-smart', 'oauth-tokens.json');
interface StoreDoc {
  format: string;
  entries: Record<
    string,
    {
      url: string;
      client: string;
      login?: string;
      scopeWanted?: string;
      tokens?: { access_token: string; refresh_token?: string };
    }
  >;
}
const readStore = (): StoreDoc => JSON.parse(readFileSync(storeFile(), 'utf8')) as StoreDoc;
const entryFor = (url: string): StoreDoc['entries'][string] | undefined =>
  Object.values(readStore().entries).find((e) => e.url === url);
interface Visit {
  status: number;
  url: string;
  scope: string;
}
/** What the headless browser visited: "<status> <origin+path> <scope>" per line. */
const browserVisits = (): Visit[] =>
  (existsSync(browserLog) ? readFileSync(browserLog, 'utf8').split('\n').filter(Boolean) : []).map((line) => {
    const [status = '', url = '', ...scope] = line.split(' ');
    return { status: Number(status), url, scope: scope.join(' ') };
  });
const authorizeVisits = (host?: string): Visit[] =>
  browserVisits().filter((v) => v.url.endsWith('/authorize') && (!host || v.url.includes(host)));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((f) => statSync(f).isFile());
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mcp-smart-oauth-'));
  home = join(root, 'home');
  mkdirSync(home);
  browserLog = join(root, 'browser.log');
  fxUrl = await startHttpFixture(SERVER, ['--token-prefix', TOKEN_MARK], children);
  corpUrl = await startHttpFixture(
    SERVER,
    ['--token-prefix', TOKEN_MARK, '--client', `corp-cli:${CLIENT_SECRET}`, '--no-registration'],
    children,
  );
  config = join(root, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        fx: { url: fxUrl, type: 'http' },
        corp: { url: corpUrl, type: 'http', oauth: { clientId: 'corp-cli', clientSecret: '${CLIENT_SECRET}' } },
      },
    }),
  );
});

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('servers behind OAuth (e2e)', () => {
  it('before login: both servers need `mcp-smart login <server>` (exit 3), nothing registered, no browser', async () => {
    const run = await cli(['--no-cache', 'dump']);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toMatch(/FAIL fx +needs authorization \(no stored tokens\): run `mcp-smart login fx`/);
    expect(run.stderr).toMatch(/FAIL corp +needs authorization \(no stored tokens\): run `mcp-smart login corp`/);
    expect((await admin(fxUrl, '/admin/stats', 'GET')).registrations).toBe(0);
    expect(browserVisits()).toEqual([]);
    expect(existsSync(storeFile())).toBe(false);
  });

  it('login refuses the default browser opener in CI', async () => {
    const run = await cli(['login', 'fx'], { CI: 'true' });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain('will not open a browser in CI (CI is set)');
    expect(browserVisits()).toEqual([]);
  });

  it('login authorizes every server that needs it and stores the tokens in a 0600 file', async () => {
    const run = await cli(['--auth-open', authOpen(), 'login']);
    expect(run.stderr).not.toContain('FAIL');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('ok   fx  logged in; 5 tools');
    expect(run.stdout).toContain('ok   corp  logged in; 5 tools');
    // The headless browser went to each authorization endpoint and came back to the loopback listener once.
    const visits = browserVisits();
    expect(authorizeVisits().map((v) => v.status)).toEqual([302, 302]);
    expect(visits.filter((v) => v.status === 200 && /^http:\/\/127\.0\.0\.1:\d+\/callback$/.test(v.url))).toHaveLength(
      2,
    );
    const fx = await admin(fxUrl, '/admin/stats', 'GET');
    expect(fx).toMatchObject({ registrations: 1, authorizations: 1, codeExchanges: 1, refreshes: 0 });
    // The pre-registered client is used as configured: no registration (the server offers none).
    expect(await admin(corpUrl, '/admin/stats', 'GET')).toMatchObject({ authorizations: 1, codeExchanges: 1 });
    expect(statSync(storeFile()).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, '.config', 'mcp-smart')).mode & 0o777).toBe(0o700);
    const store = readStore();
    expect(store.format).toBe('mcp-smart/oauth-tokens@1');
    expect(entryFor(fxUrl)?.tokens?.access_token).toMatch(new RegExp(`^${TOKEN_MARK}-access-`));
    expect(entryFor(corpUrl)?.client).toBe('corp-cli');
    expect(readFileSync(storeFile(), 'utf8')).not.toContain(CLIENT_SECRET);
  });

  it('after login, audit lists the tool set of both servers', async () => {
    const run = await cli(['audit', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout) as {
      servers: { name: string; status: string; toolCount: number; tokens: { full: number } }[];
    };
    expect(doc.servers.map((s) => [s.name, s.status, s.toolCount, s.tokens.full])).toEqual([
      ['fx', 'ok', 5, 225],
      ['corp', 'ok', 5, 225],
    ]);
  });

  it('an expired access token is refreshed without asking anyone', async () => {
    const before = entryFor(fxUrl)?.tokens;
    const loginBefore = entryFor(fxUrl)?.login;
    expect(loginBefore).toMatch(/^[0-9a-f]{32}$/);
    await admin(fxUrl, '/admin/expire-access-tokens');
    const run = await cli(['--no-cache', '-s', 'fx', 'dump', '-o', join(root, 'snapshot.json')]);
    expect(run.code, run.stderr).toBe(0);
    const stats = await admin(fxUrl, '/admin/stats', 'GET');
    expect(stats).toMatchObject({ refreshes: 1, authorizations: 1, rejected: 1 });
    const after = entryFor(fxUrl)?.tokens;
    expect(after?.access_token).not.toBe(before?.access_token);
    // The server rotates refresh tokens: the new one was stored.
    expect(after?.refresh_token).not.toBe(before?.refresh_token);
    // Still the same login: the tool-list cache entry keyed by it stays valid.
    expect(entryFor(fxUrl)?.login).toBe(loginBefore);
    expect(authorizeVisits()).toHaveLength(2);
  });

  it('serve reaches the server with the stored tokens, and refreshes an expired one without a restart', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '--config', config, '-s', 'fx', 'serve', '--mode', 'meta', '--no-learn'],
      env: env() as Record<string, string>,
      cwd: root,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'e2e', version: '1' });
    await client.connect(transport);
    try {
      const call = async (): Promise<string> => {
        const r = (await client.callTool({
          name: 'call_tool',
          arguments: { name: 'fx.echo', arguments: { message: 'through serve' } },
        })) as { isError?: boolean; content: { type: string; text?: string }[] };
        expect(r.isError ?? false, `${JSON.stringify(r)}\n${stderr}`).toBe(false);
        return r.content.map((c) => c.text ?? '').join('');
      };
      expect(await call()).toContain('through serve');
      const before = await admin(fxUrl, '/admin/stats', 'GET');
      // The access token expires while serve runs: the next call refreshes it in the same process.
      await admin(fxUrl, '/admin/expire-access-tokens');
      expect(await call()).toContain('through serve');
      const after = await admin(fxUrl, '/admin/stats', 'GET');
      expect(after.refreshes).toBe(before.refreshes! + 1);
      expect(after.authorizations).toBe(before.authorizations);
      expect(authorizeVisits()).toHaveLength(2);
    } finally {
      await client.close();
      outputs.push(stderr);
    }
  });

  it('a short-lived access token (fixture --access-ttl 3) has expired by the next run and is refreshed', async () => {
    const shortUrl = await startHttpFixture(SERVER, ['--token-prefix', TOKEN_MARK, '--access-ttl', '3'], children);
    const adhoc = ['--url', shortUrl, '--name', 'short', '-s', 'short'];
    const login = await cli([...adhoc, '--auth-open', authOpen(), 'login', 'short']);
    expect(login.code, login.stderr).toBe(0);
    await new Promise((r) => setTimeout(r, 3_100));
    const dump = await cli([...adhoc, '--no-cache', 'dump']);
    expect(dump.code, dump.stderr).toBe(0);
    // A 3-second token can also expire during a run on a busy machine, so there may be more than one refresh;
    // what matters: one browser authorization in all, and the dump after expiry succeeded by refreshing.
    const stats = await admin(shortUrl, '/admin/stats', 'GET');
    expect(stats.authorizations).toBe(1);
    expect(stats.refreshes).toBeGreaterThanOrEqual(1);
    expect(stats.rejected).toBeGreaterThanOrEqual(1);
  });

  it('step-up: tools/list answers 403 insufficient_scope, login authorizes again with the larger scope once', async () => {
    const stepUrl = await startHttpFixture(
      SERVER,
      ['--token-prefix', TOKEN_MARK, '--step-up', 'tools:admin'],
      children,
    );
    const adhoc = ['--url', stepUrl, '--name', 'step', '-s', 'step'];
    const login = await cli([...adhoc, '--auth-open', authOpen(), 'login', 'step']);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain('ok   step  logged in; 5 tools');
    expect(await admin(stepUrl, '/admin/stats', 'GET')).toMatchObject({ authorizations: 2, codeExchanges: 2 });
    expect(authorizeVisits(new URL(stepUrl).host).map((v) => v.scope)).toEqual([
      'tools:read',
      'tools:read tools:admin',
    ]);
    const dump = await cli([...adhoc, '--no-cache', 'dump']);
    expect(dump.code, dump.stderr).toBe(0);
  });

  it('step-up found without a browser: the error asks for login, and that login asks for the larger scope at once', async () => {
    const laterUrl = await startHttpFixture(SERVER, ['--token-prefix', TOKEN_MARK], children);
    const host = new URL(laterUrl).host;
    const adhoc = ['--url', laterUrl, '--name', 'later', '-s', 'later'];
    const first = await cli([...adhoc, '--auth-open', authOpen(), 'login', 'later']);
    expect(first.code, first.stderr).toBe(0);
    // The server starts asking for more scope than the stored token has; a command without a browser hits it.
    await admin(laterUrl, '/admin/step-up?scope=tools:admin');
    const denied = await cli([...adhoc, '--no-cache', 'dump']);
    expect(denied.code).toBe(3);
    expect(denied.stderr).toContain(
      'later  needs authorization (the server asks for more scope: tools:read tools:admin): run `mcp-smart login later`',
    );
    expect(entryFor(laterUrl)?.scopeWanted).toBe('tools:read tools:admin');
    const login = await cli([...adhoc, '--auth-open', authOpen(), 'login', 'later']);
    expect(login.code, login.stderr).toBe(0);
    // One authorization, for the larger scope: the 401 of a fresh login names only tools:read.
    expect(authorizeVisits(host).map((v) => v.scope)).toEqual(['tools:read', 'tools:read tools:admin']);
    expect(await admin(laterUrl, '/admin/stats', 'GET')).toMatchObject({ authorizations: 2, codeExchanges: 2 });
    expect(entryFor(laterUrl)?.scopeWanted).toBeUndefined();
    const dump = await cli([...adhoc, '--no-cache', 'dump']);
    expect(dump.code, dump.stderr).toBe(0);
  });

  it('a revoked refresh token: "run `mcp-smart login fx`" (exit 3) while corp is still reported', async () => {
    const visitsBefore = browserVisits().length;
    await admin(fxUrl, '/admin/revoke-refresh-tokens');
    await admin(fxUrl, '/admin/expire-access-tokens');
    const run = await cli(['--no-cache', 'audit', '--json']);
    expect(run.code, run.stderr).toBe(3);
    const doc = JSON.parse(run.stdout) as { servers: { name: string; status: string; error?: string }[] };
    expect(doc.servers.find((s) => s.name === 'corp')?.status).toBe('ok');
    expect(doc.servers.find((s) => s.name === 'fx')?.error).toBe(
      'needs authorization (the stored tokens were refused and could not be refreshed): run `mcp-smart login fx`, or in CI give it a header from an environment variable (docs/oauth.md: "Servers behind OAuth")',
    );
    expect(entryFor(fxUrl)?.tokens).toBeUndefined();
    expect(browserVisits()).toHaveLength(visitsBefore); // never a browser unasked
  });

  it('logout forgets a server; login (named) brings it back', async () => {
    const out = await cli(['logout', 'corp']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('Forgot the stored tokens of corp (1 entry removed');
    expect(entryFor(corpUrl)).toBeUndefined();
    const loginBefore = entryFor(fxUrl)?.login;
    const login = await cli(['--auth-open', authOpen(), 'login', 'fx']);
    expect(login.code, login.stderr).toBe(0);
    // A new login (maybe another account) gets a new id: no cached tool list of the previous one is used.
    expect(entryFor(fxUrl)?.login).toMatch(/^[0-9a-f]{32}$/);
    expect(entryFor(fxUrl)?.login).not.toBe(loginBefore);
    expect(login.stdout).toContain('ok   fx  logged in; 5 tools');
    const dump = await cli(['--no-cache', 'dump', '-o', join(root, 'snapshot-2.json')]);
    expect(dump.code, dump.stderr).toBe(3);
    expect(dump.stderr).toContain('corp  needs authorization (no stored tokens): run `mcp-smart login corp`');
    expect(dump.stderr).toMatch(/ok {3}fx {4}5 tools/);
  });

  it('no token, code, PKCE verifier or client secret in any output, snapshot, cache or file (only tokens in the store)', async () => {
    expect(outputs.length).toBeGreaterThan(10);
    const verifiers = [
      ...((await (await fetch(new URL('/admin/verifiers', fxUrl))).json()) as string[]),
      ...((await (await fetch(new URL('/admin/verifiers', corpUrl))).json()) as string[]),
    ];
    expect(verifiers.length).toBeGreaterThanOrEqual(3);
    for (const text of outputs) {
      expect(text).not.toContain(TOKEN_MARK);
      expect(text).not.toContain(CLIENT_SECRET);
      for (const v of verifiers) expect(text).not.toContain(v);
    }
    const files = filesUnder(root).filter((f) => f !== storeFile());
    expect(files).toContain(join(root, 'snapshot.json'));
    expect(files.some((f) => f.includes(join('.cache', 'mcp-smart', 'tool-lists')))).toBe(true);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      expect(text, f).not.toContain(TOKEN_MARK);
      expect(text, f).not.toContain(CLIENT_SECRET);
      for (const v of verifiers) expect(text, f).not.toContain(v);
    }
    for (const v of verifiers) expect(readFileSync(storeFile(), 'utf8')).not.toContain(v);
    // The store does hold the tokens (that is its job), and nothing else mentions them.
    expect(readFileSync(storeFile(), 'utf8')).toContain(TOKEN_MARK);
  });
});
