// `serve` answers both protocol eras, over stdio and Streamable HTTP: SDK v2 clients pinned to 2026-07-28 and in
// `auto` mode (which probes server/discover first) run find_tool → call_tool through serve to a real 2025 backend,
// beside a 2025 client on the same HTTP endpoint; on HTTP a 2026-07-28 request's Mcp-Method / Mcp-Name headers must
// match its body.
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture } from '../helpers/paths.js';
import { node, sandbox, startServeHttp, textOf, type Sandbox, type StartedServe } from './serve-harness.js';

let box: Sandbox;
let config: string;

beforeAll(async () => {
  box = await sandbox('serve-eras');
  config = await box.config('servers.json', {
    tiny: node(fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')),
  });
});

afterAll(async () => box.remove());

type Mode = 'legacy' | 'auto' | { pin: '2026-07-28' };
const SERVE_ARGS = (): string[] => ['--config', config, '--mode', 'meta', '--no-learn'];

/** Connects a client in `mode`, then find_tool → call_tool to tiny's echo; returns the era it landed on. */
async function findThenCall(mode: Mode, transport: Transport, said: string): Promise<string | undefined> {
  const client = new Client({ name: 'e2e-eras', version: '1' }, { versionNegotiation: { mode } });
  await client.connect(transport);
  try {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'find_tool',
      'describe_tool',
      'list_tools',
      'call_tool',
      'call_tool_read',
    ]);
    const found = JSON.parse(
      textOf(await client.callTool({ name: 'find_tool', arguments: { intent: 'echo a message back', k: 3 } })),
    ) as { results: { id: string }[] };
    expect(found.results[0]?.id).toBe('tiny.echo');
    const result = await client.callTool({
      name: 'call_tool',
      arguments: { name: found.results[0]!.id, arguments: { message: said } },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toBe(said);
    return client.getNegotiatedProtocolVersion();
  } finally {
    await client.close();
  }
}

describe('serve over stdio speaks both eras', () => {
  const stdio = (): StdioClientTransport =>
    new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', ...SERVE_ARGS()], env: box.env });

  it('a client pinned to 2026-07-28 finds and calls a tool', async () => {
    expect(await findThenCall({ pin: '2026-07-28' }, stdio(), 'pinned over stdio')).toBe('2026-07-28');
  });

  it('a client in auto mode lands on 2026-07-28 (server/discover answered, no fallback to initialize)', async () => {
    expect(await findThenCall('auto', stdio(), 'auto over stdio')).toBe('2026-07-28');
  });

  it('a 2025 client still initializes', async () => {
    expect(await findThenCall('legacy', stdio(), 'legacy over stdio')).toBe('2025-11-25');
  });
});

describe('serve over Streamable HTTP speaks both eras on one endpoint', () => {
  let serve: StartedServe;
  beforeAll(async () => {
    serve = await startServeHttp(box.env, SERVE_ARGS());
  });
  afterAll(async () => serve.stop());

  it('pinned, auto and 2025 clients each find and call a tool', async () => {
    const http = (): StreamableHTTPClientTransport => new StreamableHTTPClientTransport(new URL(serve.url));
    expect(await findThenCall({ pin: '2026-07-28' }, http(), 'pinned over http')).toBe('2026-07-28');
    expect(await findThenCall('auto', http(), 'auto over http')).toBe('2026-07-28');
    expect(await findThenCall('legacy', http(), 'legacy over http')).toBe('2025-11-25');
  });

  it('a 2026-07-28 request is stateless, its result typed and cacheable; Mcp-Method / Mcp-Name must match the body', async () => {
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const post = async (method: string, params: Record<string, unknown>, headers: Record<string, string>) => {
      const res = await fetch(serve.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: envelope } }),
      });
      return {
        status: res.status,
        session: res.headers.get('mcp-session-id'),
        body: (await res.json()) as { result?: Record<string, unknown>; error?: { code: number } },
      };
    };
    const list = await post('tools/list', {}, { 'mcp-method': 'tools/list' });
    expect(list.status).toBe(200);
    expect(list.session).toBeNull();
    // Derived from the one server behind: a local 2025 server (no promise: ttlMs 0; nothing per-user: public).
    expect(list.body.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'public' });
    const call = { name: 'list_tools', arguments: {} };
    const ok = await post('tools/call', call, { 'mcp-method': 'tools/call', 'mcp-name': 'list_tools' });
    expect(ok.body.result?.resultType).toBe('complete');
    expect(JSON.stringify(ok.body.result?.content)).toContain('tiny.echo');
    const mismatched: Record<string, string>[] = [
      {},
      { 'mcp-method': 'tools/call' },
      { 'mcp-method': 'tools/call', 'mcp-name': 'find_tool' },
      { 'mcp-method': 'tools/list', 'mcp-name': 'list_tools' },
    ];
    for (const headers of mismatched) {
      const bad = await post('tools/call', call, headers);
      expect([bad.status, bad.body.error?.code], JSON.stringify(headers)).toEqual([400, -32020]);
    }
    const discover = await post('server/discover', {}, { 'mcp-method': 'server/discover' });
    expect(discover.body.result?.supportedVersions).toEqual(['2026-07-28']);
  });
});
