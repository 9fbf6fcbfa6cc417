// A 2025 server behind serve that answers a call with -32042 (URL elicitation required, MCP 2025-11-25; fixture
// asks-client.mjs --url-elicitation, connect_account): a 2025 client gets the error and its data unchanged; a client
// on 2026-07-28, which has no such error (the SDK answered it -32603, losing the code and the URL), gets the URL
// elicitation as an input_required round, and its retry runs the call to the server again. Real processes.
// A prompt or resource read whose URL elicitation the user declines ends with a JSON-RPC error (-32603): it had been
// answered with a tool's error result, which is no GetPromptResult nor ReadResourceResult.
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ElicitResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { postModernCall } from '../helpers/modern-call.mjs';
import { connectServeStdio, node, sandbox, startServeHttp, textOf, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 60_000;
const URL_CAPS = { elicitation: { form: {}, url: {} } };
const authorize = (account: string): Record<string, unknown> => ({
  mode: 'url',
  url: `https://auth.example/authorize?account=${account}`,
  message: `Authorize ${account}.`,
});

let box: Sandbox;
let args: string[];
beforeAll(async () => {
  box = await sandbox('serve-url-elicitation');
  const config = await box.config('servers.json', {
    accounts: node(fixture('servers', 'asks-client.mjs'), '--url-elicitation'),
  });
  args = ['--config', config, '--mode', 'tools', '--no-learn'];
});
afterAll(async () => box.remove());

describe('a server behind answers -32042 (URL elicitation required)', () => {
  it(
    'over Streamable HTTP: 2025 gets -32042 with its elicitations; 2026-07-28 gets a URL round, and its retry calls again',
    async () => {
      const serve = await startServeHttp(box.env, args);
      try {
        const legacy = new Client({ name: 'e2e-2025', version: '1' }, { capabilities: URL_CAPS });
        await legacy.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
        const failed = await legacy.callTool({ name: 'connect_account', arguments: { account: 'old' } }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(failed).toBeInstanceOf(ProtocolError);
        expect((failed as ProtocolError).code).toBe(-32042);
        expect((failed as ProtocolError).data).toEqual({
          elicitations: [{ ...authorize('old'), elicitationId: 'authorize-old' }],
        });
        // So is a prompt's (unchanged: the server's error passes through on 2025).
        const prompt = await legacy.getPrompt({ name: 'account_summary', arguments: { account: 'old' } }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect((prompt as ProtocolError).code).toBe(-32042);
        expect((prompt as ProtocolError).data).toEqual({
          elicitations: [{ ...authorize('old'), elicitationId: 'authorize-old' }],
        });
        await legacy.close();

        const call = { name: 'connect_account', arguments: { account: 'new' } };
        const round = await postModernCall(serve.url, call, { id: 1, capabilities: URL_CAPS });
        expect(round.error).toBeUndefined();
        expect(round.result).toMatchObject({
          resultType: 'input_required',
          inputRequests: { 'elicitation-1': { method: 'elicitation/create', params: authorize('new') } },
        });
        const retry = {
          ...call,
          requestState: round.result!.requestState,
          inputResponses: { 'elicitation-1': { action: 'accept' } },
        };
        const done = await postModernCall(serve.url, retry, { id: 2, capabilities: URL_CAPS });
        expect(done.result).toMatchObject({ resultType: 'complete', content: [{ text: 'connected new' }] });

        // Declined: the call ends with an error result naming the answer; the server is not called again.
        const other = { name: 'connect_account', arguments: { account: 'no' } };
        const asked = await postModernCall(serve.url, other, { id: 3, capabilities: URL_CAPS });
        const declined = await postModernCall(
          serve.url,
          {
            ...other,
            requestState: asked.result!.requestState,
            inputResponses: { 'elicitation-1': { action: 'decline' } },
          },
          { id: 4, capabilities: URL_CAPS },
        );
        expect(declined.result).toMatchObject({ isError: true });
        expect(textOf(declined.result)).toContain('"decline"');

        // A request that does not declare URL elicitation cannot be asked it: -32021 naming elicitation.url.
        const form = { name: 'connect_account', arguments: { account: 'form' } };
        const refused = await postModernCall(serve.url, form, { id: 5, capabilities: { elicitation: { form: {} } } });
        expect(refused.error).toMatchObject({
          code: -32021,
          data: { requiredCapabilities: { elicitation: { url: {} } } },
        });
      } finally {
        expect(await serve.stop()).toBe(143);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'over Streamable HTTP, 2026-07-28: a declined or cancelled URL round of prompts/get and resources/read is a JSON-RPC error',
    async () => {
      const serve = await startServeHttp(box.env, args);
      let id = 0;
      try {
        const requests = [
          ['prompts/get', (a: string) => ({ name: 'account_summary', arguments: { account: a } })],
          ['resources/read', (a: string) => ({ uri: `account://${a}/profile` })],
        ] as const;
        for (const [method, params] of requests)
          for (const action of ['decline', 'cancel', 'accept']) {
            const account = `${method.split('/')[0]}-${action}`;
            const opts = { capabilities: URL_CAPS, method };
            const round = await postModernCall(serve.url, params(account), { ...opts, id: ++id });
            expect(round.result).toMatchObject({
              resultType: 'input_required',
              inputRequests: { 'elicitation-1': { method: 'elicitation/create', params: authorize(account) } },
            });
            const retry = {
              ...params(account),
              requestState: round.result!.requestState,
              inputResponses: { 'elicitation-1': { action } },
            };
            const answer = await postModernCall(serve.url, retry, { ...opts, id: ++id });
            if (action === 'accept') {
              // Accepted: the request is made again and the server's own answer comes back.
              expect(answer.error).toBeUndefined();
              expect(JSON.stringify(answer.result)).toContain(
                method === 'prompts/get' ? `Summarise account ${account}.` : `profile of ${account}`,
              );
              continue;
            }
            expect(answer.result).toBeUndefined();
            expect(answer.error).toEqual({
              code: -32603,
              message: expect.stringContaining(`URL elicitation first, and the answer was "${action}"`),
            });
          }
      } finally {
        expect(await serve.stop()).toBe(143);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'over stdio: an SDK client pinned to 2026-07-28 that declines gets an error from getPrompt and readResource',
    async () => {
      const { client } = await connectServeStdio(box.env, args, URL_CAPS, true);
      client.setRequestHandler('elicitation/create', (): ElicitResult => ({ action: 'decline' }));
      try {
        for (const request of [
          () => client.getPrompt({ name: 'account_summary', arguments: { account: 'stdio' } }),
          () => client.readResource({ uri: 'account://stdio/profile' }),
        ]) {
          const failed = await request().then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(failed).toBeInstanceOf(ProtocolError);
          expect((failed as ProtocolError).code).toBe(-32603);
          expect((failed as ProtocolError).message).toContain(
            'the answer was "decline"; the request was not made again',
          );
        }
      } finally {
        await client.close();
      }
    },
    TIMEOUT_MS,
  );

  it(
    'over stdio: an SDK client pinned to 2026-07-28 is asked the URL and gets the result of the call made again',
    async () => {
      const { client } = await connectServeStdio(box.env, args, URL_CAPS, true);
      const asked: unknown[] = [];
      client.setRequestHandler('elicitation/create', (req) => {
        asked.push(req.params);
        return { action: 'accept' };
      });
      try {
        const result = await client.callTool({ name: 'connect_account', arguments: { account: 'sdk' } });
        expect(textOf(result)).toBe('connected sdk');
        expect(asked).toEqual([authorize('sdk')]);
      } finally {
        await client.close();
      }
    },
    TIMEOUT_MS,
  );
});
