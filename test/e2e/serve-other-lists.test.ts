// The prompt and resource lists reach serve's clients when they change, as the tool list does: a server's own
// prompts/list_changed and resources/list_changed (its tools unchanged) and a server that arrives after the first
// answer. Before, serve re-listed the server and told its clients nothing unless the tools changed, and a 2026-07-28
// client over HTTP never heard prompts or resources list_changed on its subscriptions/listen stream. Real processes:
// the built CLI over stdio and HTTP, fixture servers behind (announce-server.mjs's `grow`, a slow catalog-server.mjs),
// the SDK v2 client in both eras.
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { connectServeStdio, node, sandbox, startServeHttp, textOf, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 120_000;
/** The slow server answers its initialize this long after it was spawned. */
const SLOW_MS = 6_000;

let box: Sandbox;
let config: string;
beforeAll(async () => {
  box = await sandbox('other-lists');
  config = await box.config('servers.json', {
    garden: node(fixture('servers', 'announce-server.mjs'), '--name', 'garden'),
  });
});
afterAll(async () => box.remove());

/** A fresh cache and data folder per start. */
const envFor = (label: string): Record<string, string> => ({
  ...box.env,
  MCP_SMART_CACHE_DIR: join(box.dir, `cache-${label}`),
  MCP_SMART_DATA_DIR: join(box.dir, `data-${label}`),
});

/** An SDK v2 client pinned to the 2026-07-28 revision. */
const modernClient = (): Client =>
  new Client({ name: 'e2e-other-lists', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });

/** Counts each notification method the client hears. */
function heard(client: Client): Map<string, number> {
  const seen = new Map<string, number>();
  for (const method of [
    'notifications/tools/list_changed',
    'notifications/prompts/list_changed',
    'notifications/resources/list_changed',
  ] as const)
    client.setNotificationHandler(method, () => void seen.set(method, (seen.get(method) ?? 0) + 1));
  return seen;
}

async function until<T>(probe: () => T | undefined, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** serve's summary line on stderr: the start is over (lists taken, counts exact), and what it told clients with it. */
const SETTLED = /tools\/list holds \d+ tools \(/;

/**
 * Calls the garden server's `grow` through serve, once the start is over (what was heard so far is forgotten: a cold
 * start tells clients of the lists it takes), and waits until both lists changed were heard.
 */
async function growAndHear(client: Client, seen: Map<string, number>): Promise<void> {
  seen.clear();
  const grow = (await client.listTools()).tools.find(
    (t) => t.description === 'Adds a prompt and a resource to garden.',
  );
  expect(textOf(await client.callTool({ name: grow!.name, arguments: {} }))).toBe('garden grew to 1');
  await until(() =>
    seen.has('notifications/prompts/list_changed') && seen.has('notifications/resources/list_changed') ? 1 : undefined,
  );
  expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['garden_1']);
  expect((await client.listResources()).resources.map((r) => r.uri).sort()).toEqual([
    'garden://grown/1',
    'garden://news',
  ]);
  // The tools did not change: no tools/list_changed.
  expect(seen.get('notifications/tools/list_changed')).toBeUndefined();
}

describe("a server's own prompts and resources list_changed", () => {
  it(
    'reach a 2025 client over stdio, and the lists it then takes hold the new prompt and resource',
    async () => {
      const serve = await connectServeStdio(envFor('stdio'), ['--config', config, '--mode', 'tools', '--no-learn']);
      try {
        const seen = heard(serve.client);
        expect((await serve.client.listPrompts()).prompts).toEqual([]);
        await serve.waitForStderr(SETTLED);
        await growAndHear(serve.client, seen);
      } finally {
        await serve.client.close();
      }
    },
    TIMEOUT_MS,
  );

  it(
    'reach a 2026-07-28 client over HTTP on its subscriptions/listen stream',
    async () => {
      const serve = await startServeHttp(envFor('http'), ['--config', config, '--mode', 'tools', '--no-learn']);
      const client = modernClient();
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
        const seen = heard(client);
        expect((await client.listPrompts()).prompts).toEqual([]);
        const sub = await client.listen({ promptsListChanged: true, resourcesListChanged: true });
        expect(sub.honoredFilter).toMatchObject({ promptsListChanged: true, resourcesListChanged: true });
        await serve.waitForStderr(SETTLED);
        await growAndHear(client, seen);
        await sub.close();
      } finally {
        await client.close().catch(() => undefined);
        await serve.stop();
      }
    },
    TIMEOUT_MS,
  );
});

describe('a server that arrives after the first answer', () => {
  // Over HTTP in tools mode serve answers once its servers listed; in meta mode it answers at once and starts them.
  it(
    "brings its prompts and resources to a 2026-07-28 client over HTTP: list_changed on the listen stream, then the slow server's prompts listed",
    async () => {
      const slow = await box.config('slow.json', {
        notes: node(
          fixture('servers', 'catalog-server.mjs'),
          fixture('servers', 'catalogs', 'tiny.json'),
          '--delay-ms',
          String(SLOW_MS),
        ),
      });
      const serve = await startServeHttp(envFor('late'), ['--config', slow, '--mode', 'meta', '--no-learn']);
      const client = modernClient();
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
        const seen = heard(client);
        const sub = await client.listen({ promptsListChanged: true, resourcesListChanged: true });
        expect(sub.honoredFilter).toMatchObject({ promptsListChanged: true, resourcesListChanged: true });
        // The first tools/list (the meta-tools) starts the servers behind.
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('find_tool');
        await until(
          () =>
            seen.has('notifications/prompts/list_changed') && seen.has('notifications/resources/list_changed')
              ? 1
              : undefined,
          SLOW_MS * 5,
        );
        expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0);
        await sub.close();
      } finally {
        await client.close().catch(() => undefined);
        await serve.stop();
      }
    },
    TIMEOUT_MS,
  );
});
