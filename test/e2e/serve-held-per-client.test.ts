// Held calls are bounded per client and freed with it (issue 41, "per-client state without limits"): a 2025 server
// (asks-client.mjs) asks elicitation/create inside sign_up; one client that leaves its questions unanswered fills its
// own bound — 2026-07-28 calls held between input_required rounds, 2025 calls waiting for the server's ask gate — and
// another client's call still goes through. Without a token serve tells HTTP clients apart by their address, so the
// clients here connect from 127.0.0.2 and 127.0.0.1 (test/helpers/fetch-from.ts).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture } from '../helpers/paths.js';
import { fetchFrom } from '../helpers/fetch-from.js';
import { postModernCall } from '../helpers/modern-call.mjs';
import { closeRawStdio, openRawStdio, type RawStdio } from '../helpers/raw-stdio.js';
import { node, sandbox, startServeHttp, textOf, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 120_000;
const ARGS = ['--mode', 'tools', '--no-learn'];
/** The bounds serve keeps (src/serve/bridge.ts, ask-gate.ts). */
const HELD_PER_CLIENT = 32;
const WAITING_PER_CLIENT = 64;
const ELICIT = { elicitation: {} };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': ELICIT,
};

let box: Sandbox;
beforeAll(async () => {
  box = await sandbox('serve-held-per-client');
});
afterAll(async () => box.remove());

/** A config folder whose server logs each call cancelled to it; `inputTimeout` bounds a held call's wait. */
async function project(name: string, inputTimeout: number): Promise<{ config: string; log: string }> {
  await mkdir(join(box.dir, name));
  const log = join(box.dir, name, 'server.log');
  const config = join(box.dir, name, 'mcp-smart.config.json');
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: { asks: node(fixture('servers', 'asks-client.mjs'), '--log', log) },
      serve: { inputTimeout },
    }),
  );
  return { config, log };
}

const cancelledIn = async (log: string): Promise<number> =>
  (await readFile(log, 'utf8').catch(() => '')).split('\n').filter((l) => l === 'cancelled sign_up').length;

type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string } };
const held = (a: Answer): boolean => a.result?.resultType === 'input_required';

const raws: RawStdio[] = [];
afterEach(async () => closeRawStdio(raws));

describe('held calls are bounded per client and freed with it', () => {
  it(
    'HTTP, 2026-07-28: a client holding 40 unanswered calls keeps 32 and is refused 8 naming the limit; another client still holds and is answered; its calls end at inputTimeout and it holds again',
    async () => {
      const { config, log } = await project('modern', 15_000);
      const serve = await startServeHttp(box.env, ['--config', config, ...ARGS]);
      try {
        const a = fetchFrom('127.0.0.2');
        const call = (team: string, id: number, fetch?: typeof globalThis.fetch): Promise<Answer> =>
          postModernCall(serve.url, { name: 'sign_up', arguments: { team } }, { id, capabilities: ELICIT, fetch });
        const first = await Promise.all(Array.from({ length: 40 }, (_, i) => call(`a${i}`, i + 1, a)));
        const refused = first.filter((r) => !held(r));
        expect(first.filter(held)).toHaveLength(HELD_PER_CLIENT);
        expect(refused).toHaveLength(40 - HELD_PER_CLIENT);
        // Another client (another address) is not starved: its call is held, and its answer completes it.
        const b = await call('b', 100);
        expect(textOf(b.result)).toBe('');
        expect(held(b)).toBe(true);
        const key = Object.keys(b.result!.inputRequests as object)[0]!;
        const done = await postModernCall(
          serve.url,
          {
            name: 'sign_up',
            arguments: { team: 'b' },
            requestState: b.result!.requestState,
            inputResponses: { [key]: { action: 'accept', content: { username: 'user-b' } } },
          },
          { id: 101, capabilities: ELICIT },
        );
        expect(textOf(done.result)).toContain('"username":"user-b"');
        for (const r of refused) {
          expect(r.result?.isError).toBe(true);
          expect(textOf(r.result)).toContain(
            `${HELD_PER_CLIENT} calls of this client are already waiting for its input, the limit per client`,
          );
        }
        // The refused calls were cancelled to the server behind at once.
        await expect.poll(() => cancelledIn(log), { timeout: 10_000 }).toBeGreaterThanOrEqual(40 - HELD_PER_CLIENT);
        // A sessionless client is never known to have gone: its held calls end at serve.inputTimeout (15 s), each
        // cancelled to the server, and then the client has its whole bound again.
        await expect.poll(() => cancelledIn(log), { timeout: 40_000, interval: 500 }).toBe(40);
        expect(serve.stderr()).toMatch(/waited 15000 ms for its client's input and was cancelled/);
        const again = await Promise.all(Array.from({ length: 3 }, (_, i) => call(`again${i}`, 200 + i, a)));
        expect(again.filter(held)).toHaveLength(3);
        expect(serve.stderr()).not.toMatch(/unhealthy|restarting after a failure/);
      } finally {
        expect(await serve.stop()).toBe(143);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'HTTP, 2025 sessions: a client whose question is never answered fills its own 64 waiting calls, not the server’s; another client’s call goes next, and when the first client leaves its calls are freed',
    async () => {
      const { config, log } = await project('legacy', 60_000);
      const serve = await startServeHttp(box.env, ['--config', config, ...ARGS]);
      const connect = async (from: string, answer: boolean) => {
        const client = new Client({ name: `e2e-${from}`, version: '1' }, { capabilities: ELICIT });
        const asked: string[] = [];
        client.setRequestHandler('elicitation/create', (req) => {
          asked.push(req.params.message);
          // The user never answers: the call it asked for keeps the server's ask gate.
          if (!answer) return new Promise<never>(() => undefined);
          const team = /team (\S+)\?/.exec(req.params.message)?.[1] ?? '?';
          return { action: 'accept' as const, content: { username: `user-${team}` } };
        });
        const transport = new StreamableHTTPClientTransport(new URL(serve.url), { fetch: fetchFrom(from) });
        await client.connect(transport);
        return { client, transport, asked };
      };
      try {
        const a = await connect('127.0.0.2', false);
        const calls = Array.from({ length: WAITING_PER_CLIENT + 6 }, (_, i) =>
          a.client.callTool({ name: 'sign_up', arguments: { team: `a${i}` } }, { timeout: 110_000 }).then(
            (r) => ({ r }),
            (e: unknown) => ({ e }),
          ),
        );
        // One runs (its question is unanswered), 64 wait, 5 are refused at once naming the client's bound.
        await expect.poll(() => a.asked.length, { timeout: 20_000 }).toBe(1);
        const settled: { r?: unknown; e?: unknown }[] = [];
        for (const c of calls) void c.then((x) => settled.push(x));
        await expect.poll(() => settled.length, { timeout: 20_000 }).toBe(5);
        // Another client (its own address, answering its questions): not refused; it waits its turn.
        const b = await connect('127.0.0.1', true);
        const bCall = b.client.callTool({ name: 'sign_up', arguments: { team: 'b' } }, { timeout: 110_000 });
        const bSettled = bCall.then((r) => textOf(r));
        await new Promise((r) => setTimeout(r, 1_000));
        expect(await Promise.race([bSettled, Promise.resolve('still waiting')])).toBe('still waiting');
        for (const { r } of settled)
          expect(textOf(r)).toContain(
            `server "asks" is unavailable: this client already has ${WAITING_PER_CLIENT} calls waiting for it, the limit per client`,
          );
        // The first client leaves (DELETE): its running call is cancelled to the server and its 64 waiting calls
        // end without reaching it; the other client's call runs at once.
        const left = Date.now();
        await a.transport.terminateSession();
        await a.client.close();
        expect(textOf(await bCall)).toContain('"username":"user-b"');
        expect(Date.now() - left).toBeLessThan(15_000);
        await expect.poll(() => cancelledIn(log), { timeout: 10_000 }).toBe(1);
        expect(a.asked).toHaveLength(1);
        // Freed: the same address again (a new session) has its whole bound: one running and 64 waiting, none refused.
        const again = await connect('127.0.0.2', true);
        const results = await Promise.all(
          Array.from({ length: WAITING_PER_CLIENT + 1 }, (_, i) =>
            again.client.callTool({ name: 'sign_up', arguments: { team: `z${i}` } }, { timeout: 110_000 }),
          ),
        );
        expect(results.filter((r, i) => !textOf(r).includes(`"username":"user-z${i}"`))).toEqual([]);
        await again.client.close();
        await b.client.close();
        expect(serve.stderr()).not.toMatch(/unhealthy|restarting after a failure/);
      } finally {
        expect(await serve.stop()).toBe(143);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'stdio, 2026-07-28: 40 unanswered calls hold 32 and 8 are refused naming the limit; when the client leaves, every held call is cancelled to the server',
    async () => {
      const { config, log } = await project('stdio', 60_000);
      const s = openRawStdio(process.execPath, [BIN, 'serve', '--config', config, ...ARGS], box.env);
      raws.push(s);
      expect((await s.request('tools/list', { _meta: MODERN_META }, 30_000)).error).toBeUndefined();
      const first = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          s.request('tools/call', { name: 'sign_up', arguments: { team: `t${i}` }, _meta: MODERN_META }, 60_000),
        ),
      );
      const refused = first.filter((r) => !held(r as Answer));
      expect(40 - refused.length).toBe(HELD_PER_CLIENT);
      for (const r of refused)
        expect(textOf(r.result)).toContain(
          `${HELD_PER_CLIENT} calls of this client are already waiting for its input, the limit per client`,
        );
      await expect.poll(() => cancelledIn(log), { timeout: 10_000 }).toBe(40 - HELD_PER_CLIENT);
      // The client goes (its stdin closes): serve releases its held calls and exits.
      s.child.stdin?.end();
      expect(await s.exited).toBe(0);
      await expect.poll(() => cancelledIn(log), { timeout: 10_000 }).toBe(40);
    },
    TIMEOUT_MS,
  );

  it(
    'HTTP, 2026-07-28: a client keeps 32 subscriptions/listen streams open, the 33rd is refused naming the limit; another client still listens; closed streams free the client’s room',
    async () => {
      const { config } = await project('listen', 60_000);
      const serve = await startServeHttp(box.env, ['--config', config, ...ARGS]);
      /** Opens a listen stream; its status, and (when open) the way to close it once acknowledged. */
      const listen = async (id: number, send: typeof fetch) => {
        const abort = new AbortController();
        const res = await send(serve.url, {
          method: 'POST',
          signal: abort.signal,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'subscriptions/listen',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'subscriptions/listen',
            params: { notifications: { toolsListChanged: true }, _meta: MODERN_META },
          }),
        });
        if (res.status !== 200) return { status: res.status, text: await res.text(), close: async () => undefined };
        const reader = res.body!.getReader();
        const first = new TextDecoder().decode((await reader.read()).value);
        const close = async () => {
          abort.abort();
          await reader.cancel().catch(() => undefined);
        };
        return { status: res.status, text: first, close };
      };
      try {
        const a = fetchFrom('127.0.0.2');
        const open = [];
        for (let i = 0; i < 32; i++) open.push(await listen(i + 1, a));
        expect(open.filter((l) => l.text.includes('notifications/subscriptions/acknowledged'))).toHaveLength(32);
        const over = await listen(33, a);
        expect([over.status, over.text]).toEqual([
          429,
          expect.stringContaining('this client already has 32 subscriptions/listen streams open, the limit per client'),
        ]);
        // Another client listens all the same.
        const b = await listen(34, fetch);
        expect([b.status, b.text]).toEqual([200, expect.stringContaining('notifications/subscriptions/acknowledged')]);
        await b.close();
        // The client closes its streams: its room is back.
        for (const l of open) await l.close();
        await expect
          .poll(async () => {
            const again = await listen(35, a);
            await again.close();
            return again.status;
          })
          .toBe(200);
      } finally {
        expect(await serve.stop()).toBe(143);
      }
    },
    TIMEOUT_MS,
  );
});
