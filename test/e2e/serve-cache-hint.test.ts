// serve's ttlMs / cacheScope on tools/list, prompts/list, resources/list, resources/templates/list and
// resources/read for 2026-07-28 clients, derived from the servers behind it (real processes: the modern SDK v2
// fixture with its own cache hints, the 2025 catalog fixture), over stdio and Streamable HTTP: the shortest TTL any
// server promised for that list and no longer than the tool-list cache keeps it, 0 as soon as a 2025 server with
// that list (which promises nothing) is behind, private when a server behind said private, is remote or was given
// environment values. A 2025 client's result carries neither field.
import { spawn } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture, requireBuild } from '../helpers/paths.js';
import { node, sandbox, startServeHttp, type Sandbox } from './serve-harness.js';

requireBuild();

const MODERN = fixture('servers', 'modern-server.mjs');
const TINY = [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')] as const;
// Every check here is on a list from ALL the servers behind: the first list waits until each has listed (an event),
// not at most serve's default 10 s, which a busy machine's fixture starts can pass (then a list comes out partial).
const READY = ['--first-list-wait', '50000'];
let box: Sandbox;

beforeAll(async () => {
  box = await sandbox('serve-cache-hint');
});
afterAll(async () => box.remove());

/** tools/list through a fresh serve over stdio with `servers`, as a 2026-07-28 client (or a 2025 one). */
async function listThroughServe(
  file: string,
  servers: Record<string, unknown>,
  modern = true,
): Promise<Record<string, unknown>> {
  const config = await box.config(file, servers as never);
  const client = new Client(
    { name: 'e2e-cache-hint', version: '1' },
    { versionNegotiation: { mode: modern ? { pin: '2026-07-28' } : 'legacy' } },
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', '--config', config, '--mode', 'tools', '--no-learn', '--no-cache', ...READY],
      env: box.env,
    }),
  );
  try {
    const result = (await client.listTools()) as unknown as Record<string, unknown>;
    expect((result.tools as unknown[]).length).toBeGreaterThan(0);
    return result;
  } finally {
    await client.close();
  }
}

describe('serve derives its tools/list cache hint from the servers behind it', () => {
  it('only a modern server that promised 60 s, public: serve promises 60 s, public', async () => {
    const r = await listThroughServe('a.json', { modern: node(MODERN, '--cache-hint', '60000:public') });
    expect([r.ttlMs, r.cacheScope]).toEqual([60000, 'public']);
  });

  it('the shortest promise wins, and one private server makes the list private', async () => {
    const r = await listThroughServe('b.json', {
      a: node(MODERN, '--cache-hint', '60000:public'),
      b: node(MODERN, '--cache-hint', '5000:private'),
    });
    expect([r.ttlMs, r.cacheScope]).toEqual([5000, 'private']);
  });

  it('a 2025 server behind promises nothing: ttlMs 0', async () => {
    const r = await listThroughServe('c.json', {
      modern: node(MODERN, '--cache-hint', '60000:public'),
      tiny: node(...TINY),
    });
    expect([r.ttlMs, r.cacheScope]).toEqual([0, 'public']);
  });

  it('a 2025 client gets neither field', async () => {
    const r = await listThroughServe(
      'd.json',
      { modern: node(MODERN, '--cache-hint', '60000:public'), tiny: node(...TINY) },
      false,
    );
    expect('ttlMs' in r || 'cacheScope' in r).toBe(false);
  });
});

/** The four other cacheable results a 2026-07-28 client gets from serve, as [ttlMs, cacheScope] pairs. */
async function otherHints(client: Client): Promise<Record<string, [unknown, unknown]>> {
  const pair = (r: unknown): [unknown, unknown] => {
    const o = r as Record<string, unknown>;
    return [o.ttlMs, o.cacheScope];
  };
  const prompts = await client.listPrompts();
  expect(prompts.prompts.some((p) => /greet$/.test(p.name))).toBe(true); // a_greet when two servers have it
  const resources = await client.listResources();
  expect(resources.resources.map((r) => r.uri)).toContain('modern://note');
  const templates = await client.listResourceTemplates();
  expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toContain('modern://notes/{id}');
  const read = await client.readResource({ uri: 'modern://note' });
  expect(read.contents[0]).toMatchObject({ text: 'read modern://note' });
  return { prompts: pair(prompts), resources: pair(resources), templates: pair(templates), read: pair(read) };
}

/** A 2026-07-28 client on a fresh stdio serve with `servers`; `check` runs with it connected. */
async function throughServeStdio(file: string, servers: Record<string, unknown>, check: (c: Client) => Promise<void>) {
  const config = await box.config(file, servers as never);
  const client = new Client(
    { name: 'e2e-cache-hint', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', '--config', config, '--mode', 'tools', '--no-learn', '--no-cache', ...READY],
      env: box.env,
    }),
  );
  try {
    await check(client);
  } finally {
    await client.close();
  }
}

describe('serve derives the prompts, resources and templates hints the same way, per list', () => {
  it('the shortest promise of each list, its own and not the tools list', async () => {
    await throughServeStdio(
      'lists-a.json',
      {
        a: node(MODERN, '--cache-hint', '60000:public', '--lists', '30000:public'),
        b: node(MODERN, '--cache-hint', '60000:public', '--lists', '10000:public'),
      },
      async (client) => {
        const tools = (await client.listTools()) as unknown as Record<string, unknown>;
        expect([tools.ttlMs, tools.cacheScope]).toEqual([60000, 'public']);
        expect(await otherHints(client)).toEqual({
          prompts: [10000, 'public'],
          resources: [10000, 'public'],
          templates: [10000, 'public'],
          // read from the server that lists modern://note first (a): its own promise
          read: [30000, 'public'],
        });
      },
    );
  });

  it('one private list makes that list private', async () => {
    await throughServeStdio(
      'lists-b.json',
      { a: node(MODERN, '--lists', '30000:private'), b: node(MODERN, '--lists', '60000:public') },
      async (client) => {
        expect(await otherHints(client)).toEqual({
          prompts: [30000, 'private'],
          resources: [30000, 'private'],
          templates: [30000, 'private'],
          read: [30000, 'private'],
        });
      },
    );
  });

  it('a 2025 server with prompts and resources promises nothing: 0 (public, it is local)', async () => {
    await throughServeStdio(
      'lists-f.json',
      { a: node(MODERN, '--lists', '30000:public'), tiny: node(...TINY) },
      async (client) => {
        expect(await otherHints(client)).toEqual({
          prompts: [0, 'public'],
          resources: [0, 'public'],
          templates: [0, 'public'],
          read: [30000, 'public'],
        });
      },
    );
  });

  it('a server started with environment values (a token) makes every list and its reads private', async () => {
    await throughServeStdio(
      'lists-c.json',
      { a: { ...node(MODERN, '--cache-hint', '60000:public', '--lists', '30000:public'), env: { API_TOKEN: 'x' } } },
      async (client) => {
        const tools = (await client.listTools()) as unknown as Record<string, unknown>;
        expect([tools.ttlMs, tools.cacheScope]).toEqual([60000, 'private']);
        expect(await otherHints(client)).toEqual({
          prompts: [30000, 'private'],
          resources: [30000, 'private'],
          templates: [30000, 'private'],
          read: [30000, 'private'],
        });
      },
    );
  });

  it('over HTTP: a remote server behind (its lists may depend on the login) makes them private', async () => {
    const backend = spawn(process.execPath, [MODERN, '--http', '0', '--lists', '20000:public'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        backend.stdout.on('data', (d: Buffer) => {
          const m = /listening (\S+)/.exec(String(d));
          if (m?.[1]) resolve(m[1]);
        });
        backend.once('exit', (code) => reject(new Error(`backend exited ${code}`)));
      });
      const local = await box.config('lists-d.json', {
        a: node(MODERN, '--cache-hint', '60000:public', '--lists', '30000:public'),
      });
      const remote = await box.config('lists-e.json', {
        a: node(MODERN, '--lists', '30000:public'),
        r: { type: 'http', url },
      } as never);
      for (const [config, expected] of [
        [local, { prompts: [30000, 'public'], resources: [30000, 'public'], templates: [30000, 'public'] }],
        [remote, { prompts: [20000, 'private'], resources: [20000, 'private'], templates: [20000, 'private'] }],
      ] as const) {
        const serve = await startServeHttp(box.env, [
          '--config',
          config,
          '--mode',
          'tools',
          '--no-learn',
          '--no-cache',
          ...READY,
        ]);
        const client = new Client(
          { name: 'e2e-cache-hint', version: '1' },
          { versionNegotiation: { mode: { pin: '2026-07-28' } } },
        );
        try {
          await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
          const { read, ...lists } = await otherHints(client);
          expect(lists).toEqual(expected);
          // modern://note is a's (first by name); it is local, so its read keeps a's public promise.
          expect(read).toEqual([30000, 'public']);
        } finally {
          await client.close();
          await serve.stop();
        }
      }
    } finally {
      backend.kill('SIGTERM');
    }
  });
});
