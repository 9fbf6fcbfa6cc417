// Whose question is it: a 2025 server (asks-client.mjs) asks elicitation/create inside sign_up, and the wire does not
// say for which call. Many calls at once, from one 2026-07-28 client over stdio and from several clients over
// Streamable HTTP: every question reaches the client whose call asked it (its team is in the question), every
// answer reaches the call that asked, nothing hangs, and the server stays healthy. A 2026-07-28 call held between
// input_required rounds leaves the server's ask gate while its client decides and enters again to resume: a round its
// client abandons holds up no other call.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture } from '../helpers/paths.js';
import { closeRawStdio, openRawStdio, type RawStdio } from '../helpers/raw-stdio.js';
import { node, sandbox, startServeHttp, textOf, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 90_000;
const MODERN = { pin: '2026-07-28' } as const;
const ALL = { roots: { listChanged: true }, elicitation: {}, sampling: {} };

let box: Sandbox;
let config: string;
beforeAll(async () => {
  box = await sandbox('serve-ask-attribution');
  await mkdir(join(box.dir, 'p'));
  config = join(box.dir, 'p', 'mcp-smart.config.json');
  // inputTimeout 20 s, as in the report: a question sent to the wrong call held its own call that long.
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: { asks: node(fixture('servers', 'asks-client.mjs')) },
      serve: { inputTimeout: 20_000 },
    }),
  );
});
afterAll(async () => box.remove());

const ARGS = ['--mode', 'tools', '--no-learn'];

/** A client that declares roots, elicitation and sampling; it answers each question with the team it names. */
async function connect(
  transport: Transport,
  mode: 'legacy' | typeof MODERN,
  label: string,
): Promise<{ client: Client; seen: string[] }> {
  const client = new Client(
    { name: `e2e-${label}`, version: '1' },
    { capabilities: ALL, versionNegotiation: { mode } },
  );
  const seen: string[] = [];
  client.setRequestHandler('roots/list', () => ({ roots: [{ uri: `file:///${label}`, name: label }] }));
  client.setRequestHandler('sampling/createMessage', () => ({
    model: label,
    role: 'assistant',
    content: { type: 'text', text: 'hello' },
  }));
  client.setRequestHandler('elicitation/create', (req) => {
    const team = /team (\S+)\?/.exec(req.params.message)?.[1] ?? '?';
    seen.push(team);
    return { action: 'accept', content: { username: `user-${team}` } };
  });
  await client.connect(transport);
  return { client, seen };
}

/** Calls sign_up for each team at once; returns the teams whose result carries another team's answer. */
async function signUpAll(client: Client, teams: string[]): Promise<{ crossed: string[]; ms: number }> {
  const started = Date.now();
  const results = await Promise.all(
    teams.map((team) => client.callTool({ name: 'sign_up', arguments: { team } }, { timeout: 60_000 })),
  );
  const crossed = teams.filter((team, i) => !textOf(results[i]).includes(`"username":"user-${team}"`));
  return { crossed, ms: Date.now() - started };
}

const raws: RawStdio[] = [];
afterEach(async () => closeRawStdio(raws));

describe('a 2025 server asks mid-call while many calls are in flight', () => {
  it(
    'over stdio, 40 raw 2026-07-28 calls written at once: each input_required round holds its own call’s question only',
    async () => {
      const s = openRawStdio(process.execPath, [BIN, 'serve', '--config', config, ...ARGS], box.env);
      raws.push(s);
      const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
      };
      expect((await s.request('tools/list', { _meta: meta }, 30_000)).error).toBeUndefined();
      const wrong: string[] = [];
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const call = { name: 'sign_up', arguments: { team: `t${i}` }, _meta: meta };
          let reply = await s.request('tools/call', call, 60_000);
          for (let round = 0; round < 4; round++) {
            const result = reply.result as Record<string, unknown> | undefined;
            if (result?.resultType !== 'input_required') break;
            const asked = Object.entries(result.inputRequests as Record<string, { params: { message?: string } }>);
            const answers: Record<string, unknown> = {};
            for (const [key, req] of asked) {
              const team = /team (\S+)\?/.exec(req.params.message ?? '')?.[1];
              if (team !== `t${i}`) wrong.push(`call t${i} was asked for ${team}`);
              answers[key] = { action: 'accept', content: { username: `user-${team}` } };
            }
            reply = await s.request(
              'tools/call',
              { ...call, requestState: result.requestState, inputResponses: answers },
              60_000,
            );
          }
          return textOf(reply.result);
        }),
      );
      // Questions seen by the wrong call: 0; every call got its own answer back.
      expect(wrong).toEqual([]);
      expect(outcomes.filter((text, i) => !text.includes(`"username":"user-t${i}"`))).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    'over stdio, 40 concurrent calls of one 2026-07-28 client: each question reaches its own call, none hangs',
    async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'serve', '--config', config, ...ARGS],
        env: box.env,
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (d: Buffer) => (stderr += String(d)));
      const { client, seen } = await connect(transport, MODERN, 'stdio');
      try {
        const teams = Array.from({ length: 40 }, (_, i) => `t${i}`);
        const { crossed, ms } = await signUpAll(client, teams);
        // Questions seen by the wrong call: 0; each question asked once.
        expect(crossed).toEqual([]);
        expect([...seen].sort()).toEqual([...teams].sort());
        // Serialised, not hung: all 40 calls (three rounds each, one call at a time) end within one input timeout.
        expect(ms).toBeLessThan(20_000);
        // The server behind is still healthy and answers a plain call.
        const again = await signUpAll(client, ['after']);
        expect(again.crossed).toEqual([]);
        expect(stderr).not.toMatch(/unhealthy|waited \d+ ms for its client's input/);
      } finally {
        await client.close();
      }
    },
    TIMEOUT_MS,
  );

  it(
    'over Streamable HTTP, four clients at once (two of each era): no client is shown another’s question',
    async () => {
      const serve = await startServeHttp(box.env, ['--config', config, ...ARGS]);
      try {
        for (let round = 0; round < 3; round++) {
          const clients = await Promise.all(
            (['legacy', MODERN, 'legacy', MODERN] as const).map((mode, c) =>
              connect(new StreamableHTTPClientTransport(new URL(serve.url)), mode, `c${c}`),
            ),
          );
          try {
            const teams = clients.map((_, c) => Array.from({ length: 4 }, (_, i) => `r${round}c${c}n${i}`));
            const outcomes = await Promise.all(clients.map(({ client }, c) => signUpAll(client, teams[c]!)));
            for (const [c, { seen }] of clients.entries()) {
              // Questions seen by the wrong client: 0.
              expect(seen.filter((team) => !team.startsWith(`r${round}c${c}n`))).toEqual([]);
              expect([...seen].sort()).toEqual([...teams[c]!].sort());
              expect(outcomes[c]!.crossed).toEqual([]);
            }
          } finally {
            await Promise.all(clients.map(({ client }) => client.close()));
          }
        }
        expect(serve.stderr()).not.toMatch(/unhealthy/);
      } finally {
        expect(await serve.stop()).toBe(143);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'a 2026-07-28 round its client abandons holds up no other call, then is cancelled to the server, and its retry refused',
    async () => {
      await mkdir(join(box.dir, 'abandoned'));
      const log = join(box.dir, 'abandoned', 'server.log');
      const abandoned = join(box.dir, 'abandoned', 'mcp-smart.config.json');
      await writeFile(
        abandoned,
        JSON.stringify({
          mcpServers: { asks: node(fixture('servers', 'asks-client.mjs'), '--log', log) },
          serve: { inputTimeout: 12_000 },
        }),
      );
      const serve = await startServeHttp(box.env, ['--config', abandoned, ...ARGS]);
      try {
        const gone = new Client(
          { name: 'gone', version: '1' },
          { capabilities: ALL, versionNegotiation: { mode: MODERN } },
        );
        await gone.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
        const call = { name: 'sign_up', arguments: { team: 'gone' } };
        const first = (await gone.request({ method: 'tools/call', params: call }, { allowInputRequired: true })) as {
          resultType?: string;
          requestState?: string;
        };
        expect(first.resultType).toBe('input_required');
        // Its client never comes back. Two other clients (each era) call the same server at once, and are neither
        // kept waiting for the abandoned call (released after 12 s) nor shown its question. (The 2025 client's
        // declaration restarts the server behind; the held call stays on the old process until released.)
        const others = await Promise.all(
          (['legacy', MODERN] as const).map((mode, c) =>
            connect(new StreamableHTTPClientTransport(new URL(serve.url)), mode, `o${c}`),
          ),
        );
        try {
          const outcomes = await Promise.all(others.map(({ client }, c) => signUpAll(client, [`o${c}a`, `o${c}b`])));
          for (const [c, { seen }] of others.entries()) {
            expect([...seen].sort()).toEqual([`o${c}a`, `o${c}b`]);
            expect(outcomes[c]!.crossed).toEqual([]);
            expect(outcomes[c]!.ms).toBeLessThan(12_000);
          }
          // Both were answered while the abandoned call was still held.
          expect(serve.stderr()).not.toMatch(/waited \d+ ms for its client's input/);
        } finally {
          await Promise.all(others.map(({ client }) => client.close()));
        }
        // After serve.inputTimeout the abandoned call is cancelled to the server behind, and a late retry is refused.
        await serve.waitForStderr(/waited 12000 ms for its client's input and was cancelled/);
        await expect
          .poll(async () => readFile(log, 'utf8').catch(() => ''), { timeout: 5_000 })
          .toContain('cancelled sign_up');
        await expect(
          gone.request(
            {
              method: 'tools/call',
              params: {
                ...call,
                requestState: first.requestState,
                inputResponses: { 'roots-1': { roots: [] } },
              },
            },
            { allowInputRequired: true },
          ),
        ).rejects.toThrow(/Invalid (or expired )?requestState/);
        await gone.close();
        expect(serve.stderr()).not.toMatch(/unhealthy|restarting after a failure/);
      } finally {
        expect(await serve.stop()).toBe(143);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'calls cancelled by their client or by serve (a held call never retried) leave the server healthy',
    async () => {
      // Our own config file (named mcp-smart.config.json: its `serve` section is read).
      await mkdir(join(box.dir, 'held'));
      const held = join(box.dir, 'held', 'mcp-smart.config.json');
      await writeFile(
        held,
        JSON.stringify({
          mcpServers: { asks: node(fixture('servers', 'asks-client.mjs')) },
          serve: { inputTimeout: 300 },
        }),
      );
      const serve = await startServeHttp(box.env, ['--config', held, ...ARGS]);
      try {
        const { client } = await connect(new StreamableHTTPClientTransport(new URL(serve.url)), 'legacy', 'cancel');
        for (let i = 0; i < 4; i++) {
          const abort = new AbortController();
          const call = client.callTool(
            { name: 'wait', arguments: { steps: 1 } },
            { signal: abort.signal, onprogress: () => abort.abort('the user stopped it') },
          );
          await expect(call).rejects.toThrow();
        }
        // Four 2026-07-28 calls held for input and never retried: serve cancels each after 300 ms.
        const modern = new Client(
          { name: 'raw', version: '1' },
          { capabilities: ALL, versionNegotiation: { mode: MODERN } },
        );
        await modern.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
        for (let i = 0; i < 4; i++) {
          const first = await modern.request(
            { method: 'tools/call', params: { name: 'sign_up', arguments: { team: `gone${i}` } } },
            { allowInputRequired: true },
          );
          expect(first).toMatchObject({ resultType: 'input_required' });
          await serve.waitForStderr(
            new RegExp(`(waited 300 ms for its client's input and was cancelled[^]*){${i + 1}}`),
          );
        }
        await modern.close();
        expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('still here');
        expect(serve.stderr()).not.toMatch(/unhealthy|restarting after a failure/);
        await client.close();
      } finally {
        expect(await serve.stop()).toBe(143);
      }
    },
    TIMEOUT_MS,
  );
});
