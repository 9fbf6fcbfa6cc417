// DirectCalls (src/core/connect/direct-calls.ts): a 2025 tools/call sent beside the SDK's Client must come out as the
// Client's own request would — the same bytes to the server (the Client's next id), the same result object (keys in
// the same order), the same rejection for an error answer, a timeout, an abort and a closed connection, and the same
// notifications/cancelled. Each case runs the same scripted answer through the real SDK Client and through DirectCalls.
import { Client, InMemoryTransport, ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { ResultSchema } from '@modelcontextprotocol/core';
import { describe, expect, it } from 'vitest';
import { DirectCalls, type AnswerTaker, type TakesAnswers } from '../../src/core/connect/direct-calls.js';

type Obj = Record<string, unknown>;

/** The client's side of an in-memory pair, offering answers to its taker first (as stdio.ts's transport does). */
class Taking implements TakesAnswers {
  taker: AnswerTaker | undefined = undefined;
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly sent: Obj[] = [];
  constructor(private readonly inner: Transport) {}
  async start(): Promise<void> {
    this.inner.onmessage = (m) => {
      if (this.taker?.take(m) === true) return;
      this.onmessage?.(m);
    };
    this.inner.onclose = () => {
      try {
        this.onclose?.();
      } finally {
        this.taker?.closed();
      }
    };
    await this.inner.start();
  }
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.sent.push(JSON.parse(JSON.stringify(message)) as Obj);
    return this.inner.send(message, options);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A server that answers initialize, then each tools/call with `answer(name)` (undefined: never). */
async function connected(answer: (name: string) => Obj | undefined) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serverSide.onmessage = (m) => {
    const msg = m as { id?: number; method?: string; params?: { name?: string } };
    if (msg.method === 'initialize') {
      const result = {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 's', version: '1' },
      };
      void serverSide.send({ jsonrpc: '2.0', id: msg.id!, result });
    }
    if (msg.method === 'tools/call') {
      const a = answer(msg.params?.name ?? '');
      if (a) void serverSide.send({ jsonrpc: '2.0', id: msg.id!, ...a } as JSONRPCMessage);
    }
  };
  await serverSide.start();
  const t = new Taking(clientSide);
  const direct = new DirectCalls(t);
  t.taker = direct;
  const client = new Client({ name: 'c', version: '1' });
  await client.connect(t);
  return { client, direct, t, serverSide };
}

const viaSdk = (client: Client, params: Obj, timeout = 5000, signal?: AbortSignal) =>
  client.request({ method: 'tools/call', params }, ResultSchema, { timeout, signal }) as Promise<Obj>;

/** What a promise settles to, comparable: the value's JSON, or the error's class, code, message and data. */
async function outcome(p: Promise<unknown> | undefined): Promise<unknown> {
  try {
    return { value: JSON.stringify(await p) };
  } catch (e) {
    const err = e as { code?: unknown; data?: unknown; message: string };
    return {
      error: e instanceof ProtocolError ? 'ProtocolError' : e instanceof SdkError ? 'SdkError' : 'Error',
      name: (e as Error).constructor.name,
      code: err.code,
      message: err.message,
      data: err.data,
    };
  }
}

const ANSWERS: Record<string, Obj> = {
  plain: { result: { content: [{ type: 'text', text: 'hi' }], isError: false } },
  reordered: { result: { isError: true, structuredContent: { a: 1 }, content: [{ type: 'text', text: 'x' }] } },
  metaLast: { result: { content: [], _meta: { trace: 'abc' } } },
  resultType: { result: { resultType: 'complete', content: [{ type: 'text', text: 't' }], z: [1, { y: null }] } },
  image: {
    result: { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png', annotations: { priority: 1 } }] },
  },
  empty: { result: {} },
  error: { error: { code: -32602, message: 'bad arguments', data: { field: 'q' } } },
  internal: { error: { code: -32603, message: 'boom' } },
  notFound: { error: { code: -32002, message: 'no such resource', data: { uri: 'x://y' } } },
};

describe('DirectCalls beside the SDK Client', () => {
  it('gives every answer as the Client would: the same value (keys in order) or the same error', async () => {
    const { client, direct } = await connected((name) => ANSWERS[name]);
    for (const name of Object.keys(ANSWERS)) {
      const params = { name, arguments: { q: 1 } };
      const sdk = await outcome(viaSdk(client, params));
      const mine = await outcome(direct.call(client, params, 5000, undefined));
      expect(mine, name).toEqual(sdk);
    }
  });

  it("sends the Client's own next id, the same request bytes", async () => {
    const { client, direct, t } = await connected((name) => ANSWERS[name]);
    const params = { name: 'plain', arguments: { q: 'é"\n' } };
    await viaSdk(client, params);
    await direct.call(client, params, 5000, undefined);
    await viaSdk(client, params);
    const calls = t.sent.filter((m) => m.method === 'tools/call');
    expect(calls.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(JSON.stringify({ ...calls[1], id: 0 })).toBe(JSON.stringify({ ...calls[0], id: 0 }));
  });

  it('times out and is aborted as the Client is: the same rejection and the same notifications/cancelled', async () => {
    const { client, direct, t } = await connected(() => undefined);
    const cancels = () => t.sent.filter((m) => m.method === 'notifications/cancelled').map((m) => m.params as Obj);
    const sdkTimeout = await outcome(viaSdk(client, { name: 'hang' }, 30));
    const myTimeout = await outcome(direct.call(client, { name: 'hang' }, 30, undefined));
    expect(myTimeout).toEqual(sdkTimeout);
    expect((sdkTimeout as { code: unknown }).code).toBe(SdkErrorCode.RequestTimeout);
    const [a, b] = cancels();
    expect({ ...b, requestId: 0 }).toEqual({ ...a, requestId: 0 });

    const abortWith = async (run: (s: AbortSignal) => Promise<unknown> | undefined) => {
      const controller = new AbortController();
      const p = outcome(run(controller.signal));
      await new Promise((r) => setTimeout(r, 5));
      controller.abort('the user cancelled');
      return p;
    };
    const sdkAbort = await abortWith((s) => viaSdk(client, { name: 'hang' }, 5000, s));
    const myAbort = await abortWith((s) => direct.call(client, { name: 'hang' }, 5000, s));
    expect(myAbort).toEqual(sdkAbort);
    const [, , c = {}, d = {}] = cancels();
    expect(c.reason).toBe('the user cancelled');
    expect({ ...d, requestId: 0 }).toEqual({ ...c, requestId: 0 });
    // Already aborted: rejected at once, nothing sent.
    const before = t.sent.length;
    const gone = AbortSignal.abort('already');
    expect(await outcome(direct.call(client, { name: 'hang' }, 5000, gone))).toEqual(
      await outcome(viaSdk(client, { name: 'hang' }, 5000, gone)),
    );
    expect(t.sent.length).toBe(before);
  });

  it('times each call out at its own deadline with the one timer, and none that was answered', async () => {
    const { client, direct } = await connected((name) => (name === 'hang' ? undefined : ANSWERS.plain));
    const started = performance.now();
    const at = (p: Promise<unknown> | undefined) => outcome(p).then((o) => ({ o, ms: performance.now() - started }));
    // Answered calls leave the timer armed for their deadline (20 ms): it finds nothing due then.
    for (let i = 0; i < 3; i++) await direct.call(client, { name: 'plain' }, 20, undefined);
    const long = at(direct.call(client, { name: 'hang' }, 150, undefined));
    // A shorter timeout after a longer one: the timer is armed earlier for it (neither ends before its deadline).
    const short = at(direct.call(client, { name: 'hang' }, 40, undefined));
    const [l, s] = await Promise.all([long, short]);
    for (const { o } of [l, s]) expect((o as { code: unknown }).code).toBe(SdkErrorCode.RequestTimeout);
    expect(s.ms).toBeGreaterThanOrEqual(39);
    expect(l.ms).toBeGreaterThanOrEqual(149);
    expect((l.o as { data: unknown }).data).toEqual({ timeout: 150 });
  });

  it('rejects what is pending with the SDK’s ConnectionClosed when the transport closes', async () => {
    const { client, direct, serverSide } = await connected(() => undefined);
    const sdk = outcome(viaSdk(client, { name: 'hang' }));
    const mine = outcome(direct.call(client, { name: 'hang' }, 5000, undefined));
    await new Promise((r) => setTimeout(r, 5));
    await serverSide.close();
    const [a, b] = await Promise.all([sdk, mine]);
    expect(b).toEqual(a);
    expect((a as { code: unknown }).code).toBe(SdkErrorCode.ConnectionClosed);
  });

  it('takes nothing for a Client on another transport; leaves unknown answers to the Protocol', async () => {
    const { client } = await connected((name) => ANSWERS[name]);
    const other = new DirectCalls(new Taking(InMemoryTransport.createLinkedPair()[0]));
    expect(other.call(client, { name: 'plain' }, 5000, undefined)).toBeUndefined();
    expect(other.take({ jsonrpc: '2.0', id: 7, result: {} })).toBe(false);
    expect(other.take({ jsonrpc: '2.0', id: 7, method: 'ping' })).toBe(false);
  });
});
