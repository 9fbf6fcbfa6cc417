// `serve --transport http` under abuse, with the built CLI and a real fixture server behind it: requests that open no
// session keep nothing (counted by serve itself at shutdown with --debug), abandoned sessions expire and are capped,
// a busy port is a usage error before any server starts, the bound address answers its own printed URL, and
// oversize, malformed and slow requests get the documented answers.
import { connect } from 'node:net';
import { request } from 'node:http';
import { spawn } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture } from '../helpers/paths.js';
import { node, sandbox, startServeHttp, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 90_000;
let box: Sandbox;
let config: string;

beforeAll(async () => {
  box = await sandbox('serve-http-limits');
  config = await box.config('servers.json', {
    tiny: node(fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')),
  });
});
afterAll(async () => box.remove());

const SERVE = (): string[] => ['--config', config, '--mode', 'meta', '--no-learn'];
const JSON_AND_SSE = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

interface Answer {
  status: number;
  session: string | undefined;
  text: string;
}

/** One request with exactly these headers (Host included), on its own connection. */
function raw(url: string, method: string, headers: Record<string, string>, body?: string | Buffer): Promise<Answer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += String(d)));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, session: res.headers['mcp-session-id'] as string | undefined, text }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> =>
  raw(url, 'POST', { ...JSON_AND_SSE, ...headers }, JSON.stringify(body));

/**
 * The counts serve --debug prints at shutdown: sessions open, client connections held, list-change listeners, and
 * routes to clients that can be asked (elicitation, sampling, roots).
 */
const HELD =
  /at shutdown: (\d+) HTTP sessions? open, (\d+) client connections? held, (\d+) list-change listeners?, (\d+) client routes?/;
function heldAtShutdown(stderr: string): number[] {
  const m = HELD.exec(stderr);
  if (!m) throw new Error(`no shutdown counts on stderr:\n${stderr}`);
  return m.slice(1, 5).map(Number);
}

/** Opens a 2025 session by hand, declaring `capabilities`, and returns its id. */
async function openSession(url: string, capabilities: Record<string, unknown> = {}): Promise<string> {
  const init = await post(url, { ...INITIALIZE, params: { ...INITIALIZE.params, capabilities } });
  expect(init.status, init.text).toBe(200);
  expect(init.session).toMatch(/^[0-9a-f-]{36}$/);
  return init.session!;
}

describe('serve --transport http keeps nothing a request does not need', () => {
  it(
    '3,000 session-less POSTs of both eras hold no server; idle sessions are closed and release their listeners',
    async () => {
      const serve = await startServeHttp(box.env, [...SERVE(), '--debug', '--session-idle', '1500']);
      expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      try {
        const legacyList = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
        const modernList = { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: ENVELOPE } };
        const modernHeaders = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
        const statuses = new Map<string, number>();
        const count = (kind: string, a: Answer): void => {
          const key = `${kind} ${a.status}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
        };
        for (let i = 0; i < 750; i++) {
          count('2025 request', await post(serve.url, legacyList));
          count('2025 notification', await post(serve.url, { jsonrpc: '2.0', method: 'notifications/initialized' }));
          count('2026 request', await post(serve.url, modernList, modernHeaders));
          // An initialize the transport refuses (no text/event-stream in Accept) opens no session.
          count('refused initialize', await post(serve.url, INITIALIZE, { accept: 'application/json' }));
        }
        expect(Object.fromEntries(statuses)).toEqual({
          '2025 request 400': 750,
          '2025 notification 400': 750,
          '2026 request 200': 750,
          'refused initialize 406': 750,
        });
        // Sessions: one ended with DELETE, three abandoned (each a client that could be asked for elicitation), one
        // kept busy by its open GET stream.
        const ended = await openSession(serve.url);
        expect((await raw(serve.url, 'DELETE', { 'mcp-session-id': ended })).status).toBe(200);
        for (let i = 0; i < 3; i++) {
          const id = await openSession(serve.url, { elicitation: { form: {} } });
          const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
          const sent = await post(serve.url, initialized, {
            'mcp-session-id': id,
            'mcp-protocol-version': '2025-11-25',
          });
          expect(sent.status).toBe(202);
        }
        const busy = await openSession(serve.url);
        const stream = request(new URL(serve.url), {
          method: 'GET',
          headers: { accept: 'text/event-stream', 'mcp-session-id': busy, 'mcp-protocol-version': '2025-11-25' },
          agent: false,
        });
        const streaming = new Promise<number>((resolve) => stream.once('response', (res) => resolve(res.statusCode!)));
        stream.end();
        expect(await streaming).toBe(200);
        await serve.waitForStderr(/(closing a session idle for 1500 ms[^\n]*\n[^]*){3}/, 10_000);
        await new Promise((r) => setTimeout(r, 500));
        const again = await post(serve.url, legacyList, {
          'mcp-session-id': busy,
          'mcp-protocol-version': '2025-11-25',
        });
        expect(again.status, again.text).toBe(200);
        const gone = await post(serve.url, legacyList, { 'mcp-session-id': ended });
        expect([gone.status, JSON.parse(gone.text).error.code]).toEqual([404, -32001]);
        stream.destroy();
      } finally {
        await serve.stop();
      }
      // What serve still held when it stopped: the one session with a stream, nothing from the 3,000 requests.
      expect(heldAtShutdown(serve.stderr())).toEqual([1, 1, 1, 0]);
    },
    TIMEOUT_MS,
  );

  it(
    '--max-sessions: past the cap the session unused the longest is closed; its client gets 404 and may initialize again',
    async () => {
      const serve = await startServeHttp(box.env, [...SERVE(), '--debug', '--max-sessions', '3']);
      const clients: Client[] = [];
      try {
        for (let i = 0; i < 5; i++) {
          const client = new Client({ name: `capped-${i}`, version: '1' }, { versionNegotiation: { mode: 'legacy' } });
          await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
          clients.push(client);
        }
        const lists = await Promise.allSettled(clients.map((c) => c.listTools()));
        expect(lists.map((l) => l.status)).toEqual(['rejected', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
        expect(String((lists[0] as PromiseRejectedResult).reason)).toMatch(/404|Session not found/);
        // Its user starts over: a new session, which in turn closes the one unused the longest (client 2).
        const again = new Client({ name: 'capped-again', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
        await again.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
        clients.push(again);
        expect((await again.listTools()).tools.map((t) => t.name)).toContain('find_tool');
        await expect(clients[2]!.listTools()).rejects.toThrow(/404|Session not found/);
        expect((await clients[4]!.listTools()).tools.length).toBe(5);
        expect(serve.stderr().match(/closing the session unused the longest/g)).toHaveLength(3);
      } finally {
        await serve.stop();
        await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      }
      expect(heldAtShutdown(serve.stderr())).toEqual([3, 3, 3, 0]);
    },
    TIMEOUT_MS,
  );
});

describe('serve --transport http errors', () => {
  it(
    'a port in use is exit 2 naming the port and --port, before any server starts',
    async () => {
      const first = await startServeHttp(box.env, SERVE());
      try {
        const port = new URL(first.url).port;
        const second = spawn(process.execPath, [BIN, 'serve', '--transport', 'http', '--port', port, ...SERVE()], {
          env: box.env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let err = '';
        second.stderr.on('data', (d: Buffer) => (err += String(d)));
        const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
        expect(code).toBe(2);
        expect(err).toContain(`Cannot listen on 127.0.0.1 port ${port}: another program is using that port`);
        expect(err).toContain('Pass another --port, or --port 0');
        expect(err).not.toMatch(/This is a bug|served \(/);
      } finally {
        await first.stop();
      }
    },
    TIMEOUT_MS,
  );

  it(
    '--host 127.0.0.5 answers its own printed URL and any loopback name, and still refuses a foreign Host or Origin',
    async () => {
      const serve = await startServeHttp(box.env, [...SERVE(), '--host', '127.0.0.5']);
      try {
        expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.5:\d+\/mcp$/);
        const client = new Client({ name: 'host-5', version: '1' });
        await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('find_tool');
        await client.close();
        const port = new URL(serve.url).port;
        const status = async (headers: Record<string, string>): Promise<number> =>
          (await post(serve.url, INITIALIZE, headers)).status;
        for (const host of [`127.0.0.5:${port}`, `localhost:${port}`, `[::1]:${port}`, `127.0.0.1:${port}`])
          expect([host, await status({ host })]).toEqual([host, 200]);
        for (const host of [
          `evil.example:${port}`,
          `127.0.0.5.evil.example:${port}`,
          `127.0.0.5:1${port}`,
          '127.0.0.5',
        ])
          expect([host, await status({ host })]).toEqual([host, 403]);
        expect(await status({ origin: `http://127.0.0.5:${port}` })).toBe(200);
        expect(await status({ origin: `http://evil.example:${port}` })).toBe(403);
      } finally {
        await serve.stop();
      }
    },
    TIMEOUT_MS,
  );

  it(
    'oversize, malformed, mistyped and slow requests get 413, 400, 415/406 and 408',
    async () => {
      const serve = await startServeHttp(box.env, SERVE());
      try {
        const big = `{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"pad":"${'x'.repeat(4 * 1024 * 1024)}"}}`;
        const declared = await raw(serve.url, 'POST', JSON_AND_SSE, big);
        expect(declared.status).toBe(413);
        expect(JSON.parse(declared.text).error.message).toContain(
          "over mcp-smart serve's limit of 4 MiB (4194304 bytes)",
        );
        // Without Content-Length (chunked), the read stops at the limit.
        const chunked = await raw(serve.url, 'POST', { ...JSON_AND_SSE, 'transfer-encoding': 'chunked' }, big);
        expect(chunked.status).toBe(413);
        const malformed = await raw(serve.url, 'POST', JSON_AND_SSE, '{"jsonrpc": "2.0", "id": 1,');
        expect([malformed.status, JSON.parse(malformed.text).error.code]).toEqual([400, -32700]);
        const typed = await raw(serve.url, 'POST', { ...JSON_AND_SSE, 'content-type': 'text/plain' }, '{}');
        expect(typed.status).toBe(415);
        expect(JSON.parse(typed.text).error.message).toContain(
          'Content-Type must be application/json (got "text/plain")',
        );
        expect((await post(serve.url, INITIALIZE, { accept: 'application/json' })).status).toBe(406);
        // Headers that never finish: answered 408 and closed by the headers timeout (10 s), not kept open.
        const started = Date.now();
        const slow = await new Promise<string>((resolve) => {
          const u = new URL(serve.url);
          const socket = connect(Number(u.port), u.hostname, () =>
            socket.write(`POST /mcp HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\n`),
          );
          let got = '';
          socket.on('data', (d: Buffer) => (got += String(d)));
          socket.on('error', () => undefined);
          socket.on('close', () => resolve(got.split('\r\n')[0] ?? ''));
        });
        expect(slow).toBe('HTTP/1.1 408 Request Timeout');
        expect(Date.now() - started).toBeLessThan(20_000);
      } finally {
        await serve.stop();
      }
    },
    TIMEOUT_MS,
  );
});
