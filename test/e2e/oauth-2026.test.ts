// Authorization per MCP 2026-07-28, end to end: the built CLI's login against our OAuth fixture server (the SDK's
// auth router on 127.0.0.1) set up as a 2026 authorization server would be, with the headless "browser" that
// follows the redirects. Shown here: the authorization response's `iss` is checked (RFC 9207; the SDK v2 does it),
// a client ID metadata document is used instead of registering when the authorization server supports them,
// `application_type` is sent when mcp-smart registers itself, and credentials are bound to the issuer they were
// issued by: when the server's authorization server changes, nothing stored is presented to the new one and login
// registers there again.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture } from '../helpers/paths.js';
import { spawnCli, startHttpFixture, type SpawnRun } from '../helpers/spawn-cli.js';

const SERVER = fixture('servers', 'oauth-server.mjs');
const FOLLOWER = fixture('oauth', 'follow-redirects.mjs');
const DOCUMENT_URL = 'https://mcp-smart.example/oauth/client-metadata.json';
const OLD_ISSUER = 'https://old-as.example/';

if (!existsSync(join(BIN, '..', '..', 'dist', 'cli.js')))
  throw new Error('dist/ is missing: run `npm run build` first');

const children: ChildProcess[] = [];
let root = '';
let home = '';
let config = '';
const url: Record<string, string> = {};

const env = (): Record<string, string | undefined> => ({ PATH: process.env.PATH, HOME: home, NO_COLOR: '1' });
const authOpen = (): string => `"${process.execPath}" "${FOLLOWER}"`;
const cli = (args: string[]): Promise<SpawnRun> =>
  spawnCli(['--config', config, ...args], { cwd: root, env: env(), timeoutMs: 60_000 });
const admin = async <T>(server: string, path: string, method = 'GET'): Promise<T> =>
  (await (await fetch(new URL(path, url[server]), { method })).json()) as T;

interface Entry {
  url: string;
  clientInformation?: { client_id: string; issuer?: string; application_type?: string };
  registrations?: Record<string, { client_id: string; issuer?: string }>;
  tokens?: { access_token: string; refresh_token?: string; issuer?: string };
}
const storeFile = (): string => join(home, '.config', 'mcp-smart', 'oauth-tokens.json');
const readStore = (): { format: string; entries: Record<string, Entry> } =>
  JSON.parse(readFileSync(storeFile(), 'utf8')) as { format: string; entries: Record<string, Entry> };
const entryFor = (server: string): Entry | undefined =>
  Object.values(readStore().entries).find((e) => e.url === url[server]);
const issuerOf = (server: string): string => new URL('/', url[server]).href;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mcp-smart-oauth-2026-'));
  home = join(root, 'home');
  mkdirSync(home);
  url.plain = await startHttpFixture(SERVER, ['--iss', 'match'], children);
  url.cimd = await startHttpFixture(SERVER, ['--iss', 'match', '--cimd'], children);
  url.wrongiss = await startHttpFixture(SERVER, ['--iss', 'wrong'], children);
  url.noiss = await startHttpFixture(SERVER, ['--iss', 'missing'], children);
  config = join(root, 'mcp.json');
  // Every server is given the same client ID metadata document URL: only an authorization server that says it
  // supports such documents gets it.
  const oauth = { clientMetadataUrl: DOCUMENT_URL };
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: Object.fromEntries(Object.entries(url).map(([name, u]) => [name, { url: u, type: 'http', oauth }])),
    }),
  );
});

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('authorization per 2026-07-28 (e2e)', () => {
  it('registers itself (DCR) with application_type "native" where client ID metadata documents are not supported', async () => {
    const run = await cli(['--auth-open', authOpen(), 'login', 'plain']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('ok   plain  logged in; 5 tools');
    const registrations = await admin<{ application_type?: string; client_name?: string; redirect_uris: string[] }[]>(
      'plain',
      '/admin/registrations',
    );
    expect(registrations).toHaveLength(1);
    expect(registrations[0]).toMatchObject({ application_type: 'native', client_name: 'mcp-smart' });
    expect(registrations[0]?.redirect_uris[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    // The registration and the tokens are stamped with the issuer, and the registration is kept under it.
    const entry = entryFor('plain');
    expect(entry?.clientInformation?.issuer).toBe(issuerOf('plain'));
    expect(entry?.tokens?.issuer).toBe(issuerOf('plain'));
    expect(Object.keys(entry?.registrations ?? {})).toEqual([issuerOf('plain')]);
    expect(entry?.clientInformation?.client_id).not.toBe(DOCUMENT_URL);
  });

  it('uses the client ID metadata document instead of registering when the authorization server supports them', async () => {
    const run = await cli(['--auth-open', authOpen(), 'login', 'cimd']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('ok   cimd  logged in; 5 tools');
    expect(await admin<unknown[]>('cimd', '/admin/registrations')).toEqual([]);
    expect((await admin<{ registrations: number }>('cimd', '/admin/stats')).registrations).toBe(0);
    expect(await admin<string[]>('cimd', '/admin/authorized-clients')).toEqual([DOCUMENT_URL]);
    expect(entryFor('cimd')?.clientInformation).toEqual({ client_id: DOCUMENT_URL, issuer: issuerOf('cimd') });
  });

  it.each([
    ['wrongiss', 'names another issuer', '"https://attacker.example"'],
    ['noiss', 'carries none though the server says it sends one', 'undefined'],
  ])(
    'refuses an authorization response whose iss %s (%s): no code exchanged, nothing stored',
    async (server, _why, got) => {
      const run = await cli(['--auth-open', authOpen(), 'login', server]);
      expect(run.code).toBe(3);
      expect(run.stdout).toContain(
        `FAIL ${server}  authorization failed: Issuer mismatch in authorization response (RFC 9207): ` +
          `expected "${issuerOf(server)}", received ${got}`,
      );
      const stats = await admin<{ authorizations: number; codeExchanges: number }>(server, '/admin/stats');
      expect(stats).toMatchObject({ authorizations: 1, codeExchanges: 0 });
      expect(entryFor(server)?.tokens).toBeUndefined();
    },
  );

  it('credentials bound to another issuer are not presented: mcp-smart registers again and asks for a login', async () => {
    // As if the server's authorization server had been https://old-as.example/ when mcp-smart logged in.
    const doc = readStore();
    const [key, entry] = Object.entries(doc.entries).find(([, e]) => e.url === url.plain) ?? [];
    if (!key || !entry?.clientInformation || !entry.tokens) throw new Error('no stored login for plain');
    const oldClient = { ...entry.clientInformation, issuer: OLD_ISSUER };
    doc.entries[key] = {
      ...entry,
      clientInformation: oldClient,
      registrations: { [OLD_ISSUER]: oldClient },
      tokens: { ...entry.tokens, issuer: OLD_ISSUER },
    };
    writeFileSync(storeFile(), JSON.stringify(doc), { mode: 0o600 });
    await admin('plain', '/admin/expire-access-tokens', 'POST');

    const run = await cli(['--no-cache', '-s', 'plain', 'dump', '-o', join(root, 'snap.json')]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      `needs authorization (its authorization server changed to ${issuerOf('plain')}): run \`mcp-smart login plain\``,
    );
    // The refresh token issued by the old authorization server was not sent to this one; the client registered
    // with the old one was not presented here either: mcp-smart registered again (no browser is needed for that).
    expect((await admin<{ refreshes: number }>('plain', '/admin/stats')).refreshes).toBe(0);
    expect((await admin<unknown[]>('plain', '/admin/registrations')).length).toBe(2);
    expect(await admin<string[]>('plain', '/admin/authorized-clients')).toHaveLength(1);

    const login = await cli(['--auth-open', authOpen(), 'login', 'plain']);
    expect(login.code, login.stderr).toBe(0);
    // The login used that new registration: no third one.
    expect((await admin<unknown[]>('plain', '/admin/registrations')).length).toBe(2);
    const after = entryFor('plain');
    expect(after?.clientInformation?.issuer).toBe(issuerOf('plain'));
    expect(after?.clientInformation?.client_id).not.toBe(oldClient.client_id);
    expect(Object.keys(after?.registrations ?? {}).sort()).toEqual([issuerOf('plain'), OLD_ISSUER].sort());
    expect(after?.tokens?.issuer).toBe(issuerOf('plain'));
    const dump = await cli(['--no-cache', '-s', 'plain', 'dump', '-o', join(root, 'snap.json')]);
    expect(dump.code, dump.stderr).toBe(0);
  });
});
