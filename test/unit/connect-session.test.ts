// connectServers over the SDK's in-memory linked transports: listing, pagination guards, malformed tools, timeouts.
import { readFileSync } from 'node:fs';
import { InMemoryTransport, LATEST_PROTOCOL_VERSION, ProtocolError } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { applyServerNames, connectServers } from '../../src/core/connect/index.js';
import type { ServerDefinition, ServerSnapshot } from '../../src/core/types.js';
import { createCatalogServer, type Catalog, type CatalogServerOptions } from '../../fixtures/servers/lib.mjs';
import { fixture } from '../helpers/paths.js';

const tiny = JSON.parse(readFileSync(fixture('servers', 'catalogs', 'tiny.json'), 'utf8')) as Catalog & {
  tools: unknown[];
};

const def = (name: string, extra: Partial<ServerDefinition> = {}): ServerDefinition => ({
  name,
  transport: 'stdio',
  command: 'unused',
  enabled: true,
  source: 'test',
  scope: 'explicit',
  ...extra,
});

type Setup = { catalog: Catalog; options?: CatalogServerOptions } | 'silent';

/** Each definition name maps to an in-process server (or one that never answers). */
async function connectInMemory(
  servers: Record<string, Setup>,
  extra: { timeoutMs?: number; maxPages?: number; signal?: AbortSignal; defs?: ServerDefinition[] } = {},
): Promise<ServerSnapshot[]> {
  const defs = extra.defs ?? Object.keys(servers).map((n) => def(n));
  return connectServers(defs, {
    timeoutMs: extra.timeoutMs ?? 5000,
    maxPages: extra.maxPages,
    signal: extra.signal,
    createTransport: (d) => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const setup = servers[d.name];
      if (setup === 'silent' || setup === undefined) {
        void serverSide.start();
      } else {
        void createCatalogServer(setup.catalog, setup.options).connect(serverSide);
      }
      return clientSide;
    },
  });
}

describe('connectServers over in-memory transports', () => {
  it('follows pagination of every list and keeps tools exactly as sent', async () => {
    const [snap] = await connectInMemory({ tiny: { catalog: tiny, options: { pageSize: 2 } } });
    expect(snap?.status).toBe('ok');
    expect(snap?.tools).toEqual(tiny.tools);
    // Unknown fields survive (the SDK's own listTools() schema would strip them).
    expect(snap?.tools[3]?.['x-vendor-extension']).toEqual({ keptAsSent: true });
    expect(snap?.prompts).toEqual(tiny.prompts);
    expect(snap?.resources).toEqual(tiny.resources);
    expect(snap?.resourceTemplates).toEqual(tiny.resourceTemplates);
    expect(snap?.serverInfo).toEqual({ name: 'tiny', version: '1.0.0' });
    expect(snap?.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(snap?.instructions).toBe('A tiny fixture catalog: notes and a clock.');
  });

  it('lists only what the capabilities advertise', async () => {
    const [snap] = await connectInMemory({
      toolsOnly: { catalog: { serverInfo: { name: 'only', version: '1' }, tools: tiny.tools.slice(0, 1) } },
    });
    expect(snap?.status).toBe('ok');
    expect(snap?.tools).toHaveLength(1);
    expect(snap).not.toHaveProperty('prompts');
    expect(snap).not.toHaveProperty('resources');
    expect(snap).not.toHaveProperty('resourceTemplates');
    expect(snap).not.toHaveProperty('instructions');
  });

  it('stops a cursor that comes back again and reports the server as failed', async () => {
    const tools = (): unknown => ({ tools: [{ name: 'again', inputSchema: { type: 'object' } }], nextCursor: 'same' });
    const [bad, good] = await connectInMemory({
      loop: { catalog: { serverInfo: { name: 'loop', version: '1' } }, options: { hooks: { tools } } },
      good: { catalog: tiny },
    });
    expect(bad?.status).toBe('error');
    expect(bad?.errorCode).toBe('CONNECT_PAGINATION');
    expect(bad?.error).toBe(
      'tools/list did not end: cursor "same" came back again after 2 pages; that list was dropped',
    );
    expect(bad?.tools).toEqual([]);
    expect(good?.status).toBe('ok');
    expect(good?.tools).toHaveLength(5);
  });

  it('stops a cursor that never ends at the page limit', async () => {
    const tools = (_p: unknown, page: number): unknown => ({ tools: [], nextCursor: `p${page}` });
    const [snap] = await connectInMemory(
      { endless: { catalog: { serverInfo: { name: 'e', version: '1' } }, options: { hooks: { tools } } } },
      { maxPages: 7 },
    );
    expect(snap?.errorCode).toBe('CONNECT_PAGINATION');
    expect(snap?.error).toContain('still a next page after 7 pages (the page limit); that list was dropped');
  });

  it('keeps well-formed tools on an ok server and notes the malformed entries', async () => {
    const tools = (): unknown => ({
      tools: [
        { name: 'fine', inputSchema: { type: 'object' } },
        { description: 'nameless', inputSchema: { type: 'object' } },
        { name: 'no_schema' },
        { name: 'list_schema', inputSchema: [] },
        'not even an object',
      ],
    });
    const [snap] = await connectInMemory({
      bad: { catalog: { serverInfo: { name: 'bad', version: '1' } }, options: { hooks: { tools } } },
    });
    expect(snap?.status).toBe('ok');
    expect(snap?.error).toBeUndefined();
    // A missing or non-object inputSchema is no reason to drop the tool: it counts as {"type":"object"}.
    expect(snap?.tools.map((t) => t.name)).toEqual(['fine', 'no_schema', 'list_schema']);
    expect(snap?.tools[2]?.inputSchema).toBeUndefined();
    expect(snap?.notes).toEqual([
      'tools/list returned 2 tools with a missing inputSchema or a field of the wrong type, kept and counted ' +
        '(#3 "no_schema": inputSchema is missing (counted as {"type":"object"}); #4 "list_schema": inputSchema is a list ' +
        '(counted as {"type":"object"})); clients built on the MCP TypeScript SDK reject such a list whole',
      'tools/list returned 2 malformed tool entries (#2: no name; #5: not an object); the 3 well-formed tools were kept',
    ]);
  });

  it('reports a JSON-RPC error from a list call with the method', async () => {
    const tools = (): unknown => {
      throw new ProtocolError(-32603, 'database offline');
    };
    const [snap] = await connectInMemory({
      err: { catalog: { serverInfo: { name: 'err', version: '1' } }, options: { hooks: { tools } } },
    });
    expect(snap?.errorCode).toBe('CONNECT_PROTOCOL');
    expect(snap?.error).toMatch(/^tools\/list failed: .*database offline/);
  });

  it('gives up on a server that never answers initialize, naming the limit', async () => {
    const [silent, good] = await connectInMemory({ silent: 'silent', good: { catalog: tiny } }, { timeoutMs: 300 });
    expect(silent?.status).toBe('error');
    expect(silent?.errorCode).toBe('CONNECT_TIMEOUT');
    expect(silent?.error).toBe('did not answer initialize within 300 ms; raise --timeout');
    expect(good?.status).toBe('ok');
  });

  it('stops at once when aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const [snap] = await connectInMemory({ silent: 'silent' }, { timeoutMs: 30_000, signal: controller.signal });
    expect(snap?.errorCode).toBe('CONNECT_ABORTED');
    expect(snap?.error).toBe('interrupted during initialize');
  });

  it('names ad-hoc servers after serverInfo.name, with a suffix when taken', async () => {
    const defs = [def('adhoc-1', { nameFromServer: true }), def('tiny'), def('adhoc-2', { nameFromServer: true })];
    const snaps = await connectInMemory(
      { 'adhoc-1': { catalog: tiny }, tiny: { catalog: tiny }, 'adhoc-2': { catalog: tiny } },
      { defs },
    );
    expect(snaps.map((s) => s.name)).toEqual(['tiny-2', 'tiny', 'tiny-3']);
  });
});

describe('applyServerNames', () => {
  it('keeps the definition name when the server sent no usable name', () => {
    const d = def('adhoc', { nameFromServer: true });
    const snap: ServerSnapshot = { name: 'adhoc', transport: 'stdio', status: 'error', tools: [] };
    expect(applyServerNames([d], [snap])[0]?.name).toBe('adhoc');
  });
});
