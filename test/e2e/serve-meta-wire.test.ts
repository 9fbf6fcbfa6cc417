// A 2025 client's find_tool, describe_tool and list_tools over stdio are answered on the wire, outside the SDK's
// Server (src/serve/stdio-meta-calls.ts), where the user meets them (the built CLI, real SDK v1 and v2 clients):
// - each answer is exactly the in-process one (ServeRuntime on the same snapshot: the same tools, the same text,
//   so the same token counts), for several intents, a small budget, `k`, `server` and `queries`;
// - the answer really comes from that path (the SDK's Server writes `result` first; this path `jsonrpc` first), a
//   request this path does not take is still answered by the SDK (its own error for a malformed call), a cancelled
//   find gets no answer while the connection goes on, and a call before `initialize` is the SDK's as before.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSnapshotFiles } from '../../src/core/snapshot.js';
import { createTokenCounter } from '../../src/core/tokens/index.js';
import { countingWith } from '../../src/serve/deps.js';
import { ServeRuntime } from '../../src/serve/runtime.js';
import { BIN, fixture } from '../helpers/paths.js';
import { sandbox, textOf, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 90_000;
const SNAPSHOT = fixture('snapshots', 'discover-tools.json');
const SERVE_ARGS = ['--mode', 'meta', '--no-learn'];
const INTENTS = readFileSync(fixture('snapshots', 'discover-intents.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => (JSON.parse(l) as { intent: string }).intent);

/** The calls compared: every intent alone, then budgets, k, a server filter and other phrasings. */
const CALLS: { name: string; arguments: Record<string, unknown> }[] = [
  ...INTENTS.map((intent) => ({ name: 'find_tool', arguments: { intent } })),
  { name: 'find_tool', arguments: { intent: INTENTS[0]!, maxTokens: 120 } },
  { name: 'find_tool', arguments: { intent: INTENTS[1]!, k: 2 } },
  { name: 'find_tool', arguments: { intent: INTENTS[2]!, k: 8, maxTokens: 300 } },
  { name: 'find_tool', arguments: { intent: 'list', server: 'files' } },
  { name: 'find_tool', arguments: { intent: INTENTS[0]!, queries: ['show a file', 'open a document'] } },
  { name: 'find_tool', arguments: { intent: 7 } },
  { name: 'describe_tool', arguments: { name: 'files.read_file' } },
  { name: 'describe_tool', arguments: { name: 'no.such_tool' } },
  { name: 'list_tools', arguments: {} },
  { name: 'list_tools', arguments: { server: 'files' } },
];

let box: Sandbox;
let runtime: ServeRuntime;
/** What serve in process answers to each of CALLS. */
let expected: unknown[];

beforeAll(async () => {
  box = await sandbox('serve-meta-wire');
  const servers = await readSnapshotFiles([SNAPSHOT], box.dir);
  runtime = new ServeRuntime({
    setup: {
      definitions: [],
      known: new Map(servers.map((s) => [s.name, s])),
      config: {},
      warnings: [],
      cache: null,
      usageStore: join(box.dir, 'usage.json'),
    },
    mode: 'meta',
    level: 'lossless',
    limit: 20_000,
    key: 'mcp-smart',
    activate: false,
    counting: countingWith(await createTokenCounter('o200k_base')),
    usage: { tools: {} },
    learn: false,
    spawnTimeoutMs: 5000,
    callTimeoutMs: 5000,
    log: () => undefined,
    now: () => Date.now(),
    clock: () => performance.now(),
  });
  await runtime.init();
  expected = [];
  for (const c of CALLS) {
    if (c.name === 'find_tool') expected.push(await runtime.findTool(c.arguments));
    else if (c.name === 'describe_tool') expected.push(await answerOrFailure(() => runtime.describeTool(c.arguments)));
    else expected.push(runtime.listTools(c.arguments));
  }
}, TIMEOUT_MS);
afterAll(async () => {
  await runtime?.close();
  await box?.remove();
});

/** A meta-tool's result in process, or the failure result serve answers with when it throws. */
async function answerOrFailure(run: () => unknown): Promise<unknown> {
  try {
    return await run();
  } catch (e) {
    return ServeRuntime.failureResult(e);
  }
}

describe('meta-tools answered on the wire: the same answers as in process', () => {
  it('SDK v1 client (@modelcontextprotocol/sdk), 2025 over stdio', { timeout: TIMEOUT_MS }, async () => {
    const transport = new StdioV1({
      command: process.execPath,
      args: [BIN, '--snapshot', SNAPSHOT, 'serve', ...SERVE_ARGS],
      env: box.env,
      stderr: 'ignore',
    });
    const client = new ClientV1({ name: 'meta-wire-v1', version: '1' });
    await client.connect(transport);
    try {
      const got = [];
      for (const c of CALLS) got.push(await client.callTool(c));
      expect(got).toEqual(expected);
      // Not a vacuous comparison: the answers name tools, and the small budget left schemas out.
      expect(textOf(got[0])).toContain('"id":"files.read_file"');
      expect(textOf(got[INTENTS.length])).toContain('lower-ranked results left out');
      expect((got[INTENTS.length + 5] as { isError?: boolean }).isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  for (const era of ['legacy', 'auto'] as const)
    it(
      `SDK v2 client (@modelcontextprotocol/client), version negotiation ${era} over stdio`,
      { timeout: TIMEOUT_MS },
      async () => {
        // legacy: a 2025 connection (this path); auto: the client's default (2026-07-28, the SDK's Server as before).
        const v2 = new ClientV2(
          { name: 'meta-wire-v2', version: '1' },
          era === 'legacy' ? { versionNegotiation: { mode: 'legacy' } } : {},
        );
        await v2.connect(
          new StdioV2({
            command: process.execPath,
            args: [BIN, '--snapshot', SNAPSHOT, 'serve', ...SERVE_ARGS],
            env: box.env,
            stderr: 'ignore',
          }),
        );
        try {
          const got = [];
          for (const c of CALLS) got.push(await v2.callTool(c));
          expect(got).toEqual(expected);
        } finally {
          await v2.close();
        }
      },
    );
});

/** serve over stdio spoken to line by line: the raw lines it writes, so that their key order shows. */
function rawServe() {
  const child = spawn(process.execPath, [BIN, '--snapshot', SNAPSHOT, 'serve', ...SERVE_ARGS], {
    env: box.env,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const lines: string[] = [];
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => {
    buffer += d;
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      lines.push(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
    }
  });
  const exited = new Promise((r) => child.once('exit', r));
  /** The line answering request `id`. */
  const answer = async (id: number | string): Promise<string> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const line = lines.find((l) => (JSON.parse(l) as { id?: unknown }).id === id);
      if (line) return line;
      if (Date.now() > deadline) throw new Error(`no answer to request ${id}; lines: ${lines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const send = (...messages: unknown[]): void => {
    child.stdin.write(messages.map((m) => JSON.stringify({ jsonrpc: '2.0', ...(m as object) }) + '\n').join(''));
  };
  const initialize = async (): Promise<void> => {
    send({
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await answer(0);
    send({ method: 'notifications/initialized' });
  };
  const stop = async (): Promise<void> => {
    child.stdin.end();
    await exited;
  };
  return { send, answer, initialize, lines, stop };
}

const findCall = (id: number, intent: string, extra: Record<string, unknown> = {}) => ({
  id,
  method: 'tools/call',
  params: { name: 'find_tool', arguments: { intent }, ...extra },
});

describe('the path a request takes', () => {
  it(
    "find_tool is answered on the wire; tools/list and a call this path does not take are the SDK's",
    { timeout: TIMEOUT_MS },
    async () => {
      const s = rawServe();
      try {
        await s.initialize();
        s.send(findCall(1, INTENTS[0]!));
        const find = await s.answer(1);
        // This path writes jsonrpc and id first; the SDK's Server writes result first (its response object's order).
        expect(find.startsWith('{"jsonrpc":"2.0","id":1,"result":')).toBe(true);
        expect(JSON.parse(find)).toEqual({ jsonrpc: '2.0', id: 1, result: expected[0] });
        // Byte for byte the SDK's serialisation of that response (JSON.stringify of it): every find's line.
        expect(find).toBe(JSON.stringify({ jsonrpc: '2.0', id: 1, result: expected[0] }));
        for (const [i, c] of CALLS.entries()) {
          if (c.name !== 'find_tool' || i === 0) continue;
          s.send({ id: `c${i}`, method: 'tools/call', params: c });
          expect(await s.answer(`c${i}`)).toBe(JSON.stringify({ jsonrpc: '2.0', id: `c${i}`, result: expected[i] }));
        }
        s.send({ id: 2, method: 'tools/list' });
        expect((await s.answer(2)).startsWith('{"result":')).toBe(true);
        // `arguments` not an object: left to the SDK, which answers its own invalid-params error.
        s.send({ id: 3, method: 'tools/call', params: { name: 'find_tool', arguments: ['x'] } });
        const refused = JSON.parse(await s.answer(3)) as { error?: { code: number; message: string } };
        expect(refused.error?.code).toBe(-32602);
        expect(refused.error?.message).toContain('Invalid tools/call request');
        // An unknown params key (a task, say) is the SDK's too: it answers the call as before.
        s.send(findCall(4, INTENTS[1]!, { task: { ttl: 1000 } }));
        const viaSdk = await s.answer(4);
        expect(viaSdk.startsWith('{"jsonrpc"')).toBe(false);
      } finally {
        await s.stop();
      }
    },
  );

  it('a find cancelled before its answer gets none; the connection goes on', { timeout: TIMEOUT_MS }, async () => {
    const s = rawServe();
    try {
      await s.initialize();
      // The index is built by a first find, so that the cancelled one is answered promptly if at all.
      s.send(findCall(1, INTENTS[0]!));
      await s.answer(1);
      // The request and its cancellation in one write: read together, the cancellation is seen before the answer.
      s.send(findCall(2, INTENTS[1]!), {
        method: 'notifications/cancelled',
        params: { requestId: 2, reason: 'changed my mind' },
      });
      s.send(findCall(3, INTENTS[2]!));
      expect(JSON.parse(await s.answer(3))).toEqual({ jsonrpc: '2.0', id: 3, result: expected[2] });
      s.send({ id: 4, method: 'ping' });
      await s.answer(4);
      expect(s.lines.filter((l) => (JSON.parse(l) as { id?: unknown }).id === 2)).toEqual([]);
    } finally {
      await s.stop();
    }
  });
});
