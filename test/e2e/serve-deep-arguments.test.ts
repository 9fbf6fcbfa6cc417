// Arguments nested thousands of levels deep, sent to serve in tools mode over stdio and HTTP (the built CLI, a raw
// client, a real SDK server behind): they overflowed the stack on their way to the server, so the client got -32603
// "Maximum call stack size exceeded" (stdio, a 2025 HTTP session) or an HTTP 500 (a 2026-07-28 request through the
// SDK). Now arguments deeper than 256 levels are an error result naming the limit, a message deeper than 1000 levels
// is refused where it is read (-32600 with its id; HTTP 400), and the connection goes on.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture } from '../helpers/paths.js';
import { node, rawHttpSession, sandbox, startServeHttp, type Sandbox } from './serve-harness.js';

let box: Sandbox;
let config = '';
beforeAll(async () => {
  box = await sandbox('deep-arguments');
  config = await box.config('servers.json', { tr: node(fixture('servers', 'trace-server.mjs')) });
});
afterAll(() => box.remove());

const SERVE = ['--mode', 'tools', '--no-learn'];
/** A tools/call of `name` whose arguments hold `x` nested `depth` arrays deep, as text (JSON.stringify would overflow). */
const deepCall = (id: number, name: string, depth: number): string =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(name)},` +
  `"arguments":{"x":${'['.repeat(depth)}1${']'.repeat(depth)}}}}`;

type Answer = { id?: number; result?: { isError?: boolean; content?: { text?: string }[] }; error?: { code: number } };

describe('deeply nested arguments over stdio', () => {
  it('an error result past 256 levels, -32600 past 1000, and the next call answered', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, [BIN, '-c', config, 'serve', ...SERVE], {
      env: box.env,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const answers = new Map<number, Answer>();
    const waiting = new Map<number, (a: Answer) => void>();
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += String(d);
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const m = JSON.parse(buf.slice(0, i)) as Answer;
        buf = buf.slice(i + 1);
        if (typeof m.id === 'number') (waiting.get(m.id) ?? ((a: Answer) => answers.set(m.id!, a)))(m);
      }
    });
    const ask = (id: number, line: string): Promise<Answer> =>
      new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(line + '\n');
      });
    try {
      const init = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      };
      await ask(1, JSON.stringify(init));
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
      const list = (await ask(2, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }))) as {
        result: { tools: { name: string }[] };
      };
      const echo = list.result.tools.find((t) => t.name.endsWith('echo_meta'))!.name;

      const deep = await ask(3, deepCall(3, echo, 300));
      expect(deep.error).toBeUndefined();
      expect(deep.result?.isError).toBe(true);
      expect(deep.result?.content?.[0]?.text).toContain('256');

      const deeper = await ask(4, deepCall(4, echo, 5000));
      expect(deeper.error?.code).toBe(-32600);

      const plain = await ask(5, deepCall(5, echo, 3));
      expect(plain.error).toBeUndefined();
      expect(plain.result?.isError).toBeUndefined();
    } finally {
      child.stdin.end();
      child.kill();
    }
  });
});

describe('deeply nested arguments over HTTP', () => {
  it('refused with 400 / -32600 before any session, and the session goes on', { timeout: 60_000 }, async () => {
    const serve = await startServeHttp(box.env, ['-c', config, ...SERVE, '--port', '0']);
    try {
      const headers = await rawHttpSession(serve.url, {});
      const post = async (body: string): Promise<{ status: number; answer: Answer }> => {
        const r = await fetch(serve.url, { method: 'POST', headers, body });
        const text = await r.text();
        const data = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
        return { status: r.status, answer: JSON.parse(data) as Answer };
      };
      const deeper = await post(deepCall(7, 'echo_meta', 5000));
      expect(deeper.status).toBe(400);
      expect(deeper.answer.error?.code).toBe(-32600);
      const deep = await post(deepCall(8, 'echo_meta', 300));
      expect(deep.status).toBe(200);
      expect(deep.answer.result?.isError).toBe(true);
      const plain = await post(deepCall(9, 'echo_meta', 3));
      expect(plain.answer.result?.isError).toBeUndefined();
    } finally {
      await serve.stop();
    }
  });
});
