// A 2026-07-28 client's per-request declarations through serve, in front of the 2025 conformance fixture (real
// processes, raw HTTP so that every frame of the response is seen):
// - a server behind that asks for sampling the request did not declare: -32021 with requiredCapabilities, HTTP 400;
//   declared, the same call is an input_required round;
// - log messages the server behind sends during the call reach the caller only when its request named a level, and
//   only at that severity or above.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { node, sandbox, startServeHttp, type Sandbox, type StartedServe } from './serve-harness.js';

const VERSION = '2026-07-28';
let box: Sandbox;
let serve: StartedServe;
let id = 0;

beforeAll(async () => {
  box = await sandbox('serve-stateless');
  const config = await box.config('stateless.json', {
    conformance: node(fixture('servers', 'conformance-server.mjs')),
  });
  serve = await startServeHttp(box.env, ['--config', config, '--mode', 'tools', '--no-learn', '--port', '0']);
}, 60_000);
afterAll(async () => {
  await serve?.stop();
  await box?.remove();
});

interface Frame {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

/** tools/call `name` as a 2026-07-28 request; every JSON-RPC message of the response, in order. */
async function call(
  name: string,
  capabilities: Record<string, unknown>,
  logLevel?: string,
): Promise<{ status: number; frames: Frame[] }> {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    ...(logLevel && { 'io.modelcontextprotocol/logLevel': logLevel }),
  };
  const res = await fetch(serve.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: {}, _meta } }),
  });
  const body = await res.text();
  const sse = (res.headers.get('content-type') ?? '').includes('text/event-stream');
  const frames = sse
    ? body
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => JSON.parse(l.slice(5)) as Frame)
    : [JSON.parse(body) as Frame];
  return { status: res.status, frames };
}

describe('serve: a 2026-07-28 request decides what the 2025 server behind may use', () => {
  it('a server behind asking for sampling the request did not declare: -32021, HTTP 400', async () => {
    const { status, frames } = await call('test_missing_capability', {});
    expect(status).toBe(400);
    expect(frames).toHaveLength(1);
    expect(frames[0]!.error?.code).toBe(-32021);
    expect(frames[0]!.error?.data).toEqual({ requiredCapabilities: { sampling: {} } });
    expect(frames[0]!.id).toBe(id);
  });

  it('declared, the same call is an input_required round carrying the sampling request', async () => {
    const { status, frames } = await call('test_missing_capability', { sampling: {} });
    expect(status).toBe(200);
    const result = frames.at(-1)!.result!;
    expect(result.resultType).toBe('input_required');
    expect(result.inputRequests).toEqual({
      'sampling-1': {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 20 },
      },
    });
    // Only the result: the server's request never goes out as a request of its own.
    expect(frames.filter((f) => f.method !== undefined)).toEqual([]);
  });

  it('log messages reach the call only when its request named a level, at that severity or above', async () => {
    const logged = (frames: Frame[]): unknown[] =>
      frames.filter((f) => f.method === 'notifications/message').map((f) => f.params?.data);
    const done = (frames: Frame[]): unknown => frames.at(-1)?.result?.content;
    const text = [{ type: 'text', text: 'Logged two info messages.' }];

    const none = await call('test_logging_tool', {});
    expect(done(none.frames)).toEqual(text);
    expect(logged(none.frames)).toEqual([]);

    const info = await call('test_logging_tool', {}, 'info');
    expect(done(info.frames)).toEqual(text);
    expect(logged(info.frames)).toEqual(['test_logging_tool started', 'test_logging_tool finished']);
    const first = info.frames.find((f) => f.method === 'notifications/message')!;
    expect(first.params).toMatchObject({ level: 'info', logger: 'conformance' });

    const error = await call('test_logging_tool', {}, 'error');
    expect(done(error.frames)).toEqual(text);
    expect(logged(error.frames)).toEqual([]);
  });
});
