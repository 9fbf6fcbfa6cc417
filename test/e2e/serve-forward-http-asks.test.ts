// A 2025 session whose client declared elicitation, sampling or roots (every real client does) has its plain
// forwarded calls answered outside the SDK (src/serve/http-forward-calls.ts) until the server behind asks the client
// something: then the call, still running, is handed to the session's transport and the SDK's handler, which asks
// on the call's own stream and answers with the call's outcome. Where the user meets it (the built CLI, the
// asks-client fixture behind, real SDK clients over real HTTP that open no standalone GET stream, and raw requests):
// - a call that asks nothing is written by the fast path (`jsonrpc` first; the SDK's Server writes `result` first);
// - roots, elicitation and sampling asked inside a call reach the client on that call's stream and its answers come
//   back (accept, decline, cancel), the answer then written by the SDK, equal to the SDK path's;
// - a client that never answers and cancels the call: the server behind is told, no answer is sent, the session
//   goes on (the server's ask gate is free again), and once the client is gone the session has nothing in flight
//   (it is closed for idleness: nothing leaked).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import {
  node,
  rawHttpSession,
  sandbox,
  startServeHttp,
  textOf,
  type Sandbox,
  type StartedServe,
} from './serve-harness.js';

const TIMEOUT_MS = 60_000;
const ALL: ClientCapabilities = { roots: { listChanged: true }, elicitation: {}, sampling: {} };
/** What Claude Code declares (src/core/declared-capabilities.ts). */
const CLAUDE_LIKE = { roots: { listChanged: true }, elicitation: { form: {}, url: {} } };
const ANSWERED = [
  'roots: file:///stand-in/project',
  'elicitation: accept {"username":"alice"}',
  'sampling: stand-in-model said Welcome, alice!',
].join('\n');

let box: Sandbox;
let config: string;
let logFile: string;
let serve: StartedServe;
beforeAll(async () => {
  box = await sandbox('serve-forward-asks');
  logFile = join(box.dir, 'asks.log');
  config = await box.config('asks.json', { asks: node(fixture('servers', 'asks-client.mjs'), '--log', logFile) });
  serve = await startServeHttp(box.env, ['--config', config, '--mode', 'tools', '--no-learn']);
}, TIMEOUT_MS);
afterAll(async () => {
  await serve?.stop();
  await box?.remove();
});

/** The data of each SSE event in `text`. */
const dataOf = (text: string): string[] =>
  text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => l.slice(6));

/**
 * fetch that refuses the standalone GET stream (so a server's request can only travel on the call's own stream) and
 * keeps the text of each tools/call response stream in `streams`.
 */
function postOnly(streams: Promise<string>[]): typeof fetch {
  return async (input, init) => {
    if (init?.method === 'GET') return new Response(null, { status: 405 });
    const res = await fetch(input, init);
    const body = typeof init?.body === 'string' ? init.body : '';
    if (body.includes('"tools/call"') && res.headers.get('content-type')?.startsWith('text/event-stream'))
      streams.push(res.clone().text());
    return res;
  };
}

/** Answers the three requests (elicitation with `action`) and records what it was asked. */
function answerAll(client: Client, action: 'accept' | 'decline' | 'cancel' = 'accept'): string[] {
  const asked: string[] = [];
  client.setRequestHandler('roots/list', () => {
    asked.push('roots/list');
    return { roots: [{ uri: 'file:///stand-in/project', name: 'project' }] };
  });
  client.setRequestHandler('elicitation/create', (req) => {
    asked.push(`elicitation: ${req.params.message}`);
    return action === 'accept' ? { action, content: { username: 'alice' } } : { action };
  });
  client.setRequestHandler('sampling/createMessage', () => {
    asked.push('sampling');
    return { model: 'stand-in-model', role: 'assistant', content: { type: 'text', text: 'Welcome, alice!' } };
  });
  return asked;
}

describe('a client that may be asked: plain calls on the fast path, questions on the call’s stream', () => {
  it(
    'SDK v2 client declaring roots, elicitation and sampling: echo written by the fast path, sign_up’s three questions answered, the same answer as the SDK path',
    async () => {
      const streams: Promise<string>[] = [];
      const client = new Client({ name: 'asks-v2', version: '1' }, { capabilities: ALL });
      const asked = answerAll(client);
      await client.connect(new StreamableHTTPClientTransport(new URL(serve.url), { fetch: postOnly(streams) }));
      try {
        const echo = await client.callTool({ name: 'echo', arguments: { text: 'plain' } });
        expect(textOf(echo)).toBe('plain');
        const [echoed] = await Promise.all(streams.splice(0));
        expect(dataOf(echoed!)).toHaveLength(1);
        expect(dataOf(echoed!)[0]!.startsWith('{"jsonrpc":"2.0","id":')).toBe(true);

        const fast = await client.callTool({ name: 'sign_up', arguments: { team: 'red' } }, { timeout: 20_000 });
        expect(textOf(fast)).toBe(ANSWERED);
        expect(asked.splice(0)).toEqual(['roots/list', 'elicitation: Which username for team red?', 'sampling']);
        // The questions and the answer on the call's own stream (no GET stream here); the answer the SDK's.
        const messages = dataOf((await Promise.all(streams.splice(0)))[0]!).map(
          (d) => JSON.parse(d) as { method?: string },
        );
        expect(messages.map((m) => m.method ?? 'answer')).toEqual([
          'roots/list',
          'elicitation/create',
          'sampling/createMessage',
          'answer',
        ]);
        expect(Object.keys(messages[3]!)[0]).toBe('result');

        // The SDK path: the same call with a progress token (which the fast path leaves to the SDK).
        const sdk = await client.callTool(
          { name: 'sign_up', arguments: { team: 'red' } },
          { timeout: 20_000, onprogress: () => undefined },
        );
        expect(sdk).toEqual(fast);
        expect(asked).toEqual(['roots/list', 'elicitation: Which username for team red?', 'sampling']);
      } finally {
        await client.close();
      }
    },
    TIMEOUT_MS,
  );

  it(
    'SDK v2 client: elicitation declined and cancelled come back to the server as such',
    async () => {
      for (const action of ['decline', 'cancel'] as const) {
        const client = new Client({ name: `asks-${action}`, version: '1' }, { capabilities: ALL });
        answerAll(client, action);
        await client.connect(new StreamableHTTPClientTransport(new URL(serve.url), { fetch: postOnly([]) }));
        try {
          const result = await client.callTool({ name: 'sign_up', arguments: { team: 'x' } }, { timeout: 20_000 });
          expect(textOf(result)).toContain(`elicitation: ${action} {}`);
          expect(textOf(result)).toContain('sampling: stand-in-model said Welcome, alice!');
        } finally {
          await client.close();
        }
      }
    },
    TIMEOUT_MS,
  );

  it(
    'SDK v1 client declaring elicitation and sampling (its own GET stream open): asked on the call’s stream',
    async () => {
      const capabilities = { elicitation: {}, sampling: {} };
      const client = new ClientV1({ name: 'asks-v1', version: '1' }, { capabilities });
      client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { username: 'bob' } }));
      client.setRequestHandler(CreateMessageRequestSchema, () => ({
        model: 'v1-model',
        role: 'assistant',
        content: { type: 'text', text: 'Hi bob' },
      }));
      await client.connect(new HttpV1(new URL(serve.url)));
      try {
        const result = await client.callTool({ name: 'sign_up', arguments: { team: 'v1' } });
        expect(textOf(result)).toContain('elicitation: accept {"username":"bob"}\nsampling: v1-model said Hi bob');
        expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe('after');
      } finally {
        await client.close();
      }
    },
    TIMEOUT_MS,
  );
});

/** Reads SSE events off a response body one at a time. */
function eventReader(res: Response): () => Promise<Record<string, unknown>> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  return async () => {
    for (;;) {
      const end = buffered.indexOf('\n\n');
      if (end >= 0) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = dataOf(event + '\n');
        if (data.length > 0) return JSON.parse(data[0]!) as Record<string, unknown>;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffered += decoder.decode(value, { stream: true });
    }
  };
}

/**
 * sign_up in a raw session: roots/list answered, elicitation/create never; then the call cancelled and the client
 * gone. The stream's status and headers (but Date and the framing) and what it carried.
 */
async function askedAndAbandoned(
  url: string,
  headers: Record<string, string>,
  id: number,
  meta: Record<string, unknown> = {},
): Promise<{ status: number; headers: [string, string][]; methods: unknown[] }> {
  const post = (body: unknown): Promise<Response> =>
    fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const gone = new AbortController();
  const res = await fetch(url, {
    method: 'POST',
    headers,
    signal: gone.signal,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'sign_up', arguments: { team: 'raw' }, _meta: meta },
    }),
  });
  const next = eventReader(res);
  const roots = await next();
  expect(roots.method).toBe('roots/list');
  const answer = await post({ jsonrpc: '2.0', id: roots.id, result: { roots: [] } });
  expect(answer.status).toBe(202);
  const elicit = await next();
  expect(elicit.method).toBe('elicitation/create');
  const cancel = await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } });
  expect(cancel.status).toBe(202);
  gone.abort();
  const framing = new Set(['date', 'content-length', 'transfer-encoding']);
  return {
    status: res.status,
    headers: [...res.headers].filter(([k]) => !framing.has(k)),
    methods: [roots.method, elicit.method],
  };
}

describe('a client that never answers the question', () => {
  it(
    'cancels the call: the server behind is told, the session goes on, and nothing stays in flight',
    async () => {
      const own = await startServeHttp(box.env, [
        '--config',
        config,
        '--mode',
        'tools',
        '--no-learn',
        '--debug',
        '--session-idle',
        '1500',
      ]);
      try {
        const headers = await rawHttpSession(own.url, CLAUDE_LIKE);
        const fast = await askedAndAbandoned(own.url, headers, 1);
        // The same stream as the SDK path's (the call with a progress token, which the fast path leaves to the SDK).
        const sdk = await askedAndAbandoned(own.url, headers, 2, { progressToken: 'p' });
        expect(fast).toEqual(sdk);
        expect(fast.status).toBe(200);
        expect(fast.headers).toContainEqual(['content-type', 'text/event-stream']);
        expect(fast.headers).toContainEqual(['mcp-session-id', headers['mcp-session-id']!]);
        // The server behind was told each time (its call ends; the gate of a call that may be asked is free again).
        await expect
          .poll(async () => readFile(logFile, 'utf8').catch(() => ''), { timeout: 10_000 })
          .toMatch(/(cancelled sign_up\n[^]*){2}/);
        // The session goes on: a call to the same server, on the fast path.
        const echo = await fetch(own.url, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 3,
            method: 'tools/call',
            params: { name: 'echo', arguments: { text: 'still here' } },
          }),
        });
        const data = dataOf(await echo.text());
        expect(data[0]!.startsWith('{"jsonrpc":"2.0","id":3')).toBe(true);
        expect(textOf((JSON.parse(data[0]!) as { result: unknown }).result)).toBe('still here');
        // Nothing of the abandoned calls is in flight: the session is closed for idleness.
        await own.waitForStderr(/closing a session idle for 1500 ms/, 15_000);
      } finally {
        await own.stop();
      }
    },
    TIMEOUT_MS,
  );
});
