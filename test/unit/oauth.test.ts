// OAuth pieces without a server: the `oauth` block of a server entry, the token store file, the loopback
// redirect listener (state checked, one-shot), and when the provider applies and what it refuses to do.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadServerDefinitions } from '../../src/core/config/index.js';
import { createOAuthProvider } from '../../src/core/connect/oauth/provider.js';
import { startLoopbackListener } from '../../src/core/connect/oauth/loopback.js';
import { TokenStore, tokenStoreKey } from '../../src/core/connect/oauth/token-store.js';
import { secretValues } from '../../src/core/connect/session.js';
import { SmartError } from '../../src/process/errors.js';
import type { ServerDefinition } from '../../src/core/types.js';
import { CONFIGS, request } from '../helpers/config-request.js';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-smart-oauth-unit-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const remote = (extra: Partial<ServerDefinition> = {}): ServerDefinition => ({
  name: 'corp',
  transport: 'http',
  url: 'https://mcp.corp.example/mcp',
  enabled: true,
  source: '--url',
  scope: 'adhoc',
  ...extra,
});

describe('the oauth block of a server entry', () => {
  it('reads clientId, scopes and an expanded clientSecret, which counts as a secret', async () => {
    const r = await loadServerDefinitions(
      request({ cwd: CONFIGS('oauth-client'), env: { CORP_CLIENT_SECRET: 's3cret-value' } }),
    );
    const corp = r.servers.find((s) => s.name === 'corp');
    expect(corp?.oauth).toEqual({ clientId: 'mcp-smart-cli', clientSecret: 's3cret-value', scopes: ['tools:read'] });
    expect(secretValues(corp as ServerDefinition)).toContain('s3cret-value');
  });

  it('an unknown key is a config error naming the key path', async () => {
    const err = await loadServerDefinitions(request({ cwd: CONFIGS('oauth-unknown-key') })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SmartError);
    expect((err as SmartError).message).toBe(
      `${CONFIGS('oauth-unknown-key', '.mcp.json')}: mcpServers.corp.oauth.client_secret: unknown key. Expected one of: clientId, clientSecret, scopes, clientMetadataUrl.`,
    );
  });
});

describe('token store', () => {
  it('is written with mode 0600 in a 0700 folder, and parallel updates are all kept', async () => {
    const file = join(scratch, 'cfg', 'oauth-tokens.json');
    const store = new TokenStore(file);
    await Promise.all(
      ['a', 'b', 'c', 'd'].map((n) =>
        store.update(tokenStoreKey(`https://${n}.example/mcp`, 'dynamic'), () => ({
          url: `https://${n}.example/mcp`,
          client: 'dynamic',
          tokens: { access_token: `at-${n}`, token_type: 'bearer' },
        })),
      ),
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(scratch, 'cfg')).mode & 0o777).toBe(0o700);
    expect(Object.keys(await store.list())).toHaveLength(4);
    expect(await store.remove((e) => e.url === 'https://b.example/mcp')).toBe(1);
    expect((await store.read(tokenStoreKey('https://b.example/mcp', 'dynamic'))) ?? null).toBeNull();
    expect((await store.read(tokenStoreKey('https://c.example/mcp', 'dynamic')))?.tokens?.access_token).toBe('at-c');
  });

  it('a damaged store is an error naming the file that never quotes its content', async () => {
    const file = join(scratch, 'damaged.json');
    writeFileSync(file, '{"format": "mcp-smart/oauth-tokens@1", "entries": {"x": {"tokens": "at-SECRET-VALUE"');
    const err = await new TokenStore(file).read('x').catch((e: unknown) => e);
    expect((err as SmartError).code).toBe('FILE_PARSE');
    expect((err as SmartError).message).toBe(
      `${file} is not valid JSON: the token store is damaged; delete it and run \`mcp-smart login\` again`,
    );
  });
});

describe('loopback redirect listener', () => {
  it('refuses a wrong state (400) and keeps waiting; takes the right one; then closes', async () => {
    const l = await startLoopbackListener();
    expect(l.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const code = l.waitForCode('good-state', { timeoutMs: 10_000, server: 'corp' });
    const forged = await fetch(`${l.redirectUrl}?code=evil&state=other`);
    expect(forged.status).toBe(400);
    expect((await fetch(l.redirectUrl.replace('/callback', '/elsewhere'))).status).toBe(404);
    const ok = await fetch(`${l.redirectUrl}?code=the-code&state=good-state`);
    expect(ok.status).toBe(200);
    await expect(code).resolves.toBe('the-code');
    // One-shot: a replay of the same redirect is refused.
    expect((await fetch(`${l.redirectUrl}?code=the-code&state=good-state`)).status).toBe(400);
    await l.close();
  });

  it('an error from the authorization server, and a timeout, are AUTH_FAILED with the reason', async () => {
    const l = await startLoopbackListener();
    const denied = expect(l.waitForCode('s1', { timeoutMs: 10_000, server: 'corp' })).rejects.toThrow(
      'authorization failed: the authorization server answered access_denied (user said no)',
    );
    await fetch(`${l.redirectUrl}?error=access_denied&error_description=user+said+no&state=s1`);
    await denied;
    await expect(l.waitForCode('s2', { timeoutMs: 50, server: 'corp' })).rejects.toThrow(
      'authorization failed: no authorization for corp arrived at /callback within 50 ms',
    );
    await l.close();
  });

  it('takes the preferred port again when it is free (a registered redirect URI keeps matching)', async () => {
    const first = await startLoopbackListener();
    const port = Number(new URL(first.redirectUrl).port);
    await first.close();
    const again = await startLoopbackListener(port);
    expect(again.redirectUrl).toBe(first.redirectUrl);
    await again.close();
  });
});

describe('OAuth provider', () => {
  const storeFile = join(scratch, 'provider', 'oauth-tokens.json');

  it('is not used for stdio servers, without OAuth options, or when the user sends an Authorization header', async () => {
    expect(await createOAuthProvider(remote(), undefined)).toBeUndefined();
    expect(
      await createOAuthProvider(remote({ transport: 'stdio', url: undefined, command: 'x' }), { storeFile }),
    ).toBeUndefined();
    expect(
      await createOAuthProvider(remote({ headers: { authorization: 'Bearer ci-token' } }), { storeFile }),
    ).toBeUndefined();
  });

  it('without a browser it never registers a client or redirects: it asks for `mcp-smart login <server>`', async () => {
    const p = await createOAuthProvider(remote(), { storeFile });
    expect(() => p?.clientInformation()).toThrow('needs authorization (no stored tokens): run `mcp-smart login corp`');
    await expect(p?.redirectToAuthorization(new URL('https://as.example/authorize'))).rejects.toThrow(
      'run `mcp-smart login corp`',
    );
    expect(existsSync(storeFile)).toBe(false);
    await p?.close();
  });

  it('a configured client is used as given; its secret is redacted and never stored', async () => {
    const def = remote({ oauth: { clientId: 'cli', clientSecret: 'configured-secret-1' } });
    const p = await createOAuthProvider(def, { storeFile });
    expect(p?.clientInformation()).toEqual({ client_id: 'cli', client_secret: 'configured-secret-1' });
    await p?.saveClientInformation({ client_id: 'cli', client_secret: 'configured-secret-1', issuer: 'https://as/' });
    expect(p?.secrets()).toContain('configured-secret-1');
    await p?.saveTokens({ access_token: 'access-123456', token_type: 'bearer' });
    const text = readFileSync(storeFile, 'utf8');
    expect(text).toContain('access-123456');
    expect(text).not.toContain('configured-secret-1');
    expect(p?.secrets()).toContain('access-123456');
    await p?.close();
  });

  it('a long-running provider picks up tokens another process stored, and keeps them when its own are refused', async () => {
    const file = join(scratch, 'shared', 'oauth-tokens.json');
    const def = remote({ url: 'https://shared.example/mcp' });
    const key = tokenStoreKey('https://shared.example/mcp', 'dynamic');
    const other = new TokenStore(file);
    const put = (access: string): Promise<void> =>
      other.update(key, () => ({
        url: 'https://shared.example/mcp',
        client: 'dynamic',
        tokens: { access_token: access, token_type: 'bearer', refresh_token: `r-${access}` },
      }));
    await put('first-token');
    const p = await createOAuthProvider(def, { storeFile: file });
    expect((await p?.tokens())?.access_token).toBe('first-token');
    await new Promise((r) => setTimeout(r, 20)); // a later mtime
    await put('from-another-login');
    expect((await p?.tokens())?.access_token).toBe('from-another-login');
    // Its tokens were refused, but the store already holds newer ones: they are adopted, not deleted.
    await new Promise((r) => setTimeout(r, 20));
    await put('newest');
    await p?.invalidateCredentials('tokens');
    expect((await other.read(key))?.tokens?.access_token).toBe('newest');
    expect((await p?.tokens())?.access_token).toBe('newest');
    // When the store holds the very tokens that were refused, they are forgotten.
    await p?.invalidateCredentials('tokens');
    expect((await other.read(key))?.tokens).toBeUndefined();
    await p?.close();
  });
});
