// `serve --transport http` as an OAuth 2.1 protected resource, with a REAL OpenID provider in-process (oidc-provider,
// client_credentials, JWT access tokens for a resource indicator) and the built CLI in front of a real fixture server:
// the metadata document and the 401 pointer to it; a valid token's subject in the learned row and the audit log;
// another audience, an expired token, another issuer (same signing key) → 401; a missing scope → 403; a group whose
// serve.auth filter refuses a tool does not see it in tools/list and calling it is an error result naming the rule;
// a 2025 session answers only the subject that opened it (another subject's token with its id: 404).
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { signingKey, startIssuer, type Issuer, type IssuerClient } from '../helpers/oidc-issuer.js';
import { userLabel } from '../../src/core/session/users.js';
import { PG_PASSWORD, startPostgres, type PgServer } from '../helpers/postgres.js';
import { node, sandbox, startServeHttp, textOf, type Sandbox, type StartedServe } from './serve-harness.js';

const TIMEOUT_MS = 120_000;
const ALICE: IssuerClient = { id: 'alice', secret: 'alice-secret-0123456789abcdef0123', groups: ['admins'] };
const BOB: IssuerClient = { id: 'bob', secret: 'bob-secret-0123456789abcdef012345', groups: ['readers'] };
const BRIEF: IssuerClient = { id: 'brief', secret: 'brief-secret-0123456789abcdef0123', ttlS: 3 };

let box: Sandbox;
let issuer: Issuer;
let impostor: Issuer;
let serve: StartedServe;
let storeFile: string;
let auditFile: string;
let config: string;

beforeAll(async () => {
  box = await sandbox('serve-identity');
  const key = await signingKey();
  issuer = await startIssuer([ALICE, BOB, BRIEF], { key });
  // Another issuer signing with the very same key: only the `iss` check tells its tokens apart.
  impostor = await startIssuer([ALICE], { key });
  config = join(box.dir, 'mcp-smart.config.json');
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: {
        tiny: node(fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')),
      },
      serve: {
        auth: {
          issuer: issuer.url,
          scopes: ['mcp'],
          groups: { readers: { excludeTools: ['tiny.delete_*', 'tiny.create_note'] } },
        },
      },
    }),
  );
  storeFile = join(box.dir, 'usage.json');
  auditFile = join(box.dir, 'audit.jsonl');
  serve = await startServeHttp(box.env, [
    '--config',
    config,
    '--mode',
    'tools',
    '--store',
    storeFile,
    '--audit-log',
    auditFile,
  ]);
}, TIMEOUT_MS);

afterAll(async () => {
  await serve?.stop();
  await issuer?.close();
  await impostor?.close();
  await box?.remove();
});

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** One raw initialize with this Authorization header (or none): status, WWW-Authenticate, body. */
async function post(token?: string): Promise<{ status: number; challenge: string | null; body: string }> {
  const res = await fetch(serve.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(INITIALIZE),
  });
  return { status: res.status, challenge: res.headers.get('www-authenticate'), body: await res.text() };
}

/** An SDK client of `url` sending this token; `modern`: the 2026-07-28 era (stateless, no initialize). */
async function connect(token: string, url = serve.url, modern = false): Promise<Client> {
  const client = new Client(
    { name: 'e2e-identity', version: '1' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return client;
}

describe('serve --transport http with serve.auth (a real OpenID provider)', () => {
  it(
    'answers a request without a token 401 pointing at its protected-resource metadata, which names the issuer',
    async () => {
      const origin = new URL(serve.url).origin;
      const metadataUrl = `${origin}/.well-known/oauth-protected-resource/mcp`;
      const answer = await post();
      expect(answer.status).toBe(401);
      expect(answer.challenge).toBe(`Bearer resource_metadata="${metadataUrl}", scope="mcp"`);
      for (const url of [metadataUrl, `${origin}/.well-known/oauth-protected-resource`]) {
        const doc = await fetch(url);
        expect(doc.status).toBe(200);
        expect(await doc.json()).toEqual({
          resource: serve.url,
          authorization_servers: [issuer.url],
          scopes_supported: ['mcp'],
          bearer_methods_supported: ['header'],
          resource_name: 'mcp-smart',
        });
      }
    },
    TIMEOUT_MS,
  );

  it(
    'refuses a token for another audience, an expired one and one of another issuer (401), and one without the scope (403)',
    async () => {
      const other = await post(await issuer.token(ALICE, 'http://127.0.0.1:1/mcp', 'mcp'));
      expect(other.status).toBe(401);
      expect(other.challenge).toContain('error="invalid_token"');
      expect(other.challenge).toContain('resource_metadata=');

      const brief = await issuer.token(BRIEF, serve.url, 'mcp');
      // Valid now (the same token is accepted), refused once its three-second lifetime is over.
      expect((await post(brief)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 4100));
      const expired = await post(brief);
      expect(expired.status).toBe(401);
      expect(expired.challenge).toContain('error="invalid_token"');

      const foreign = await post(await impostor.token(ALICE, serve.url, 'mcp'));
      expect(foreign.status).toBe(401);
      expect(foreign.challenge).toContain('error="invalid_token"');

      const narrow = await post(await issuer.token(ALICE, serve.url, 'other'));
      expect(narrow.status).toBe(403);
      expect(narrow.challenge).toContain('error="insufficient_scope"');
      expect(narrow.challenge).toContain('scope="mcp"');
    },
    TIMEOUT_MS,
  );

  it(
    "a 2025 session is bound to the subject that opened it: another subject's token with its Mcp-Session-Id gets 404",
    async () => {
      const send = async (token: string, session: string | undefined, body?: object, method = 'POST') => {
        const res = await fetch(serve.url, {
          method,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${token}`,
            'mcp-protocol-version': '2025-11-25',
            ...(session ? { 'mcp-session-id': session } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return { status: res.status, session: res.headers.get('mcp-session-id'), text: await res.text() };
      };
      const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
      const opened = await send(await issuer.token(ALICE, serve.url, 'mcp'), undefined, INITIALIZE);
      expect(opened.status).toBe(200);
      const id = opened.session!;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const alice = await issuer.token(ALICE, serve.url, 'mcp');
      const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
      expect((await send(alice, id, initialized)).status).toBe(202);

      // Bob holds a valid token and Alice's session id: his request, his GET stream and his DELETE find nothing.
      const bob = await issuer.token(BOB, serve.url, 'mcp');
      const stolen = await send(bob, id, list);
      expect(stolen.status).toBe(404);
      expect(JSON.parse(stolen.text)).toEqual({
        jsonrpc: '2.0',
        error: { code: -32001, message: 'Session not found (closed, or idle too long): initialize again' },
        id: 2,
      });
      expect((await send(bob, id, undefined, 'GET')).status).toBe(404);
      expect((await send(bob, id, undefined, 'DELETE')).status).toBe(404);
      // The session is still Alice's, with any token of hers (a fresh one too); her DELETE ends it.
      const mine = await send(await issuer.token(ALICE, serve.url, 'mcp'), id, list);
      expect(mine.status).toBe(200);
      expect(mine.text).toContain('"search_notes"');
      expect((await send(alice, id, undefined, 'DELETE')).status).toBe(200);
      expect((await send(alice, id, list)).status).toBe(404);
    },
    TIMEOUT_MS,
  );

  it(
    "serves each caller what their group may use; records the caller's subject in the learned row and the audit log",
    async () => {
      const aliceToken = await issuer.token(ALICE, serve.url, 'mcp');
      const bobToken = await issuer.token(BOB, serve.url, 'mcp');
      const alice = await connect(aliceToken);
      const bob = await connect(bobToken);
      try {
        const aliceTools = (await alice.listTools()).tools.map((t) => t.name).sort();
        const bobTools = (await bob.listTools()).tools.map((t) => t.name).sort();
        expect(aliceTools).toEqual(['create_note', 'current_time', 'delete_note', 'echo', 'search_notes']);
        expect(bobTools).toEqual(['current_time', 'echo', 'search_notes']);

        const echoed = await alice.callTool({ name: 'echo', arguments: { message: 'planted-value-7731' } });
        expect(echoed.isError).toBeFalsy();
        const refused = await bob.callTool({ name: 'delete_note', arguments: { id: 'n1' } });
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toContain('serve.auth.groups.readers.excludeTools');
        // Alice's group has no filter: the same tool is hers to call.
        const deleted = await alice.callTool({ name: 'delete_note', arguments: { id: 'n1' } });
        expect(deleted.isError).toBeFalsy();
      } finally {
        await alice.close();
        await bob.close();
      }
      // SIGTERM: 143 (CONTRACT), after the last learned calls and audit lines were written.
      expect(await serve.stop()).toBe(143);

      const store = JSON.parse(await readFile(storeFile, 'utf8')) as {
        tools: Record<string, { success: number; failure: number }>;
        users: Record<string, Record<string, { success: number; failure: number }>>;
      };
      // Two calls were forwarded (echo and delete_note, both Alice's); Bob's refused call reached no server.
      expect(store.tools['tiny.echo']?.success).toBe(1);
      expect(store.tools['tiny.delete_note']?.success).toBe(1);
      expect(Object.keys(store.users)).toEqual([userLabel('alice', 'hashed')]);
      expect(store.users[userLabel('alice', 'hashed')]).toMatchObject({
        'tiny.echo': { success: 1, failure: 0 },
        'tiny.delete_note': { success: 1, failure: 0 },
      });

      const text = await readFile(auditFile, 'utf8');
      expect((await stat(auditFile)).mode & 0o777).toBe(0o600);
      const lines = text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.map((l) => [l.subject, l.tool, l.outcome, l.rule ?? null, l.arguments])).toEqual([
        ['alice', 'echo', 'ok', null, ['message']],
        ['bob', 'delete_note', 'refused', 'serve.auth.groups.readers.excludeTools', ['id']],
        ['alice', 'delete_note', 'ok', null, ['id']],
      ]);
      expect(lines[1]!.groups).toEqual(['readers']);
      for (const l of lines) expect(typeof l.durationMs).toBe('number');
      // Names only: no argument value, no token.
      expect(text).not.toContain('planted-value-7731');
      expect(text).not.toContain(aliceToken);
      expect(text).not.toContain(bobToken);
      expect(serve.stderr()).not.toContain(aliceToken.slice(-20));
    },
    TIMEOUT_MS,
  );
});

describe('meta mode with a PostgreSQL store: find_tool, list_tools and call_tool per caller', () => {
  let pg: PgServer | undefined;
  afterAll(async () => pg?.stop());

  it(
    "a 2026-07-28 caller's find_tool and list_tools leave out what their group may not use, call_tool refuses it; each subject's calls are their own rows",
    async () => {
      pg = await startPostgres();
      const db = 'identity';
      const meta = await startServeHttp({ ...box.env, PGPASSWORD: PG_PASSWORD }, [
        '--config',
        config,
        '--mode',
        'meta',
        '--store',
        await pg.createDatabase(db),
      ]);
      try {
        const alice = await connect(await issuer.token(ALICE, meta.url, 'mcp'), meta.url);
        const bob = await connect(await issuer.token(BOB, meta.url, 'mcp'), meta.url, true);
        try {
          const find = { name: 'find_tool', arguments: { intent: 'delete a note', k: 5 } };
          // The filter is what keeps it from Bob: the same search finds it for Alice.
          expect(textOf(await alice.callTool(find))).toContain('tiny.delete_note');
          const bobFound = textOf(await bob.callTool(find));
          expect(bobFound).not.toContain('tiny.delete_note');
          expect(bobFound).toContain('tiny.');
          expect(textOf(await alice.callTool({ name: 'list_tools', arguments: {} }))).toContain('tiny.create_note');
          const bobList = textOf(await bob.callTool({ name: 'list_tools', arguments: {} }));
          expect(bobList).not.toContain('tiny.create_note');
          expect(bobList).not.toContain('tiny.delete_note');
          expect(bobList).toContain('tiny.echo');

          const refused = await bob.callTool({
            name: 'call_tool',
            arguments: { name: 'tiny.delete_note', arguments: { id: 'n1' } },
          });
          expect(refused.isError).toBe(true);
          expect(textOf(refused)).toContain('serve.auth.groups.readers.excludeTools');
          for (const client of [alice, bob]) {
            const r = await client.callTool({
              name: 'call_tool',
              arguments: { name: 'tiny.echo', arguments: { message: 'hi' } },
            });
            expect(r.isError).toBeFalsy();
          }
          expect(
            (await alice.callTool({ name: 'call_tool', arguments: { name: 'tiny.current_time', arguments: {} } }))
              .isError,
          ).toBeFalsy();
        } finally {
          await alice.close();
          await bob.close();
        }
      } finally {
        expect(await meta.stop()).toBe(143);
      }
      const rows = await pg.query(
        db,
        'SELECT user_label, tool_id, success, failure FROM mcp_smart_user_tools ORDER BY tool_id, user_label',
      );
      const [a, b] = [userLabel('alice', 'hashed'), userLabel('bob', 'hashed')];
      const expected = [
        { user_label: a, tool_id: 'tiny.current_time', success: 1, failure: 0 },
        ...[
          { user_label: a, tool_id: 'tiny.echo', success: 1, failure: 0 },
          { user_label: b, tool_id: 'tiny.echo', success: 1, failure: 0 },
        ].sort((x, y) => x.user_label.localeCompare(y.user_label)),
      ];
      expect(rows.map((r) => ({ ...r, success: Number(r.success), failure: Number(r.failure) }))).toEqual(expected);
      const totals = await pg.query(db, "SELECT success FROM mcp_smart_tools WHERE tool_id = 'tiny.echo'");
      expect(Number(totals[0]?.success)).toBe(2);
    },
    TIMEOUT_MS,
  );
});
