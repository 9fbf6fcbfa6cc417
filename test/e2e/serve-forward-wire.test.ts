// A 2025 client's plain tools/call of a server's tool over stdio is run outside the SDK's Server
// (src/serve/stdio-forward-calls.ts), where the user meets it (the built CLI, real fixture servers behind, raw JSON-RPC
// lines and real SDK v1 and v2 clients):
// - every answer equals the SDK path's for the same call (the same call with a progress token, which that path
//   leaves to the SDK): text, isError, image/audio/embedded-resource results, a server's JSON-RPC error, an unknown
//   tool, a server that dies mid-call;
// - the answer really comes from the wire path for a plain text result (it writes `jsonrpc` first; the SDK's Server
//   writes `result` first) and from the SDK for the rest;
// - a cancelled call gets no answer and the connection goes on; progress still works (SDK path), and a server's
//   elicitation reaches a client that declares it on either path.
import { spawn } from 'node:child_process';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture } from '../helpers/paths.js';
import { FORWARD_CASES, node, sandbox, textOf, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 90_000;
const misbehaving = (name: string): string => fixture('servers', 'misbehaving', name);

let box: Sandbox;
let args: string[];

beforeAll(async () => {
  box = await sandbox('serve-forward-wire');
  const config = await box.config('forward.json', {
    conf: node(fixture('servers', 'conformance-server.mjs')),
    faults: node(misbehaving('call-faults.mjs')),
    secret: node(misbehaving('echo-secret.mjs')),
    order: node(fixture('servers', 'key-order-server.mjs')),
  });
  args = [BIN, 'serve', '--config', config, '--mode', 'tools', '--no-learn', '--call-timeout', '20000'];
}, TIMEOUT_MS);
afterAll(async () => {
  await box?.remove();
});

/** serve over stdio spoken to line by line: the raw lines it writes, so that their key order shows. */
function rawServe() {
  const child = spawn(process.execPath, args, { env: box.env, stdio: ['pipe', 'pipe', 'ignore'] });
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
  const answer = async (id: number | string): Promise<string> => {
    const deadline = Date.now() + 40_000;
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
  const initialize = async (capabilities: Record<string, unknown> = {}): Promise<void> => {
    send({
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities, clientInfo: { name: 'raw', version: '1' } },
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

const call = (id: number | string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...extra },
});

/** The served name of a server's tool (from tools/list). */
async function servedNames(s: ReturnType<typeof rawServe>): Promise<Map<string, string>> {
  s.send({ id: 'list', method: 'tools/list' });
  const { result } = JSON.parse(await s.answer('list')) as { result: { tools: { name: string }[] } };
  const names = new Map<string, string>();
  for (const t of result.tools) names.set(t.name.replace(/^(conf|faults|secret|order)[_.]/, ''), t.name);
  return names;
}

describe('forwarded calls on the wire: the same answers as the SDK path', () => {
  it('raw JSON-RPC, 2025 over stdio: each answer equals the SDK path’s', { timeout: TIMEOUT_MS }, async () => {
    const s = rawServe();
    try {
      await s.initialize();
      const names = await servedNames(s);
      let id = 1;
      for (const [tool, toolArgs, wire] of FORWARD_CASES) {
        const name = names.get(tool) ?? tool;
        s.send(call(id, name, { arguments: toolArgs }));
        const fast = await s.answer(id);
        // The SDK path: the same call with a progress token (which the wire path leaves to the SDK).
        s.send(call(id + 1, name, { arguments: toolArgs, _meta: { progressToken: `p${id}` } }));
        const sdk = await s.answer(id + 1);
        // The SDK's Server writes a result `result` first (an error it writes `jsonrpc` first, as this path would).
        if ('result' in (JSON.parse(sdk) as object)) {
          expect(sdk.startsWith('{"result"'), `${tool} via the SDK`).toBe(true);
          expect(fast.startsWith('{"jsonrpc":"2.0","id":'), `${tool} on the wire`).toBe(wire);
        } else expect(wire, `${tool} is an error: the SDK's to write`).toBe(false);
        const { id: _a, ...fastBody } = JSON.parse(fast) as Record<string, unknown>;
        const { id: _b, ...sdkBody } = JSON.parse(sdk) as Record<string, unknown>;
        expect(fastBody, tool).toEqual(sdkBody);
        // The result byte for byte, key order included (JSON.parse keeps the order the line had; the envelope's
        // own keys are in another order, as said above).
        expect(JSON.stringify(fastBody.result ?? fastBody.error), tool).toBe(
          JSON.stringify(sdkBody.result ?? sdkBody.error),
        );
        id += 2;
      }
      // Not vacuous: the answers carry what the servers sent.
      const text = JSON.parse(await s.answer(1)) as { result: unknown };
      expect(textOf(text.result)).toBe('This is a simple text response for testing.');
      expect((JSON.parse(await s.answer(3)) as { result: { isError?: boolean } }).result.isError).toBe(true);
      expect(textOf((JSON.parse(await s.answer(5)) as { result: unknown }).result)).toBe('héllo "quoted"\n');
      const rpc = JSON.parse(await s.answer(17)) as { error?: { code: number; message: string } };
      expect(rpc.error?.code).toBe(-32600);
      expect(rpc.error?.message).toContain('was rejected');
      // An unknown tool is the SDK's error, as before.
      s.send(call(100, 'no_such_tool'));
      const unknown = JSON.parse(await s.answer(100)) as { error?: { code: number; message: string } };
      expect(unknown.error?.code).toBe(-32602);
      expect(unknown.error?.message).toContain('no_such_tool');
    } finally {
      await s.stop();
    }
  });

  it(
    'a plain result in another key order: written in the SDK’s order, the same bytes',
    { timeout: TIMEOUT_MS },
    async () => {
      const s = rawServe();
      try {
        await s.initialize();
        const names = await servedNames(s);
        const bodies: string[] = [];
        let id = 1;
        for (const tool of ['unordered', 'ordered']) {
          s.send(call(id, names.get(tool)!));
          const fast = await s.answer(id);
          s.send(call(id + 1, names.get(tool)!, { _meta: { progressToken: `p${id}` } }));
          const sdk = await s.answer(id + 1);
          expect(fast.startsWith('{"jsonrpc":"2.0","id":'), `${tool} on the wire`).toBe(true);
          expect(sdk.startsWith('{"result"'), `${tool} via the SDK`).toBe(true);
          const fastResult = JSON.stringify((JSON.parse(fast) as { result: unknown }).result);
          expect(fastResult, tool).toBe(JSON.stringify((JSON.parse(sdk) as { result: unknown }).result));
          bodies.push(fastResult);
          id += 2;
        }
        // Not vacuous: the server sent `unordered` in another order, and both came out in the SDK's.
        expect(bodies[0]).toBe(bodies[1]);
        expect(bodies[0]).toBe(
          '{"content":[{"type":"text","text":"first"},{"type":"text","text":"second"}],"structuredContent":{"z":1,"a":"two"},"isError":false}',
        );
      } finally {
        await s.stop();
      }
    },
  );

  it('a server that dies mid-call: the same error result either way', { timeout: TIMEOUT_MS }, async () => {
    const s = rawServe();
    try {
      await s.initialize();
      const name = (await servedNames(s)).get('crash_mid_call')!;
      s.send(call(1, name));
      const fast = JSON.parse(await s.answer(1)) as { result: { isError?: boolean } };
      s.send(call(2, name, { _meta: { progressToken: 'p' } }));
      const sdk = JSON.parse(await s.answer(2)) as { result: unknown };
      expect(fast.result.isError).toBe(true);
      expect(textOf(fast.result)).toMatch(/^mcp-smart: .*faults/);
      expect(fast.result).toEqual(sdk.result);
      // The server is started again for a later call (after its back-off: it failed twice in a row).
      const echo = (await servedNames(s)).get('echo')!;
      let text = '';
      for (let id = 3; id < 40 && text !== 'back'; id++) {
        s.send(call(id, echo, { arguments: { text: 'back' } }));
        text = textOf((JSON.parse(await s.answer(id)) as { result: unknown }).result);
        if (text !== 'back') await new Promise((r) => setTimeout(r, 250));
      }
      expect(text).toBe('back');
    } finally {
      await s.stop();
    }
  });

  it('a call cancelled before its answer gets none; the connection goes on', { timeout: TIMEOUT_MS }, async () => {
    const s = rawServe();
    try {
      await s.initialize();
      const names = await servedNames(s);
      s.send(call(1, names.get('hang_forever')!));
      s.send({ method: 'notifications/cancelled', params: { requestId: 1, reason: 'changed my mind' } });
      s.send(call(2, names.get('echo')!, { arguments: { text: 'still here' } }));
      const next = await s.answer(2);
      expect(next.startsWith('{"jsonrpc"')).toBe(true);
      expect(textOf((JSON.parse(next) as { result: unknown }).result)).toBe('still here');
      s.send({ id: 3, method: 'ping' });
      await s.answer(3);
      await new Promise((r) => setTimeout(r, 300));
      expect(s.lines.filter((l) => (JSON.parse(l) as { id?: unknown }).id === 1)).toEqual([]);
    } finally {
      await s.stop();
    }
  });

  it(
    'a client that declares elicitation is asked the server’s question on either path, with the same result',
    { timeout: TIMEOUT_MS },
    async () => {
      const s = rawServe();
      try {
        await s.initialize({ elicitation: {} });
        const name = (await servedNames(s)).get('test_elicitation')!;
        const asked = new Set<unknown>();
        /** Answers the next elicitation/create serve sends, then returns the answer to call `id`. */
        const answered = async (id: number): Promise<string> => {
          const deadline = Date.now() + 30_000;
          let ask: { id: number | string; method: string } | undefined;
          while (!ask && Date.now() < deadline) {
            ask = s.lines
              .map((l) => JSON.parse(l) as { id: number | string; method: string })
              .find((m) => m.method === 'elicitation/create' && !asked.has(m.id));
            if (!ask) await new Promise((r) => setTimeout(r, 10));
          }
          expect(ask?.method).toBe('elicitation/create');
          asked.add(ask!.id);
          s.send({ id: ask!.id, result: { action: 'accept', content: { username: 'ada', email: 'ada@example.org' } } });
          return s.answer(id);
        };
        s.send(call(1, name, { arguments: { message: 'who are you?' } }));
        const fast = await answered(1);
        s.send(call(2, name, { arguments: { message: 'who are you?' }, _meta: { progressToken: 'p' } }));
        const sdk = await answered(2);
        expect(fast.startsWith('{"jsonrpc"')).toBe(true);
        expect(sdk.startsWith('{"result"')).toBe(true);
        const fastResult = (JSON.parse(fast) as { result: unknown }).result;
        expect(textOf(fastResult)).toContain('ada');
        expect(fastResult).toEqual((JSON.parse(sdk) as { result: unknown }).result);
      } finally {
        await s.stop();
      }
    },
  );
});

describe('SDK clients see the same results on both paths, with progress still reported', () => {
  const tools = ['test_simple_text', 'test_error_handling', 'test_multiple_content_types', 'test_tool_with_progress'];

  it('SDK v1 client (@modelcontextprotocol/sdk), 2025 over stdio', { timeout: TIMEOUT_MS }, async () => {
    const client = new ClientV1({ name: 'forward-wire-v1', version: '1' });
    await client.connect(new StdioV1({ command: process.execPath, args, env: box.env, stderr: 'ignore' }));
    try {
      const served = (await client.listTools()).tools.map((t) => t.name);
      for (const tool of tools) {
        const name = served.find((n) => n.endsWith(tool))!;
        const progress: number[] = [];
        const fast = await client.callTool({ name, arguments: {} });
        const sdk = await client.callTool({ name, arguments: {} }, undefined, {
          onprogress: (p) => progress.push(p.progress),
        });
        expect(fast, tool).toEqual(sdk);
        // The last notification may arrive after the result, which ends the client's listening (as before).
        if (tool === 'test_tool_with_progress') expect(progress.slice(0, 2)).toEqual([0, 50]);
      }
    } finally {
      await client.close();
    }
  });

  it(
    'SDK v2 client (@modelcontextprotocol/client), legacy negotiation over stdio',
    { timeout: TIMEOUT_MS },
    async () => {
      const client = new ClientV2(
        { name: 'forward-wire-v2', version: '1' },
        { versionNegotiation: { mode: 'legacy' } },
      );
      await client.connect(new StdioV2({ command: process.execPath, args, env: box.env, stderr: 'ignore' }));
      try {
        const served = (await client.listTools()).tools.map((t) => t.name);
        for (const tool of tools) {
          const name = served.find((n) => n.endsWith(tool))!;
          const progress: number[] = [];
          const fast = await client.callTool({ name, arguments: {} });
          const sdk = await client.callTool({ name, arguments: {} }, { onprogress: (p) => progress.push(p.progress) });
          expect(fast, tool).toEqual(sdk);
          // The last notification may arrive after the result, which ends the client's listening (as before).
          if (tool === 'test_tool_with_progress') expect(progress.slice(0, 2)).toEqual([0, 50]);
        }
      } finally {
        await client.close();
      }
    },
  );
});
