// The request rules serve's two transports enforce alike, with the built CLI and a slow fixture server behind it
// (trace-server `slow`). A request reusing the id of one in flight is refused at once (-32600, naming the id) and the
// first is still answered: over HTTP in meta mode the SDK's transport routed both answers by id, so the first was
// never answered and its client hung; over stdio both answers carried the same id. An empty batch `[]` is an Invalid
// Request (HTTP 400, one error, id null), not a 202; a batch on a session negotiated at 2025-06-18 or later (which
// removed batches) is refused as stdio refuses it, while a 2025-03-26 session still takes one. Over stdio a 2025-03-26
// connection takes batches too (that revision says implementations MUST): each member handled as on its own line, the
// answers sent back as one array; stdio had refused every batch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain ESM helper shared with the benchmark (no types)
import { startRaw } from '../../bench/helpers/raw-stdio.mjs';
import { BIN, fixture } from '../helpers/paths.js';
import { node, sandbox, startServeHttp, type Sandbox, type StartedServe } from './serve-harness.js';

const TIMEOUT_MS = 90_000;
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

interface Message {
  id?: unknown;
  result?: { content?: { text?: string }[] };
  error?: { code: number; message: string };
}

let box: Sandbox;
let config: string;
let serve: StartedServe;

beforeAll(async () => {
  box = await sandbox('serve-request-rules');
  config = await box.config('servers.json', { trace: node(fixture('servers', 'trace-server.mjs')) });
  serve = await startServeHttp(box.env, ['--config', config, '--mode', 'meta', '--no-learn']);
}, 60_000);
afterAll(async () => {
  await serve?.stop();
  await box?.remove();
});

const slowCall = (id: number, ms: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'call_tool', arguments: { name: 'trace.slow', arguments: { ms } } },
});

/** The JSON-RPC messages of an answer: a JSON body (one message or a batch's array) or an SSE stream's data lines. */
function messagesOf(text: string): Message[] {
  if (text.trimStart().startsWith('{')) return [JSON.parse(text) as Message];
  if (text.trimStart().startsWith('[')) return JSON.parse(text) as Message[];
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l.length > 6)
    .map((l) => JSON.parse(l.slice(6)) as Message);
}

async function post(body: unknown, session?: { id: string; version: string }) {
  const res = await fetch(serve.url, {
    method: 'POST',
    headers: { ...HEADERS, ...(session && { 'mcp-session-id': session.id, 'mcp-protocol-version': session.version }) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, session: res.headers.get('mcp-session-id'), messages: text ? messagesOf(text) : [] };
}

async function open(version: string): Promise<{ id: string; version: string }> {
  const init = await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  expect(init.status).toBe(200);
  const session = { id: init.session!, version };
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  return session;
}

describe('serve --transport http: request rules', () => {
  it(
    'meta mode, two calls in flight with id 5: the second is refused at once naming the id, the first answered',
    async () => {
      const session = await open('2025-11-25');
      // Its servers start on the first call: one call first, so the second of the pair comes while the first runs.
      expect((await post(slowCall(1, 10), session)).messages[0]?.result).toBeDefined();
      const first = post(slowCall(5, 2_000), session);
      await new Promise((r) => setTimeout(r, 300));
      const t = performance.now();
      const second = await post(slowCall(5, 10), session);
      expect(performance.now() - t).toBeLessThan(1_500);
      expect(second.status).toBe(400);
      expect(second.messages).toEqual([
        {
          jsonrpc: '2.0',
          id: 5,
          error: { code: -32600, message: expect.stringMatching(/request id 5 is already in use/) },
        },
      ]);
      const answered = await first;
      expect(answered.messages).toHaveLength(1);
      expect(answered.messages[0]).toMatchObject({ id: 5, result: { content: [{ text: 'late' }] } });
      // Answered, the id is free again.
      expect((await post(slowCall(5, 10), session)).messages[0]).toMatchObject({ id: 5, result: {} });
    },
    TIMEOUT_MS,
  );

  it('an empty batch is one Invalid Request error (HTTP 400, id null), with a session or without', async () => {
    const session = await open('2025-03-26');
    for (const answer of [await post([], session), await post([])]) {
      expect(answer.status).toBe(400);
      expect(answer.messages).toEqual([
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/empty JSON-RPC batch/) } },
      ]);
    }
  });

  it('a batch is refused on a 2025-06-18 or 2025-11-25 session, and served on a 2025-03-26 one', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 7, method: 'ping' },
      { jsonrpc: '2.0', id: 8, method: 'ping' },
    ];
    for (const version of ['2025-06-18', '2025-11-25']) {
      const refused = await post(batch, await open(version));
      expect(refused.status).toBe(400);
      expect(refused.messages).toEqual([
        {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: expect.stringContaining(`batches were removed in 2025-06-18`) },
        },
      ]);
      expect(refused.messages[0]?.error?.message).toContain(`negotiated ${version}`);
    }
    const served = await post(batch, await open('2025-03-26'));
    expect(served.status).toBe(200);
    expect(served.messages.map((m) => m.id)).toEqual([7, 8]);
  });

  it('an initialize inside a batch is refused alone (-32600), the other members served; without a session too', async () => {
    // MCP 2025-03-26 (basic/lifecycle): the initialize request MUST NOT be part of a JSON-RPC batch. The SDK's
    // transport refused the whole POST ("Server already initialized"), and without a session serve asked for the
    // initialize the client had sent.
    const init = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const refusal = (id: number) => ({
      jsonrpc: '2.0',
      id,
      error: {
        code: -32600,
        message: expect.stringContaining('initialize request must not be part of a JSON-RPC batch'),
      },
    });
    const session = await open('2025-03-26');
    const mixed = await post([{ jsonrpc: '2.0', id: 21, method: 'ping' }, init(22), slowCall(23, 10)], session);
    expect(mixed.status).toBe(200);
    const byId = (ms: Message[]) => [...ms].sort((a, b) => Number(a.id) - Number(b.id));
    expect(byId(mixed.messages)).toEqual([
      { jsonrpc: '2.0', id: 21, result: {} },
      refusal(22),
      { jsonrpc: '2.0', id: 23, result: { content: [{ type: 'text', text: 'late' }] } },
    ]);
    // The session is still the one it was: a request after the batch is served in it.
    expect((await post({ jsonrpc: '2.0', id: 24, method: 'ping' }, session)).messages).toEqual([
      { jsonrpc: '2.0', id: 24, result: {} },
    ]);
    // Alone in its batch it is refused all the same.
    expect((await post([init(25)], session)).messages).toEqual([refusal(25)]);
    // Without a session: it opens none; the initialize is refused as batched, the other request for want of a session.
    const sessionless = await post([init(1), { jsonrpc: '2.0', id: 2, method: 'ping' }]);
    expect(sessionless.status).toBe(400);
    expect(sessionless.session).toBeNull();
    expect(sessionless.messages).toEqual([
      refusal(1),
      { jsonrpc: '2.0', id: 2, error: { code: -32000, message: expect.stringMatching(/no Mcp-Session-Id header/) } },
    ]);
  });
});

interface Raw {
  open: () => Promise<unknown>;
  request: (method: string, params?: unknown) => Promise<Message>;
  send: (m: unknown) => void;
  notes: unknown[];
  child: { kill: () => void };
  exited: Promise<unknown>;
}

const startServeRaw = (...args: string[]): Raw =>
  startRaw(process.execPath, [BIN, '--config', config, 'serve', '--no-learn', ...args], {
    env: box.env,
    cwd: box.dir,
  }) as Raw;

/** The next line serve writes that is not a notification (a batch's array, or an answer without a waiting request). */
async function nextAnswer(raw: Raw, from: number): Promise<unknown> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = raw.notes.slice(from).find((m) => Array.isArray(m) || (m as Message).id !== undefined);
    if (answer !== undefined || Date.now() > deadline) return answer;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('serve over stdio: batches', () => {
  it(
    'a 2025-03-26 connection: a batch is answered as one array (real results, the duplicate id refused, no answer to a notification)',
    async () => {
      const raw = startServeRaw('--mode', 'meta');
      try {
        const init = await raw.request('initialize', {
          protocolVersion: '2025-03-26',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        });
        expect(init.result).toMatchObject({ protocolVersion: '2025-03-26' });
        raw.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        let from = raw.notes.length;
        raw.send([
          { jsonrpc: '2.0', id: 'p', method: 'ping' },
          slowCall(41, 300),
          { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
          slowCall(41, 10),
          {
            jsonrpc: '2.0',
            id: 42,
            method: 'tools/call',
            params: { name: 'describe_tool', arguments: { name: 'trace.slow' } },
          },
        ]);
        const answers = (await nextAnswer(raw, from)) as Message[];
        expect(answers).toEqual([
          { jsonrpc: '2.0', id: 'p', result: {} },
          { jsonrpc: '2.0', id: 41, result: { content: [{ type: 'text', text: 'late' }] } },
          {
            jsonrpc: '2.0',
            id: 41,
            error: { code: -32600, message: expect.stringMatching(/request id 41 is already in use/) },
          },
          { jsonrpc: '2.0', id: 42, result: expect.objectContaining({ content: expect.any(Array) }) },
        ]);
        expect(answers[3]?.result?.content?.[0]?.text).toContain('slow');
        // A batch of notifications only is answered with nothing: the next thing written answers the ping after it.
        from = raw.notes.length;
        raw.send([{ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }]);
        raw.send({ jsonrpc: '2.0', id: 'after', method: 'ping' });
        expect(await nextAnswer(raw, from)).toEqual({ jsonrpc: '2.0', id: 'after', result: {} });
        // A member the client cancels gets no answer: the array comes without it, not never.
        from = raw.notes.length;
        raw.send([slowCall(50, 5_000), { jsonrpc: '2.0', id: 51, method: 'ping' }]);
        raw.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 50 } });
        expect(await nextAnswer(raw, from)).toEqual([{ jsonrpc: '2.0', id: 51, result: {} }]);
        // An initialize in a batch is refused alone (MCP: never batched); the rest of the batch is served.
        from = raw.notes.length;
        raw.send([
          {
            jsonrpc: '2.0',
            id: 60,
            method: 'initialize',
            params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
          },
          { jsonrpc: '2.0', id: 61, method: 'ping' },
        ]);
        expect(await nextAnswer(raw, from)).toEqual([
          {
            jsonrpc: '2.0',
            id: 60,
            error: {
              code: -32600,
              message: expect.stringContaining('initialize request must not be part of a JSON-RPC batch'),
            },
          },
          { jsonrpc: '2.0', id: 61, result: {} },
        ]);
        from = raw.notes.length;
        raw.send([]);
        expect(await nextAnswer(raw, from)).toEqual({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: expect.stringMatching(/empty JSON-RPC batch/) },
        });
      } finally {
        raw.child.kill();
        await raw.exited;
      }
    },
    TIMEOUT_MS,
  );

  it('a batch before initialize, and on a 2025-11-25 connection, is refused as before', async () => {
    const raw = startServeRaw('--mode', 'meta');
    const refused = {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringContaining('batches were removed in 2025-06-18') },
    };
    try {
      const batch = [
        { jsonrpc: '2.0', id: 7, method: 'ping' },
        { jsonrpc: '2.0', id: 8, method: 'ping' },
      ];
      raw.send(batch);
      const before = (await nextAnswer(raw, 0)) as Message;
      expect(before).toEqual(refused);
      // Nothing negotiated yet: no revision to name.
      expect(before.error?.message).not.toContain('negotiated');
      await raw.open();
      const from = raw.notes.length;
      raw.send(batch);
      const after = (await nextAnswer(raw, from)) as Message;
      expect(after).toEqual(refused);
      // Named as over HTTP (one text, request-rules.ts batchRefusal).
      expect(after.error?.message).toContain('and this session negotiated 2025-11-25');
    } finally {
      raw.child.kill();
      await raw.exited;
    }
  });
});

describe('serve over stdio: request rules', () => {
  it(
    'meta mode, two calls in flight with id 5: the second is refused at once naming the id, the first answered',
    async () => {
      const raw = startServeRaw('--mode', 'meta');
      try {
        await raw.open();
        const warm = slowCall(1, 10).params;
        expect((await raw.request('tools/call', warm)).result).toBeDefined();
        raw.send(slowCall(5, 2_000));
        await new Promise((r) => setTimeout(r, 300));
        raw.send(slowCall(5, 10));
        const fives = (): Message[] => (raw.notes as Message[]).filter((m) => m.id === 5);
        const deadline = Date.now() + 20_000;
        while (fives().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        expect(fives()).toEqual([
          {
            jsonrpc: '2.0',
            id: 5,
            error: { code: -32600, message: expect.stringMatching(/request id 5 is already in use/) },
          },
          expect.objectContaining({ id: 5, result: { content: [{ type: 'text', text: 'late' }] } }),
        ]);
      } finally {
        raw.child.kill();
        await raw.exited;
      }
    },
    TIMEOUT_MS,
  );
});
