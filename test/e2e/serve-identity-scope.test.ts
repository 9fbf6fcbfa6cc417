// serve.auth rules reach a server's prompts and resources through the server (a REAL OpenID provider in-process, the
// built CLI over HTTP, two real fixture servers behind): a group whose rule refuses every tool of a server (`conf.*`)
// lists none of its prompts, resources or templates, and reading, getting, subscribing to or completing one is a
// JSON-RPC error naming the rule; what the rule does not hide (tiny's, of which it refuses two tools only) stays
// listed and readable. Another user, outside the group, lists and reads everything; 2025 and 2026-07-28 clients alike.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { startIssuer, type Issuer, type IssuerClient } from '../helpers/oidc-issuer.js';
import { node, sandbox, startServeHttp, textOf, type Sandbox, type StartedServe } from './serve-harness.js';

const TIMEOUT_MS = 120_000;
const ALICE: IssuerClient = { id: 'alice', secret: 'alice-secret-0123456789abcdef0123', groups: ['admins'] };
const BOB: IssuerClient = { id: 'bob', secret: 'bob-secret-0123456789abcdef012345', groups: ['readers'] };
const RULE = 'serve.auth.groups.readers.excludeTools';

let box: Sandbox;
let issuer: Issuer;
let serve: StartedServe;
const clients: Client[] = [];

beforeAll(async () => {
  box = await sandbox('serve-identity-scope');
  issuer = await startIssuer([ALICE, BOB]);
  const config = join(box.dir, 'mcp-smart.config.json');
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: {
        tiny: node(fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')),
        conf: node(fixture('servers', 'conformance-server.mjs')),
        vault: node(fixture('servers', 'announce-server.mjs'), '--name', 'vault'),
        open: node(fixture('servers', 'announce-server.mjs'), '--name', 'open'),
      },
      serve: {
        auth: {
          issuer: issuer.url,
          scopes: ['mcp'],
          groups: { readers: { excludeTools: ['conf.*', 'v*.*', 'tiny.delete_*', 'tiny.create_note'] } },
        },
      },
    }),
  );
  serve = await startServeHttp(box.env, ['--config', config, '--mode', 'tools', '--no-learn']);
}, TIMEOUT_MS);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await serve?.stop();
  await issuer?.close();
  await box?.remove();
});

async function connect(who: IssuerClient, modern: boolean): Promise<Client> {
  const token = await issuer.token(who, serve.url, 'mcp');
  const client = new Client(
    { name: 'e2e-identity-scope', version: '1' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(serve.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

/** What a client lists: prompt names, resource uris, template uris. */
async function listed(client: Client): Promise<{ prompts: string[]; resources: string[]; templates: string[] }> {
  const prompts = (await client.listPrompts()).prompts.map((p) => p.name).sort();
  const resources = (await client.listResources()).resources.map((r) => r.uri).sort();
  const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate).sort();
  return { prompts, resources, templates };
}

const message = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'answered',
    (e: Error) => e.message,
  );

describe('serve.auth and the prompts and resources of the servers behind', () => {
  for (const modern of [false, true]) {
    it(
      `${modern ? '2026-07-28' : '2025-11-25'}: a group refused every tool of a server neither lists nor reaches its prompts and resources`,
      async () => {
        const alice = await connect(ALICE, modern);
        const bob = await connect(BOB, modern);
        const all = await listed(alice);
        // Both servers' prompts and resources reach a caller no rule refuses.
        expect(all.prompts).toEqual(expect.arrayContaining(['summarize_notes', 'test_simple_prompt']));
        expect(all.resources).toEqual(
          expect.arrayContaining(['notes://index', 'test://static-text', 'vault://news', 'open://news']),
        );
        expect(all.templates).toEqual(['notes://note/{id}', 'test://template/{id}/data']);
        expect(await alice.readResource({ uri: 'test://static-text' })).toMatchObject({
          contents: [{ uri: 'test://static-text' }],
        });
        // Bob's group refuses all of conf: none of it is listed; tiny (two tools refused) is listed as before.
        const mine = await listed(bob);
        expect(mine.prompts).toEqual(all.prompts.filter((p) => p === 'summarize_notes'));
        expect(mine.resources).toEqual(['notes://index', 'open://news']);
        expect(mine.templates).toEqual(['notes://note/{id}']);
        // Reaching it anyway is an error naming the rule, whichever way it is asked.
        const refusals = await Promise.all([
          message(bob.readResource({ uri: 'test://static-text' })),
          message(bob.readResource({ uri: 'test://template/7/data' })),
          message(bob.getPrompt({ name: 'test_simple_prompt' })),
          message(
            bob.complete({
              ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
              argument: { name: 'arg1', value: 'a' },
            }),
          ),
        ]);
        // 2025 has resources/subscribe (2026-07-28 has no such method: subscriptions/listen).
        if (!modern) refusals.push(await message(bob.subscribeResource({ uri: 'test://watched-resource' })));
        expect(refusals).toHaveLength(modern ? 4 : 5);
        for (const text of refusals) {
          expect(text).toContain('belongs to server "conf", which');
          expect(text).toContain(`${RULE} in `);
        }
        expect(refusals[0]).toContain('resource "test://static-text"');
        expect(refusals[2]).toContain('prompt "test_simple_prompt"');
        // The same caller reaches what the rule leaves it: the call goes to tiny (whose fixture does not implement
        // reads, so its own error comes back, not ours).
        expect(await message(bob.readResource({ uri: 'notes://index' }))).not.toContain(RULE);
      },
      TIMEOUT_MS,
    );
  }

  it(
    "a 2025 session hears a server's notifications outside calls only when its caller's rules do not hide that server",
    async () => {
      const heard = async (who: IssuerClient): Promise<{ client: Client; got: string[] }> => {
        const client = await connect(who, false);
        const got: string[] = [];
        client.setNotificationHandler('notifications/resources/updated', (n) => void got.push(n.params.uri));
        client.setNotificationHandler('notifications/message', (n) => void got.push(String(n.params.data)));
        return { client, got };
      };
      const alice = await heard(ALICE);
      const bob = await heard(BOB);
      const named = async (c: Client, server: string): Promise<string> => {
        const tools = (await c.listTools()).tools;
        return tools.find((t) => t.description === `Announces news of ${server}.`)!.name;
      };
      expect(textOf(await alice.client.callTool({ name: await named(alice.client, 'vault'), arguments: {} }))).toBe(
        'announced vault',
      );
      expect(await named(bob.client, 'open')).toBeDefined();
      expect(textOf(await bob.client.callTool({ name: await named(bob.client, 'open'), arguments: {} }))).toBe(
        'announced open',
      );
      // serve relays each server's notifications in the order they came: once open's reached Bob, vault's (sent
      // before them) would have too.
      const deadline = Date.now() + 30_000;
      while ((!bob.got.includes('news of open') || alice.got.length < 4) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(alice.got).toEqual(['vault://news', 'news of vault', 'open://news', 'news of open']);
      expect(bob.got).toEqual(['open://news', 'news of open']);
    },
    TIMEOUT_MS,
  );
});

describe('resources/updated for a 2026-07-28 client over HTTP', () => {
  it(
    'reaches the subscriptions/listen stream that named the uri (it was acknowledged and never sent)',
    async () => {
      const alice = await connect(ALICE, true);
      const got: string[] = [];
      alice.setNotificationHandler('notifications/resources/updated', (n) => void got.push(n.params.uri));
      const sub = await alice.listen({ resourceSubscriptions: ['open://news'] });
      expect(sub.honoredFilter.resourceSubscriptions).toEqual(['open://news']);
      const announce = (await alice.listTools()).tools.find((t) => t.description === 'Announces news of open.')!;
      expect(textOf(await alice.callTool({ name: announce.name, arguments: {} }))).toBe('announced open');
      const deadline = Date.now() + 30_000;
      while (got.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(got).toEqual(['open://news']);
      await sub.close();
    },
    TIMEOUT_MS,
  );
});
