// serve bridges the two eras of MCP for a server that asks its client mid-call, with real processes:
// - a client pinned to 2026-07-28 calls a 2025 server (asks-client.mjs, SDK v1) that sends roots/list,
//   elicitation/create and sampling/createMessage inside sign_up: serve answers input_required rounds, the client's
//   retries with inputResponses answer the server, and the server's real result comes back (stdio and HTTP);
// - a 2025 client calls a 2026-07-28 server (modern-asks.mjs, SDK v2, 2025 handshake refused) that answers
//   input_required: the client gets the server-initiated requests it understands (stdio);
// - progress and cancellation cross both ways (stdio and HTTP); a held call never retried is cancelled behind;
// - a 2026-07-28 client's subscriptions/listen stream carries a server's tools/list_changed.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture } from '../helpers/paths.js';
import { postModernCall } from '../helpers/modern-call.mjs';
import { node, sandbox, startServeHttp, textOf, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 60_000;
const ALL: ClientCapabilities = { roots: { listChanged: true }, elicitation: {}, sampling: {} };
const MODERN = { pin: '2026-07-28' } as const;
const ANSWERED = [
  'roots: file:///stand-in/project',
  'elicitation: accept {"username":"alice"}',
  'sampling: stand-in-model said Welcome, alice!',
].join('\n');

let box: Sandbox;
let legacyBackend: string;
let modernBackend: string;
let made = 0;
beforeAll(async () => {
  box = await sandbox('serve-bridge');
  legacyBackend = (await backend('asks-client.mjs')).config;
  modernBackend = (await backend('modern-asks.mjs')).config;
});
afterAll(async () => box.remove());

/** A config with one fixture server that logs the cancellations it receives to its own file. */
async function backend(script: string, serve?: object): Promise<{ config: string; log: string }> {
  const log = join(box.dir, `backend-${++made}.log`);
  // Our own config file (its `serve` section is read), one folder per backend.
  await mkdir(join(box.dir, `b${made}`));
  const file = join(box.dir, `b${made}`, 'mcp-smart.config.json');
  await writeFile(
    file,
    JSON.stringify({ mcpServers: { asks: node(fixture('servers', script), '--log', log) }, ...(serve && { serve }) }),
  );
  return { config: file, log };
}

const ARGS = (config: string): string[] => ['--config', config, '--mode', 'tools', '--no-learn'];
const stdio = (config: string): StdioClientTransport =>
  new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', ...ARGS(config)], env: box.env });

/** A client that answers the three requests and records what it was asked. */
async function connect(
  transport: Transport,
  mode: 'legacy' | typeof MODERN,
  capabilities: ClientCapabilities = ALL,
): Promise<{ client: Client; asked: string[] }> {
  const client = new Client({ name: 'e2e-bridge', version: '1' }, { capabilities, versionNegotiation: { mode } });
  const asked: string[] = [];
  client.setRequestHandler('roots/list', () => {
    asked.push('roots/list');
    return { roots: [{ uri: 'file:///stand-in/project', name: 'project' }] };
  });
  client.setRequestHandler('elicitation/create', (req) => {
    asked.push(`elicitation: ${req.params.message}`);
    return { action: 'accept', content: { username: 'alice' } };
  });
  client.setRequestHandler('sampling/createMessage', () => {
    asked.push('sampling');
    return { model: 'stand-in-model', role: 'assistant', content: { type: 'text', text: 'Welcome, alice!' } };
  });
  await client.connect(transport);
  return { client, asked };
}

const ASKED = ['roots/list', 'elicitation: Which username for team red?', 'sampling'];

/** Resolves once the backend's log has a line matching `pattern` (it is written when the cancellation arrives). */
async function logged(log: string, pattern: RegExp, ms = 10_000): Promise<string> {
  const until = Date.now() + ms;
  for (;;) {
    const text = await readFile(log, 'utf8').catch(() => '');
    if (pattern.test(text) || Date.now() > until) return text;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Calls `wait`: two progress notifications arrive, then the client cancels; the server behind logs the cancel. */
async function progressThenCancel(client: Client, log: string): Promise<void> {
  const progress: number[] = [];
  const abort = new AbortController();
  const call = client.callTool(
    { name: 'wait', arguments: { steps: 2 } },
    {
      signal: abort.signal,
      onprogress: (p) => {
        progress.push(p.progress);
        if (progress.length === 2) abort.abort('the user stopped it');
      },
    },
  );
  await expect(call).rejects.toThrow();
  expect(progress).toEqual([1, 2]);
  expect(await logged(log, /cancelled wait/)).toBe('cancelled wait\n');
}

describe('a 2026-07-28 client, a 2025 server that asks mid-call', () => {
  it(
    'over stdio: the server is answered through input_required rounds and its real result comes back',
    async () => {
      const { client, asked } = await connect(stdio(legacyBackend), MODERN);
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
        const result = await client.callTool({ name: 'sign_up', arguments: { team: 'red' } });
        expect(textOf(result)).toBe(ANSWERED);
        expect(asked).toEqual(ASKED);
        // The first round, taken by hand: the server's first request, as an input request, and a requestState.
        const first = await client.request(
          { method: 'tools/call', params: { name: 'sign_up', arguments: { team: 'red' } } },
          { allowInputRequired: true },
        );
        expect(first).toMatchObject({
          resultType: 'input_required',
          inputRequests: { 'roots-1': { method: 'roots/list' } },
        });
        expect(typeof (first as { requestState?: unknown }).requestState).toBe('string');
      } finally {
        await client.close();
      }
    },
    TIMEOUT_MS,
  );

  it(
    'through call_tool in meta mode as well',
    async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'serve', '--config', legacyBackend, '--mode', 'meta', '--no-learn'],
        env: box.env,
      });
      const { client, asked } = await connect(transport, MODERN);
      try {
        const result = await client.callTool({
          name: 'call_tool',
          arguments: { name: 'asks.sign_up', arguments: { team: 'red' } },
        });
        expect(textOf(result)).toBe(ANSWERED);
        expect(asked).toEqual(ASKED);
      } finally {
        await client.close();
      }
    },
    TIMEOUT_MS,
  );

  it(
    'progress reaches the client and a cancellation reaches the server behind',
    async () => {
      const { config, log } = await backend('asks-client.mjs');
      const { client } = await connect(stdio(config), MODERN);
      try {
        await progressThenCancel(client, log);
      } finally {
        await client.close();
      }
    },
    TIMEOUT_MS,
  );
});

/** A 2026-07-28 tools/call over HTTP, as the wire carries it (test/helpers/modern-call.mjs). */
const post = (url: string, id: number, params: Record<string, unknown>): ReturnType<typeof postModernCall> =>
  postModernCall(url, params, { id });

describe('a 2026-07-28 client over Streamable HTTP, a 2025 server that asks mid-call', () => {
  it(
    'an SDK client is answered through rounds; by hand, each round names a fresh requestState and a spent or tampered one is refused',
    async () => {
      const serve = await startServeHttp(box.env, ARGS(legacyBackend));
      try {
        const { client, asked } = await connect(new StreamableHTTPClientTransport(new URL(serve.url)), MODERN);
        expect(textOf(await client.callTool({ name: 'sign_up', arguments: { team: 'red' } }))).toBe(ANSWERED);
        expect(asked).toEqual(ASKED);
        await client.close();

        const call = { name: 'sign_up', arguments: { team: 'blue' } };
        const r1 = (await post(serve.url, 1, call)).result!;
        expect(r1).toMatchObject({
          resultType: 'input_required',
          inputRequests: { 'roots-1': { method: 'roots/list' } },
        });
        const tampered = await post(serve.url, 2, {
          ...call,
          requestState: `${String(r1.requestState)}-TAMPERED`,
          inputResponses: { 'roots-1': { roots: [] } },
        });
        expect(tampered.error?.code).toBe(-32602);
        const roots = { roots: [{ uri: 'file:///raw', name: 'raw' }] };
        const r2 = (
          await post(serve.url, 3, { ...call, requestState: r1.requestState, inputResponses: { 'roots-1': roots } })
        ).result!;
        expect(r2.resultType).toBe('input_required');
        expect(r2.requestState).not.toBe(r1.requestState);
        expect(r2.inputRequests).toMatchObject({
          'elicitation-2': { method: 'elicitation/create', params: { message: 'Which username for team blue?' } },
        });
        const spent = await post(serve.url, 4, { ...call, requestState: r1.requestState, inputResponses: {} });
        expect(spent.error?.code).toBe(-32602);
        // A retry that leaves the request unanswered is asked it again.
        const again = (await post(serve.url, 5, { ...call, requestState: r2.requestState, inputResponses: {} }))
          .result!;
        expect(Object.keys(again.inputRequests as object)).toEqual(['elicitation-2']);
        const r3 = (
          await post(serve.url, 6, {
            ...call,
            requestState: again.requestState,
            inputResponses: { 'elicitation-2': { action: 'accept', content: { username: 'bob' } } },
          })
        ).result!;
        expect(Object.keys(r3.inputRequests as object)).toEqual(['sampling-3']);
        const done = (
          await post(serve.url, 7, {
            ...call,
            requestState: r3.requestState,
            inputResponses: {
              'sampling-3': { model: 'raw-model', role: 'assistant', content: { type: 'text', text: 'Hello bob' } },
            },
          })
        ).result!;
        expect(done.resultType).toBe('complete');
        expect(textOf(done)).toBe(
          'roots: file:///raw\nelicitation: accept {"username":"bob"}\nsampling: raw-model said Hello bob',
        );
      } finally {
        expect(await serve.stop()).toBe(143);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'a held call never retried is cancelled behind after serve.inputTimeout, and its requestState is refused',
    async () => {
      const { config, log } = await backend('asks-client.mjs', { inputTimeout: 1500 });
      const serve = await startServeHttp(box.env, ARGS(config));
      try {
        const call = { name: 'sign_up', arguments: { team: 'gone' } };
        const r1 = (await post(serve.url, 1, call)).result!;
        expect(r1.resultType).toBe('input_required');
        expect(await readFile(log, 'utf8').catch(() => '')).toBe('');
        await serve.waitForStderr(/waited 1500 ms for its client's input and was cancelled/);
        expect(await logged(log, /cancelled sign_up/)).toBe('cancelled sign_up\n');
        const late = await post(serve.url, 2, { ...call, requestState: r1.requestState, inputResponses: {} });
        expect(late.error?.code).toBe(-32602);
      } finally {
        expect(await serve.stop()).toBe(143);
      }
    },
    TIMEOUT_MS,
  );
});

describe('over Streamable HTTP, both ways: asked mid-call, progress, cancellation', () => {
  it(
    'a 2026-07-28 client and a 2025 server; a 2025 client and a 2026-07-28 server',
    async () => {
      for (const [script, mode] of [
        ['asks-client.mjs', MODERN],
        ['modern-asks.mjs', 'legacy'],
      ] as const) {
        const { config, log } = await backend(script);
        const serve = await startServeHttp(box.env, ARGS(config));
        try {
          const { client, asked } = await connect(new StreamableHTTPClientTransport(new URL(serve.url)), mode);
          expect(textOf(await client.callTool({ name: 'sign_up', arguments: { team: 'red' } }))).toBe(ANSWERED);
          expect([...asked].sort()).toEqual([...ASKED].sort());
          await progressThenCancel(client, log);
          await client.close();
        } finally {
          expect(await serve.stop()).toBe(143);
        }
      }
    },
    TIMEOUT_MS,
  );
});

describe('a 2026-07-28 server that answers input_required', () => {
  it(
    'over stdio: the client gets the server-initiated requests, and serve retries the server with the answers',
    async () => {
      const { client, asked } = await connect(stdio(modernBackend), 'legacy');
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
        expect(textOf(await client.callTool({ name: 'sign_up', arguments: { team: 'red' } }))).toBe(ANSWERED);
        expect([...asked].sort()).toEqual([...ASKED].sort());
      } finally {
        await client.close();
      }
    },
    TIMEOUT_MS,
  );

  it(
    'a 2026-07-28 client calling it gets the rounds as rounds',
    async () => {
      const { client, asked } = await connect(stdio(modernBackend), MODERN);
      try {
        expect(textOf(await client.callTool({ name: 'sign_up', arguments: { team: 'red' } }))).toBe(ANSWERED);
        expect([...asked].sort()).toEqual([...ASKED].sort());
      } finally {
        await client.close();
      }
    },
    TIMEOUT_MS,
  );

  it(
    'progress reaches the client and a cancellation reaches the 2026-07-28 server',
    async () => {
      const { config, log } = await backend('modern-asks.mjs');
      const { client } = await connect(stdio(config), 'legacy');
      try {
        await progressThenCancel(client, log);
      } finally {
        await client.close();
      }
    },
    TIMEOUT_MS,
  );
});

describe('subscriptions/listen', () => {
  const storm = (): Promise<string> =>
    box.config('storm.json', { storm: node(fixture('servers', 'misbehaving', 'list-changed-storm.mjs')) });

  async function listenThenChange(transport: Transport): Promise<string[]> {
    const client = new Client({ name: 'e2e-listen', version: '1' }, { versionNegotiation: { mode: MODERN } });
    await client.connect(transport);
    try {
      const heard: string[] = [];
      let changed!: () => void;
      const arrived = new Promise<void>((r) => (changed = r));
      client.setNotificationHandler('notifications/tools/list_changed', () => {
        heard.push('tools/list_changed');
        changed();
      });
      const before = (await client.listTools()).tools.map((t) => t.name);
      expect(before).toContain('v0');
      const sub = await client.listen({ toolsListChanged: true });
      expect(sub.honoredFilter.toolsListChanged).toBe(true);
      await client.callTool({ name: 'storm', arguments: { count: 1 } });
      await arrived;
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('v1');
      await sub.close();
      return heard;
    } finally {
      await client.close();
    }
  }

  it(
    'over stdio, a server’s tools/list_changed reaches a 2026-07-28 client on its listen stream',
    async () => {
      expect(await listenThenChange(stdio(await storm()))).toContain('tools/list_changed');
    },
    TIMEOUT_MS,
  );

  it(
    'over Streamable HTTP too',
    async () => {
      const serve = await startServeHttp(box.env, ARGS(await storm()));
      try {
        expect(await listenThenChange(new StreamableHTTPClientTransport(new URL(serve.url)))).toContain(
          'tools/list_changed',
        );
      } finally {
        expect(await serve.stop()).toBe(143);
      }
    },
    TIMEOUT_MS,
  );
});
