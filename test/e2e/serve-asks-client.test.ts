// A server behind `serve` asks its client inside a tool call — roots/list, elicitation/create,
// sampling/createMessage — and a real SDK client answers through the proxy. Over Streamable HTTP the client here
// opens no standalone GET stream (like the conformance suite's client): the requests must travel on the call's own
// response stream (relatedRequestId), or they never arrive and the call hangs.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { connectServeStdio, node, sandbox, startServeHttp, textOf, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 60_000;
const ALL: ClientCapabilities = { roots: { listChanged: true }, elicitation: {}, sampling: {} };
const ANSWERED = [
  'roots: file:///stand-in/project',
  'elicitation: accept {"username":"alice"}',
  'sampling: stand-in-model said Welcome, alice!',
].join('\n');

let box: Sandbox;
let config: string;
beforeAll(async () => {
  box = await sandbox('serve-asks');
  config = await box.config('asks.json', { asks: node(fixture('servers', 'asks-client.mjs')) });
});
afterAll(async () => box.remove());

/** Answers the three requests and records what it was asked. */
function answerAll(client: Client): string[] {
  const asked: string[] = [];
  client.setRequestHandler('roots/list', () => {
    asked.push('roots/list');
    return { roots: [{ uri: 'file:///stand-in/project', name: 'project' }] };
  });
  client.setRequestHandler('elicitation/create', (req) => {
    asked.push(`elicitation: ${req.params.message}`);
    return { action: 'accept', content: { username: 'alice' } };
  });
  client.setRequestHandler('sampling/createMessage', (req) => {
    const first = req.params.messages[0]?.content as { type: string; text?: string } | undefined;
    asked.push(`sampling: ${first?.text ?? '?'}`);
    return { model: 'stand-in-model', role: 'assistant', content: { type: 'text', text: 'Welcome, alice!' } };
  });
  return asked;
}

/** fetch that refuses the standalone GET stream (405, as a server without one answers): only POST streams remain. */
const postOnly: typeof fetch = (input, init) =>
  init?.method === 'GET' ? Promise.resolve(new Response(null, { status: 405 })) : fetch(input, init);

describe('serve forwards a server’s requests to the client of the call', () => {
  it(
    'over Streamable HTTP, on the call’s own stream: roots, elicitation and sampling answered inside sign_up',
    async () => {
      const serve = await startServeHttp(box.env, ['--config', config, '--mode', 'tools', '--no-learn']);
      try {
        const client = new Client({ name: 'e2e-asks', version: '1' }, { capabilities: ALL });
        const asked = answerAll(client);
        await client.connect(new StreamableHTTPClientTransport(new URL(serve.url), { fetch: postOnly }));
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['sign_up', 'echo', 'wait']);
        const result = await client.callTool(
          { name: 'sign_up', arguments: { team: 'red' } },
          {
            timeout: 20_000,
          },
        );
        expect(result.isError).toBeFalsy();
        expect(textOf(result)).toBe(ANSWERED);
        expect(asked).toEqual([
          'roots/list',
          'elicitation: Which username for team red?',
          'sampling: Greet the new user.',
        ]);
        await client.close();
      } finally {
        expect(await serve.stop()).toBe(143);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'with two clients connected, the one that made the call is asked — not the one that connected first',
    async () => {
      const serve = await startServeHttp(box.env, ['--config', config, '--mode', 'tools', '--no-learn']);
      try {
        const first = new Client({ name: 'e2e-first', version: '1' }, { capabilities: ALL });
        const firstAsked = answerAll(first);
        await first.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
        const second = new Client({ name: 'e2e-second', version: '1' }, { capabilities: ALL });
        const secondAsked = answerAll(second);
        await second.connect(new StreamableHTTPClientTransport(new URL(serve.url), { fetch: postOnly }));
        const result = await second.callTool(
          { name: 'sign_up', arguments: { team: 'blue' } },
          {
            timeout: 20_000,
          },
        );
        expect(textOf(result)).toBe(ANSWERED);
        expect(secondAsked).toEqual([
          'roots/list',
          'elicitation: Which username for team blue?',
          'sampling: Greet the new user.',
        ]);
        expect(firstAsked).toEqual([]);
        await Promise.all([first.close(), second.close()]);
      } finally {
        expect(await serve.stop()).toBe(143);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'over stdio through call_tool (meta mode); a client that declares none of them gets none declared behind',
    async () => {
      const { client, transport } = await connectServeStdio(
        box.env,
        ['--config', config, '--mode', 'meta', '--no-learn'],
        ALL,
      );
      const asked = answerAll(client);
      const result = await client.callTool({ name: 'call_tool', arguments: { name: 'asks.sign_up', arguments: {} } });
      expect(textOf(result)).toBe(ANSWERED);
      expect(asked).toEqual(['roots/list', 'elicitation: Which username for team ??', 'sampling: Greet the new user.']);
      await client.close();
      expect(transport.pid).toBeNull();

      const plain = await connectServeStdio(box.env, ['--config', config, '--mode', 'meta', '--no-learn'], {});
      const bare = await plain.client.callTool({
        name: 'call_tool',
        arguments: { name: 'asks.sign_up', arguments: { team: 'blue' } },
      });
      expect(textOf(bare)).toBe('roots: not declared\nelicitation: not declared\nsampling: not declared');
      await plain.client.close();
    },
    TIMEOUT_MS,
  );
});
