// The conformance fixture without the suite (which needs Node 22 from the network): over stdio, the way `serve`
// starts it behind itself, with the SDK client answering sampling and elicitation; and over HTTP, its Host/Origin
// check and sessions. `npm run conformance` runs the suite itself against it.
import { type ChildProcess } from 'node:child_process';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { openRawStdio } from '../helpers/raw-stdio.js';
import { startHttpFixture } from '../helpers/spawn-cli.js';

const SERVER = fixture('servers', 'conformance-server.mjs');

describe('conformance fixture over stdio', () => {
  let client: Client;
  const logs: unknown[] = [];
  const sampled: unknown[] = [];
  const elicited: unknown[] = [];

  beforeAll(async () => {
    client = new Client({ name: 'mcp-smart-tests', version: '0' }, { capabilities: { sampling: {}, elicitation: {} } });
    client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params.data));
    client.setRequestHandler('sampling/createMessage', async (req) => {
      sampled.push(req.params);
      return { role: 'assistant', content: { type: 'text', text: 'a reply' }, model: 'test-model' };
    });
    client.setRequestHandler('elicitation/create', async (req) => {
      elicited.push(req.params);
      return { action: 'accept', content: { username: 'alice', email: 'alice@example.com' } };
    });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], stderr: 'ignore' }));
  });
  afterAll(async () => client.close());

  it('advertises what the scenarios need and lists the names they call', async () => {
    expect(client.getServerCapabilities()).toEqual({
      tools: {},
      resources: { subscribe: true },
      prompts: {},
      logging: {},
      completions: {},
    });
    const tools = (await client.listTools()).tools.map((t) => t.name);
    // 14 for the 0.1.16 scenarios, 8 for 0.2.0's input-required-result-* (asked the 2025 way, bridged by serve),
    // 3 for 0.2.0's server-stateless (test_missing_capability, test_streaming_elicitation, test_logging_tool).
    expect(tools).toHaveLength(25);
    expect(tools).toEqual(expect.arrayContaining(['test_simple_text', 'test_sampling', 'json_schema_2020_12_tool']));
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual([
      'test_simple_prompt',
      'test_prompt_with_arguments',
      'test_prompt_with_embedded_resource',
      'test_prompt_with_image',
      'test_input_required_result_prompt',
    ]);
    const templates = (await client.listResourceTemplates()).resourceTemplates;
    expect(templates.map((t) => t.uriTemplate)).toEqual(['test://template/{id}/data']);
  });

  it('sampling and elicitation round-trip through the client', async () => {
    const s = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Say hi' } });
    expect(s.content).toEqual([{ type: 'text', text: 'LLM response: a reply' }]);
    expect(sampled).toEqual([
      { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 100 },
    ]);
    const e = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
    expect(e.content).toEqual([
      {
        type: 'text',
        text: 'Elicitation completed: action=accept, content={"username":"alice","email":"alice@example.com"}',
      },
    ]);
    expect((elicited[0] as { message: string }).message).toBe('Who are you?');
  });

  it('progress 0, 50, 100 is sent before the result; logging honours the level the client set', async () => {
    // Seen raw: the SDK client runs progress handlers a microtask late, so a last notification that arrives in the
    // same read as the result is dropped ("unknown token") — a proxy forwarding progress must not rely on it.
    const raw = openRawStdio(process.execPath, [SERVER]);
    try {
      await raw.initialize();
      const call = await raw.request('tools/call', {
        name: 'test_tool_with_progress',
        arguments: {},
        _meta: { progressToken: 'p' },
      });
      expect(raw.notifications.map((n) => (n.params as { progress: number }).progress)).toEqual([0, 50, 100]);
      expect(raw.notifications.every((n) => n.method === 'notifications/progress')).toBe(true);
      expect(call.result).toEqual({ content: [{ type: 'text', text: 'Progress tool finished.' }] });
    } finally {
      raw.kill();
    }

    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(logs).toEqual([]);
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(logs).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
  });

  it("server-stateless's tools ask and log the 2025 way, inside the call", async () => {
    sampled.length = 0;
    elicited.length = 0;
    logs.length = 0;
    const m = await client.callTool({ name: 'test_missing_capability', arguments: {} });
    expect(m.content).toEqual([{ type: 'text', text: 'Model said: a reply' }]);
    expect(sampled).toEqual([
      { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 20 },
    ]);
    const e = await client.callTool({ name: 'test_streaming_elicitation', arguments: {} });
    expect(e.content).toEqual([
      {
        type: 'text',
        text: 'Elicitation: action=accept, content={"username":"alice","email":"alice@example.com"}',
      },
    ]);
    expect((elicited[0] as { message: string }).message).toBe('Please confirm');
    await client.setLoggingLevel('info');
    const l = await client.callTool({ name: 'test_logging_tool', arguments: {} });
    expect(l.content).toEqual([{ type: 'text', text: 'Logged two info messages.' }]);
    expect(logs).toEqual(['test_logging_tool started', 'test_logging_tool finished']);
  });

  it('binary resources, templates, prompt arguments and completion', async () => {
    const png = await client.readResource({ uri: 'test://static-binary' });
    const blob = (png.contents[0] as { blob: string }).blob;
    expect(Buffer.from(blob, 'base64').subarray(1, 4).toString()).toBe('PNG');
    const t = await client.readResource({ uri: 'test://template/7/data' });
    expect(JSON.parse((t.contents[0] as { text: string }).text)).toEqual({
      id: '7',
      templateTest: true,
      data: 'Data for ID: 7',
    });
    await expect(client.readResource({ uri: 'test://nowhere' })).rejects.toThrow('Resource not found: test://nowhere');
    const c = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect(c.completion).toEqual({ values: ['paris', 'park', 'party'], total: 3, hasMore: false });
  });
});

describe('conformance fixture over Streamable HTTP', () => {
  const children: ChildProcess[] = [];
  let url: string;
  const init = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
  });
  const post = (headers: Record<string, string>, body = init) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body,
    });

  beforeAll(async () => {
    url = await startHttpFixture(SERVER, ['--http', '--port', '0'], children);
  });
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
  });

  it('rejects a non-loopback Origin with 403 and accepts a loopback one with a session id', async () => {
    const evil = await post({ origin: 'http://evil.example.com' });
    expect(evil.status).toBe(403);
    expect(await evil.json()).toMatchObject({
      error: { message: 'Forbidden: Host or Origin is not a loopback address' },
    });
    const ok = await post({ origin: new URL(url).origin });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    await ok.body?.cancel();
  });

  it('answers 400 without a session, 404 for an unknown session', async () => {
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect((await post({}, list)).status).toBe(400);
    expect((await post({ 'mcp-session-id': 'no-such-session' }, list)).status).toBe(404);
  });
});
