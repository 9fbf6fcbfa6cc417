// Large and invalid messages on serve's stdio, with real processes: a client message over the 10 MB limit gets a JSON-RPC error
// for that request (its id found at the start or the end of the line) and serve keeps serving — it used to close
// the connection and exit 0 without a word; a 20 MB result that takes a while to arrive from the server behind is
// relayed whole while pings keep being answered; a result that is not a valid tool result is an error naming the
// server and the tool with its first problem in one line (it was a -32602 with the schema report, no server named).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain ESM helper shared with the benchmark (no types)
import { startRaw } from '../../bench/helpers/raw-stdio.mjs';
import { BIN, fixture } from '../helpers/paths.js';
import { Client } from '@modelcontextprotocol/client';
import { createStdioHandle } from '../../src/core/connect/stdio.js';
import { sandbox, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 60_000;
const BIG = fixture('servers', 'misbehaving', 'big-results.mjs');
const MB = 1024 * 1024;

/** A JSON-RPC message as the raw client hands it over (tests read what they expect of it). */
interface Msg {
  id?: unknown;
  error?: { code: number; message: string };
  result?: { content?: { type: string; text: string }[]; isError?: boolean } & Record<string, unknown>;
}

interface Raw {
  send: (msg: unknown) => void;
  request: (method: string, params?: unknown) => Promise<Msg>;
  open: () => Promise<unknown>;
  stderr: () => string;
  child: { stdin: NodeJS.WritableStream; exitCode: number | null };
  notes: Msg[];
  close: () => Promise<{ code: number | null }>;
}

let box: Sandbox;
let serve: Raw;

beforeAll(async () => {
  box = await sandbox('serve-large');
  const config = join(box.dir, 'big.json');
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { big: { command: process.execPath, args: [BIG, '--pace-ms', '40'] } } }),
  );
  serve = startRaw(process.execPath, [BIN, '--config', config, 'serve', '--mode', 'tools', '--no-learn'], {
    env: box.env,
    cwd: box.dir,
  }) as Raw;
  await serve.open();
}, TIMEOUT_MS);

afterAll(async () => {
  await serve?.close();
  await box.remove();
});

/** Waits until a message with this id arrives outside a request (the raw client keeps those in `notes`). */
async function answerTo(id: unknown, ms = 20_000): Promise<Msg> {
  const until = Date.now() + ms;
  for (;;) {
    const found = serve.notes.find((n) => n.id === id);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no answer to ${JSON.stringify(id)}; stderr:\n${serve.stderr()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('serve over stdio: messages over the limit, and large results', () => {
  it('a client message over 10 MB is refused with an error for its id; serve keeps serving', async () => {
    const pad = 'x'.repeat(11 * MB);
    // The id first (as the SDKs write it) …
    serve.child.stdin.write(
      `{"jsonrpc":"2.0","id":9001,"method":"tools/call","params":{"name":"echo","arguments":{"text":"${pad}"}}}\n`,
    );
    const first = await answerTo(9001);
    expect(first.error).toEqual({
      code: -32600,
      message: 'mcp-smart: a message of 11.0 MB is over the 10.0 MB limit for one message on stdio; it was not read',
    });
    // … or last, with an "id" inside the arguments that must not be taken for it.
    serve.child.stdin.write(
      `{"method":"tools/call","params":{"name":"echo","arguments":{"id":5,"text":"${pad}"}},"jsonrpc":"2.0","id":"late"}\n`,
    );
    expect((await answerTo('late')).error?.code).toBe(-32600);
    expect(serve.notes.some((n) => n.id === 5)).toBe(false);
    expect(serve.stderr()).toContain(
      'mcp-smart serve: refused request 9001 from the client: a message of 11.0 MB is over the 10.0 MB limit',
    );
    expect(serve.stderr()).toContain('refused request "late" from the client');
    // A notification over the limit is never answered (it has no id to answer): said on stderr only.
    serve.child.stdin.write(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${pad}"}}\n`);
    await new Promise((r) => setTimeout(r, 50));
    expect((await serve.request('ping')).result).toEqual({});
    expect(serve.stderr()).toContain('refused a notification from the client: a message of 11.0 MB');
    expect(serve.notes.some((n) => n.id === null)).toBe(false);
    // Still serving, on the same connection.
    expect((await serve.request('ping')).result).toEqual({});
    const echo = await serve.request('tools/call', { name: 'echo', arguments: { text: 'still here' } });
    expect(echo.result?.content).toEqual([{ type: 'text', text: 'still here' }]);
    expect(serve.child.exitCode).toBe(null);
  });

  it('a line that is not a message is answered with the JSON-RPC error it is owed, and said on stderr', async () => {
    // The SDKs' stdio transports dropped such a line without a word: a client waited for an answer that never came.
    serve.child.stdin.write('not json\n');
    const parse = await answerTo(null);
    expect(parse.error?.code).toBe(-32700);
    serve.child.stdin.write('{"jsonrpc":"1.0","id":"old-1","method":"ping"}\n');
    expect((await answerTo('old-1')).error?.code).toBe(-32600);
    serve.child.stdin.write('{"jsonrpc":"2.0","id":"bad-params","method":"tools/list","params":5}\n');
    expect((await answerTo('bad-params')).error?.code).toBe(-32600);
    // A notification and a response are never answered, only said.
    serve.child.stdin.write('{"jsonrpc":"2.0","method":"notifications/x","params":5}\n');
    serve.child.stdin.write('{"jsonrpc":"2.0","id":"resp-1","result":5}\n');
    expect((await serve.request('ping')).result).toEqual({});
    expect(serve.notes.filter((n) => n.id === 'resp-1' || (n.id === null && n !== parse))).toEqual([]);
    const said = serve
      .stderr()
      .split('\n')
      .filter((l) => l.includes('ignored a line from the client'));
    expect(said).toHaveLength(5);
    expect(said.join('\n')).toContain('its "jsonrpc" is "1.0", not "2.0"');
  });

  it('an invalid tool result is an error naming the server and tool, with the first problem in one line', async () => {
    const said = async (kind: string): Promise<string | undefined> => {
      const r = await serve.request('tools/call', { name: 'bad_result', arguments: { kind } });
      expect(r.error).toBeUndefined();
      expect(r.result?.isError).toBe(true);
      return r.result?.content?.[0]?.text;
    };
    const head = 'mcp-smart: server "big" answered tool "bad_result" with a result that is not a valid MCP tool result';
    const tail = '; it was not passed on — the server needs fixing';
    expect(await said('content-not-array')).toBe(`${head} (content: expected array, received string)${tail}`);
    expect(await said('text-missing')).toBe(`${head} (content[0].text: expected string, got nothing)${tail}`);
    expect(await said('unknown-type')).toBe(
      `${head} (content[0].type is "hologram", not one of "text", "image", "audio", "resource_link", "resource")${tail}`,
    );
  });

  it('pings are answered while a 20 MB result is on its way, and the result arrives whole', async () => {
    const call = serve.request('tools/call', { name: 'big', arguments: { mb: 20 } });
    let resultAt = 0;
    void call.then(() => (resultAt = performance.now()));
    // The server writes its 20 MB answer in 1 MB pieces 40 ms apart (~0.8 s): serve is reading it meanwhile.
    const pings: { at: number; ms: number }[] = [];
    while (resultAt === 0) {
      const t = performance.now();
      const pong = await serve.request('ping');
      expect(pong.result).toEqual({});
      pings.push({ at: performance.now(), ms: performance.now() - t });
      await new Promise((r) => setTimeout(r, 25));
    }
    const result = await call;
    const content = result.result?.content ?? [];
    expect(content).toHaveLength(1);
    expect(content[0]?.text).toHaveLength(20 * MB);
    expect(content[0]?.text.slice(0, 20)).toBe('abcdefghijabcdefghij');
    const during = pings.filter((p) => p.at < resultAt);
    expect(during.length).toBeGreaterThanOrEqual(5);
    // Every ping answered during the transfer came back within a second.
    expect(Math.max(...during.map((p) => p.ms))).toBeLessThan(1000);
  });
});

describe('a server behind sending a message over the limit', () => {
  it('the call it answers fails at once saying so; the server keeps serving; a huge non-JSON line is skipped', async () => {
    // The limit is 256 MB; the same code path is shown here with a 1 MB limit.
    const handle = createStdioHandle({
      command: process.execPath,
      args: [BIG, '--line-mb', '2'],
      maxMessageBytes: MB,
    });
    const client = new Client({ name: 'oversize', version: '1' });
    try {
      await client.connect(handle.transport);
      const started = performance.now();
      const failed = await client
        .callTool({ name: 'big', arguments: { mb: 2 } }, { timeout: 30_000 })
        .catch((e: unknown) => e);
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(String(failed)).toContain(
        'the server sent a message of 2 MB, over the 1 MB limit for one message; it was dropped',
      );
      const echo = await client.callTool({ name: 'echo', arguments: { text: 'after' } });
      expect(echo.content).toEqual([{ type: 'text', text: 'after' }]);
      expect(handle.stderr.toString()).toContain('[mcp-smart] the server sent a message of 2 MB');
    } finally {
      await client.close();
      await handle.terminate();
    }
  });

  it('a result over the limit with a "method" key nested near its start still fails its call at once', async () => {
    // The result's first bytes hold `"method":` inside _meta; only a top-level method makes a message a request.
    // It was taken for one, reported through onerror, and the call waited for its timeout.
    const handle = createStdioHandle({ command: process.execPath, args: [BIG], maxMessageBytes: MB });
    const client = new Client({ name: 'oversize-nested', version: '1' });
    try {
      await client.connect(handle.transport);
      const started = performance.now();
      const failed = await client
        .callTool({ name: 'big', arguments: { mb: 2, nested: true } }, { timeout: 20_000 })
        .catch((e: unknown) => e);
      expect(String(failed)).toContain(
        'the server sent a message of 2 MB, over the 1 MB limit for one message; it was dropped',
      );
      expect(performance.now() - started).toBeLessThan(10_000);
      const echo = await client.callTool({ name: 'echo', arguments: { text: 'after' } });
      expect(echo.content).toEqual([{ type: 'text', text: 'after' }]);
    } finally {
      await client.close();
      await handle.terminate();
    }
  });
});
