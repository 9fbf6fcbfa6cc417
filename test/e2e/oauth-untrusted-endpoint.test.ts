// A server's OAuth metadata is untrusted input: `login` must hand only https: (or http: on loopback)
// authorization URLs to the opener. A real HTTP server on 127.0.0.1 serves metadata whose
// authorization_endpoint uses another scheme, or names another issuer; the opener is a recorder script that logs
// every URL it gets.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../helpers/paths.js';
import { sandboxEnv, spawnCli } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

requireBuild();

let server: Server;
let base = '';
let endpoint = '';
/** The issuer the metadata names; the server's own URL unless a test says otherwise. */
let issuer: string | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const path = (req.url ?? '').split('?')[0];
    if (path === '/mcp')
      return json(
        401,
        { error: 'unauthorized' },
        {
          'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
        },
      );
    if (path?.startsWith('/.well-known/oauth-protected-resource'))
      return json(200, { resource: `${base}/mcp`, authorization_servers: [base] });
    if (path?.startsWith('/.well-known/oauth-authorization-server') || path?.startsWith('/.well-known/openid'))
      return json(200, {
        issuer: issuer ?? base,
        authorization_endpoint: endpoint,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      });
    if (path === '/register') {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () =>
        json(201, { ...(JSON.parse(body || '{}') as object), client_id: 'fixture-client', client_id_issued_at: 1 }),
      );
      return;
    }
    json(404, { error: 'not found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** `login remote` against the fixture with `endpoint` as its authorization endpoint; what the opener was given. */
async function login(authorizationEndpoint: string): Promise<{ code: number | null; output: string; opened: string }> {
  endpoint = authorizationEndpoint;
  const dir = tempDir('mcp-smart-oauth-scheme-');
  const log = join(dir, 'opened.log');
  const recorder = join(dir, 'recorder.mjs');
  writeFileSync(
    recorder,
    `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(log)}, process.argv.slice(2).join(' ') + '\\n');\n`,
  );
  const config = join(dir, 'servers.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { remote: { type: 'http', url: `${base}/mcp` } } }));
  const opener = `"${process.execPath}" "${recorder}"`;
  const run = await spawnCli(['--config', config, '--auth-open', opener, '--timeout', '3000', 'login', 'remote'], {
    cwd: dir,
    env: sandboxEnv(dir),
    timeoutMs: 30_000,
  });
  return { code: run.code, output: run.stdout + run.stderr, opened: existsSync(log) ? readFileSync(log, 'utf8') : '' };
}

describe('login with an authorization endpoint of an unsafe scheme', () => {
  const unsafe = [
    'file:///etc/passwd',
    'smb://attacker.example/share',
    'ms-msdt:/id',
    'http://attacker.example/authorize',
  ];
  for (const url of unsafe) {
    it(`refuses ${url} and never runs the opener`, async () => {
      const run = await login(url);
      expect(run.code).toBe(3);
      expect(run.output).toMatch(/authorization endpoint is a [a-z-]+: URL; only https:/);
      expect(run.opened).toBe('');
    });
  }

  it('refuses metadata that names another issuer (RFC 8414 §3.3) and never runs the opener', async () => {
    issuer = 'https://attacker.example';
    try {
      const run = await login(`${base}/authorize`);
      expect(run.code).toBe(3);
      expect(run.output).toMatch(/Issuer mismatch in authorization server metadata \(RFC 8414 §3\.3\)/);
      expect(run.output).toContain('https://attacker.example');
      expect(run.opened).toBe('');
    } finally {
      issuer = undefined;
    }
  });

  it('still opens an http: endpoint on loopback (the control: the recorder does run)', async () => {
    const run = await login(`${base}/authorize`);
    expect(run.opened).toContain(`${base}/authorize?`);
  });
});
