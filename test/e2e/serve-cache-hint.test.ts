// serve's ttlMs / cacheScope on tools/list for 2026-07-28 clients, derived from the servers behind it (real
// processes: the modern SDK v2 fixture with its own cache hint, the 2025 catalog fixture): the shortest TTL any
// server promised and no longer than the tool-list cache keeps it, 0 as soon as a 2025 server (which promises
// nothing) is behind, private when a server behind said private. A 2025 client's result carries neither field.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture, requireBuild } from '../helpers/paths.js';
import { node, sandbox, type Sandbox } from './serve-harness.js';

requireBuild();

const MODERN = fixture('servers', 'modern-server.mjs');
const TINY = [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')] as const;
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
      args: [BIN, 'serve', '--config', config, '--mode', 'tools', '--no-learn', '--no-cache'],
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
