// A 2025 session's plain tools/call of a server's tool over Streamable HTTP is answered outside the SDK's transport
// and Server (src/serve/http-forward-calls.ts), where the user meets it (the built CLI with a bearer token, real
// fixture servers behind, raw HTTP requests and real SDK v1 and v2 clients):
// - every answer, its status and headers, equal the SDK path's for the same call (the same call with a progress
//   token, which the fast path leaves to the SDK): text, isError, image/audio/embedded-resource results, a server's
//   JSON-RPC error, an unknown tool, a server that dies mid-call;
// - the answer really comes from the fast path for a plain result (it writes `jsonrpc` first; the SDK's Server
//   writes `result` first) and from the SDK for the rest;
// - the token, the session id and the transport's header checks refuse alike; a cancelled call gets no answer and
//   the session goes on; a closed session ends the response of a call still running;
// - the audit log and the learned counts record a fast call as they record the SDK's;
// - SDK clients see equal results; progress and a server's elicitation still work;
// - all of it for a session that declares nothing and for one declaring what each real client declares (roots,
//   elicitation: it may be asked, serve-forward-http-asks.test.ts has the questions).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_DECLARATIONS } from '../../src/core/declared-capabilities.js';
import { fixture } from '../helpers/paths.js';
import {
  FORWARD_CASES,
  node,
  rawHttpSession,
  sandbox,
  startServeHttp,
  textOf,
  type Sandbox,
  type StartedServe,
} from './serve-harness.js';

const TIMEOUT_MS = 90_000;
const TOKEN = 'forward-http-token-5521';
const AUTH = { authorization: `Bearer ${TOKEN}` };

let box: Sandbox;
let serve: StartedServe;
let auditFile: string;
let storeFile: string;

beforeAll(async () => {
  box = await sandbox('serve-forward-http');
  const config = await box.config('forward.json', {
    conf: node(fixture('servers', 'conformance-server.mjs')),
    faults: node(fixture('servers', 'misbehaving', 'call-faults.mjs')),
    secret: node(fixture('servers', 'misbehaving', 'echo-secret.mjs')),
  });
  auditFile = join(box.dir, 'audit.jsonl');
  storeFile = join(box.dir, 'usage.json');
  serve = await startServeHttp({ ...box.env, SERVE_TOKEN: TOKEN }, [
    '--config',
    config,
    '--port',
    '0',
    '--mode',
    'tools',
    '--token-env',
    'SERVE_TOKEN',
    '--audit-log',
    auditFile,
    '--store',
    storeFile,
    '--call-timeout',
    '20000',
  ]);
}, TIMEOUT_MS);
afterAll(async () => {
  await serve?.stop();
  await box?.remove();
});

interface Answer {
  status: number;
  /** Headers but Date and the framing, in the order sent. */
  headers: [string, string][];
  /** The data of each SSE event (or the JSON body). */
  messages: string[];
  body: string;
}

async function post(body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(serve.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const messages = (res.headers.get('content-type') ?? '').startsWith('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
    : [text];
  // The framing is Node's: a body complete before the adapter reads it (an answer the SDK gives at once) goes with
  // a Content-Length, a streamed one chunked.
  const framing = new Set(['date', 'content-length', 'transfer-encoding']);
  return { status: res.status, headers: [...res.headers].filter(([k]) => !framing.has(k)), messages, body: text };
}

/** A raw 2025 session on this file's serve (with its token), declaring `capabilities`. */
const session = (capabilities: Record<string, unknown> = {}): Promise<Record<string, string>> =>
  rawHttpSession(serve.url, capabilities, AUTH);

const call = (id: number | string, name: string, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...extra },
});

/** The served name of each server's tool (from tools/list). */
async function servedNames(headers: Record<string, string>): Promise<Map<string, string>> {
  const { messages } = await post({ jsonrpc: '2.0', id: 'list', method: 'tools/list' }, headers);
  const { result } = JSON.parse(messages[0]!) as { result: { tools: { name: string }[] } };
  return new Map(result.tools.map((t) => [t.name.replace(/^(conf|faults|secret)[_.]/, ''), t.name]));
}

/** What a session declares: nothing, and each real client's measured declaration (every one may be asked). */
const DECLARATIONS: [string, Record<string, unknown>][] = [
  ['no capabilities', {}],
  ...Object.entries(CLIENT_DECLARATIONS).map(([client, d]): [string, Record<string, unknown>] => [
    `${client}'s declaration`,
    { ...d.capabilities },
  ]),
];

describe('forwarded calls over Streamable HTTP: the same answers as the SDK path', () => {
  it.each(DECLARATIONS)(
    'raw requests, %s: each answer, status and headers equal the SDK path’s',
    async (_, caps) => {
      const headers = await session(caps);
      const names = await servedNames(headers);
      let id = 1;
      for (const [tool, toolArgs, fastPath] of FORWARD_CASES) {
        const name = names.get(tool)!;
        const fast = await post(call(id, name, { arguments: toolArgs }), headers);
        // The SDK path: the same call with a progress token (which the fast path leaves to the SDK).
        const sdk = await post(
          call(id + 1, name, { arguments: toolArgs, _meta: { progressToken: `p${id}` } }),
          headers,
        );
        expect([fast.status, fast.headers], tool).toEqual([sdk.status, sdk.headers]);
        expect(fast.headers.find(([k]) => k === 'mcp-session-id')?.[1]).toBe(headers['mcp-session-id']);
        expect(fast.messages.length, tool).toBe(1);
        const last = sdk.messages.at(-1)!;
        // The SDK's Server writes a result `result` first (an error it writes `jsonrpc` first, as the fast path would).
        if ('result' in (JSON.parse(last) as object)) {
          expect(last.startsWith('{"result"'), `${tool} via the SDK`).toBe(true);
          expect(fast.messages[0]!.startsWith('{"jsonrpc":"2.0","id":'), `${tool} on the fast path`).toBe(fastPath);
        } else expect(fastPath, `${tool} is an error: the SDK's to write`).toBe(false);
        const { id: _a, ...fastBody } = JSON.parse(fast.messages[0]!) as Record<string, unknown>;
        const { id: _b, ...sdkBody } = JSON.parse(last) as Record<string, unknown>;
        expect(fastBody, tool).toEqual(sdkBody);
        if (tool === 'test_simple_text')
          expect(textOf(fastBody.result)).toBe('This is a simple text response for testing.');
        if (tool === 'test_error_handling') expect((fastBody.result as { isError?: boolean }).isError).toBe(true);
        if (tool === 'echo') expect(textOf(fastBody.result)).toBe('héllo "quoted"\n');
        if (tool === 'leak_rpc') {
          const rpc = fastBody.error as { code: number; message: string };
          expect(rpc.code).toBe(-32600);
          expect(rpc.message).toContain('was rejected');
        }
        id += 2;
      }
      // An unknown tool is the SDK's error, as before.
      const unknown = await post(call(100, 'no_such_tool'), headers);
      const error = (JSON.parse(unknown.messages[0]!) as { error?: { code: number; message: string } }).error;
      expect(error?.code).toBe(-32602);
      expect(error?.message).toContain('no_such_tool');
    },
    TIMEOUT_MS,
  );

  it('a server that dies mid-call: the same error result either way', { timeout: TIMEOUT_MS }, async () => {
    const headers = await session();
    const names = await servedNames(headers);
    const fast = await post(call(1, names.get('crash_mid_call')!), headers);
    const sdk = await post(call(2, names.get('crash_mid_call')!, { _meta: { progressToken: 'p' } }), headers);
    expect(fast.messages[0]!.startsWith('{"jsonrpc"')).toBe(true);
    const fastResult = (JSON.parse(fast.messages[0]!) as { result: { isError?: boolean } }).result;
    expect(fastResult.isError).toBe(true);
    expect(textOf(fastResult)).toMatch(/^mcp-smart: .*faults/);
    // The pool names the step the server was in when it died (it is restarted for the second call): not the path's.
    const phase = (r: unknown): string => JSON.stringify(r).replace(/ during [\w/]+ — /, ' during … — ');
    expect(phase(fastResult)).toBe(phase((JSON.parse(sdk.messages.at(-1)!) as { result: unknown }).result));
    // The server is started again for a later call (after its back-off: it failed twice in a row).
    let text = '';
    for (let id = 3; id < 40 && text !== 'back'; id++) {
      const r = await post(call(id, names.get('echo')!, { arguments: { text: 'back' } }), headers);
      text = textOf((JSON.parse(r.messages[0]!) as { result: unknown }).result);
      if (text !== 'back') await new Promise((r) => setTimeout(r, 250));
    }
    expect(text).toBe('back');
  });

  it(
    'the token, the session id and the transport’s header checks refuse a call alike',
    { timeout: TIMEOUT_MS },
    async () => {
      const headers = await session();
      const name = (await servedNames(headers)).get('echo')!;
      const echo = call(1, name, { arguments: { text: 'x' } });
      const noToken = await post(echo, { ...headers, authorization: '' });
      expect([noToken.status, noToken.body]).toEqual([
        401,
        '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Unauthorized: send \\"Authorization: Bearer <token>\\""},"id":null}',
      ]);
      expect((await post(echo, { ...headers, authorization: 'Bearer wrong' })).status).toBe(401);
      const stranger = await post(echo, { ...headers, 'mcp-session-id': 'no-such-session' });
      expect(stranger.status).toBe(404);
      expect(JSON.parse(stranger.body)).toEqual({
        jsonrpc: '2.0',
        error: { code: -32001, message: 'Session not found (closed, or idle too long): initialize again' },
        id: 1,
      });
      // What the SDK's transport refuses it still refuses (406, 400), with its own words.
      const json = await post(echo, { ...headers, accept: 'application/json' });
      expect(json.status).toBe(406);
      expect(json.body).toContain('Not Acceptable');
      const version = await post(echo, { ...headers, 'mcp-protocol-version': '1999-01-01' });
      expect(version.status).toBe(400);
      expect(version.body).toContain('Unsupported protocol version: 1999-01-01');
      // And the session still answers the same call.
      const ok = await post(echo, headers);
      expect(ok.messages[0]!.startsWith('{"jsonrpc"')).toBe(true);
      expect(textOf((JSON.parse(ok.messages[0]!) as { result: unknown }).result)).toBe('x');
    },
  );

  it(
    'a call cancelled before its answer gets none, the session goes on, and its close ends the response',
    { timeout: TIMEOUT_MS },
    async () => {
      const headers = await session();
      const names = await servedNames(headers);
      const hanging = post(call(1, names.get('hang_forever')!), headers);
      await new Promise((r) => setTimeout(r, 300));
      const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'no' } };
      expect((await post(cancel, headers)).status).toBe(202);
      const next = await post(call(2, names.get('echo')!, { arguments: { text: 'still here' } }), headers);
      expect(next.messages[0]!.startsWith('{"jsonrpc"')).toBe(true);
      expect(textOf((JSON.parse(next.messages[0]!) as { result: unknown }).result)).toBe('still here');
      // The cancelled call's response is still open (as the SDK's stream): the session's end closes it, empty.
      const closed = await fetch(serve.url, { method: 'DELETE', headers });
      expect(closed.status).toBe(200);
      const cut = await hanging;
      expect([cut.status, cut.messages]).toEqual([200, []]);
      expect(cut.headers.find(([k]) => k === 'content-type')?.[1]).toBe('text/event-stream');
    },
  );
});

describe('SDK clients over Streamable HTTP: equal results on both paths; progress and elicitation still work', () => {
  const tools = ['test_simple_text', 'test_error_handling', 'test_multiple_content_types', 'test_tool_with_progress'];
  const requestInit = { headers: AUTH };

  it('SDK v1 client (@modelcontextprotocol/sdk)', { timeout: TIMEOUT_MS }, async () => {
    const client = new ClientV1({ name: 'forward-http-v1', version: '1' });
    await client.connect(new HttpV1(new URL(serve.url), { requestInit }));
    try {
      const served = (await client.listTools()).tools.map((t) => t.name);
      for (const tool of tools) {
        const name = served.find((n) => n.endsWith(tool))!;
        const progress: number[] = [];
        const fast = await client.callTool({ name, arguments: {} });
        const sdk = await client.callTool({ name, arguments: {} }, undefined, {
          onprogress: (p) => progress.push(p.progress),
        });
        expect(fast, tool).toEqual(sdk);
        if (tool === 'test_simple_text') expect(textOf(fast)).toBe('This is a simple text response for testing.');
        if (tool === 'test_tool_with_progress') expect(progress.slice(0, 2)).toEqual([0, 50]);
      }
    } finally {
      await client.close();
    }
  });

  it('SDK v2 client (@modelcontextprotocol/client), legacy negotiation', { timeout: TIMEOUT_MS }, async () => {
    const client = new ClientV2({ name: 'forward-http-v2', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(new HttpV2(new URL(serve.url), { requestInit }));
    try {
      const served = (await client.listTools()).tools.map((t) => t.name);
      for (const tool of tools) {
        const name = served.find((n) => n.endsWith(tool))!;
        const progress: number[] = [];
        const fast = await client.callTool({ name, arguments: {} });
        const sdk = await client.callTool({ name, arguments: {} }, { onprogress: (p) => progress.push(p.progress) });
        expect(fast, tool).toEqual(sdk);
        if (tool === 'test_error_handling') expect(fast.isError).toBe(true);
        if (tool === 'test_tool_with_progress') expect(progress.slice(0, 2)).toEqual([0, 50]);
      }
    } finally {
      await client.close();
    }
  });

  it(
    'a v1 client that declares elicitation is asked the server’s question (the call handed to the SDK)',
    { timeout: TIMEOUT_MS },
    async () => {
      const client = new ClientV1({ name: 'forward-http-ask', version: '1' }, { capabilities: { elicitation: {} } });
      client.setRequestHandler(ElicitRequestSchema, () => ({
        action: 'accept',
        content: { username: 'ada', email: 'ada@example.org' },
      }));
      await client.connect(new HttpV1(new URL(serve.url), { requestInit }));
      try {
        const name = (await client.listTools()).tools.map((t) => t.name).find((n) => n.endsWith('test_elicitation'))!;
        const result = await client.callTool({ name, arguments: { message: 'who are you?' } });
        expect(result.isError).toBeFalsy();
        expect(textOf(result)).toContain('ada');
      } finally {
        await client.close();
      }
    },
  );
});

describe('the audit log and the learned counts', () => {
  it('record a fast call as they record the SDK path’s', { timeout: TIMEOUT_MS }, async () => {
    const headers = await session();
    const names = await servedNames(headers);
    const echo = names.get('echo')!;
    const fast = await post(call(1, echo, { arguments: { text: 'audit-value-6610' } }), headers);
    const sdk = await post(
      call(2, echo, { arguments: { text: 'audit-value-6610' }, _meta: { progressToken: 'a' } }),
      headers,
    );
    expect(fast.messages[0]!.startsWith('{"jsonrpc"')).toBe(true);
    expect(sdk.messages.at(-1)!.startsWith('{"result"')).toBe(true);
    // SIGTERM: the last audit lines (these two calls are the file's last) and learned calls are written before serve exits (143, CONTRACT).
    expect(await serve.stop()).toBe(143);
    const text = await readFile(auditFile, 'utf8');
    const lines = text
      .split('\n')
      .filter(Boolean)
      .slice(-2)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.length).toBe(2);
    const [a, b] = lines.map(({ durationMs, time, ...rest }) => {
      expect(typeof durationMs).toBe('number');
      expect(typeof time).toBe('string');
      return rest;
    });
    expect(a).toEqual(b);
    expect(a).toMatchObject({ tool: echo, outcome: 'ok', arguments: ['text'] });
    expect(text).not.toContain('audit-value-6610');
    // Learned: every successful echo of this file, on either path (the audit log has them all), once each.
    const store = JSON.parse(await readFile(storeFile, 'utf8')) as {
      tools: Record<string, { success: number; failure: number }>;
    };
    const all = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { tool: string; outcome: string });
    const echoedOk = all.filter((l) => l.tool === echo && l.outcome === 'ok').length;
    expect(echoedOk).toBeGreaterThanOrEqual(4);
    expect(store.tools['faults.echo']?.success).toBe(echoedOk);
  });
});
