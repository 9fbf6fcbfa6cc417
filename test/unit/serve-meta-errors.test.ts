// The meta-tools' answers to wrong input, as a client reads them (ServeRuntime behind the SDK's Server, in memory):
// - find_tool and list_tools refuse a `server` that is not there with the same error naming the known servers, and a
//   `server` or `queries` entry of the wrong type with an error naming the argument; a server that has not started is
//   named with why;
// - describe_tool and call_tool of a tool whose server has not started say why that server is not running (a variable
//   not set, a failed start, approval pending), not "no tool";
// - params that break a method's schema are -32602 naming what is wrong (not -32603 with zod's dump), and call_tool
//   arguments nested too deep are an error result (they overflowed the stack: -32603).
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenCounter, type TokenCounter } from '../../src/core/tokens/index.js';
import { countingWith } from '../../src/serve/deps.js';
import { ServeRuntime } from '../../src/serve/runtime.js';
import { createClientServer } from '../../src/serve/sdk-server.js';
import type { ServeMode } from '../../src/serve/served-view.js';
import { heldServers } from '../../src/serve/setup.js';
import type { ServerDefinition, ServerSnapshot, ToolSnapshot } from '../../src/core/types.js';
import { tempDir } from '../helpers/temp.js';

const NOTES: ToolSnapshot[] = [
  {
    name: 'create_note',
    description: 'Create a note with a title.',
    inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
  },
  { name: 'search', description: 'Search notes by text.', inputSchema: { type: 'object' } },
];

const def = (name: string, extra: Partial<ServerDefinition> = {}): ServerDefinition => ({
  name,
  transport: 'stdio',
  command: 'unused-in-memory',
  enabled: true,
  source: 'test',
  scope: 'explicit',
  ...extra,
});

let counter: TokenCounter;
let dir: string;
beforeAll(async () => {
  counter = await createTokenCounter('o200k_base');
  dir = tempDir('mcp-smart-serve-meta-errors-');
});

const open: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of open) await close();
});

/**
 * serve with `notes` (known, in memory), `vars` (its ${NOTES_TOKEN} unset) and `boom` (its start fails): the two
 * last are listed at start, fail, and wait to be tried again, as serve's command does.
 */
async function harness(mode: ServeMode) {
  const known = new Map<string, ServerSnapshot>([
    ['notes', { name: 'notes', transport: 'stdio', status: 'ok', tools: NOTES }],
  ]);
  const runtime = new ServeRuntime({
    setup: {
      definitions: [def('notes'), def('vars', { unsetVariables: ['NOTES_TOKEN'] }), def('boom')],
      held: heldServers(
        { servers: [def('notes'), def('held', { enabled: false, pendingTrust: true })] } as never,
        [],
        [def('notes')],
      ),
      known,
      config: {},
      warnings: [],
      cache: null,
      usageStore: `${dir}/usage-${mode}.json`,
    },
    mode,
    level: 'lossless',
    limit: 20_000,
    key: 'mcp-smart',
    activate: false,
    counting: countingWith(counter),
    usage: { tools: {} },
    learn: false,
    spawnTimeoutMs: 5000,
    callTimeoutMs: 5000,
    log: () => undefined,
    now: () => Date.now(),
    clock: () => 0,
    pool: {
      createTransport: (d) => {
        if (d.name === 'boom') throw new Error('spawn boom-server ENOENT');
        const server = new Server({ name: d.name, version: '1' }, { capabilities: { tools: {} } });
        server.setRequestHandler('tools/list', () => ({ tools: NOTES as never }));
        server.setRequestHandler('tools/call', (req) => ({ content: [{ type: 'text', text: req.params.name }] }));
        const [a, z] = InMemoryTransport.createLinkedPair();
        void server.connect(z);
        return a;
      },
    },
  });
  await runtime.init();
  await runtime.listUnknown(async () => undefined);
  const server = createClientServer(runtime);
  const [ca, sa] = InMemoryTransport.createLinkedPair();
  await server.connect(sa);
  const client = new Client({ name: 'test', version: '1' }, { capabilities: {} });
  await client.connect(ca);
  open.push(async () => {
    await client.close();
    await runtime.close();
  });
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as {
      content: { text: string }[];
      isError?: boolean;
    };
    return { text: r.content[0]?.text ?? '', isError: r.isError === true };
  };
  return { runtime, client, call };
}

describe('find_tool and list_tools: the `server` argument', () => {
  it('an unknown server is refused by both alike, naming the known ones (those not started too)', async () => {
    const h = await harness('meta');
    const refusal = 'mcp-smart: No server named "zzz". Known servers: boom, notes, vars.';
    expect(await h.call('find_tool', { intent: 'x', server: 'zzz' })).toEqual({ text: refusal, isError: true });
    expect(await h.call('list_tools', { server: 'zzz' })).toEqual({ text: refusal, isError: true });
    // A typo gets the guess.
    expect((await h.call('find_tool', { intent: 'x', server: 'note' })).text).toContain('Did you mean "notes"?');
  });

  it('a server that has not started is named with why, not refused', async () => {
    const h = await harness('meta');
    const found = await h.call('find_tool', { intent: 'search notes', server: 'vars' });
    expect(found.isError).toBe(false);
    const answer = JSON.parse(found.text) as { results: unknown[]; notStarted: { server: string; reason: string }[] };
    expect(answer.results).toEqual([]);
    expect(answer.notStarted.find((u) => u.server === 'vars')?.reason).toContain('${NOTES_TOKEN} is not set');
    expect((await h.call('list_tools', { server: 'boom' })).text).toContain(
      '(server "boom" has not started: start-up failed: spawn boom-server ENOENT',
    );
  });

  it('a `server` or a `queries` entry of the wrong type is an error result naming the argument', async () => {
    const h = await harness('meta');
    expect(await h.call('find_tool', { intent: 'x', server: 123 })).toEqual({
      text: 'find_tool "server" must be a server name (a string), got 123.',
      isError: true,
    });
    expect(await h.call('list_tools', { server: 5 })).toEqual({
      text: 'list_tools "server" must be a server name (a string), got 5.',
      isError: true,
    });
    expect(await h.call('find_tool', { intent: 'x', queries: ['search notes', 2, null] })).toEqual({
      text: 'find_tool "queries"[1] must be a string (another phrasing of the intent), got 2.',
      isError: true,
    });
  });

  it('a long unknown server name is shown cut to 40 characters', async () => {
    const h = await harness('meta');
    const { text } = await h.call('find_tool', { intent: 'x', server: 'é'.repeat(200_000) });
    expect(text).toBe(`mcp-smart: No server named "${'é'.repeat(36)}...". Known servers: boom, notes, vars.`);
  });
});

describe('an unknown tool name', () => {
  it('is shown cut to 60 characters; a missing name is said to be missing', async () => {
    const h = await harness('meta');
    const long = await h.call('call_tool', { name: 'é'.repeat(200_000), arguments: {} });
    expect(long.isError).toBe(true);
    expect(long.text).toContain(`no tool "${'é'.repeat(57)}...".`);
    expect(long.text.length).toBeLessThan(300);
    for (const args of [{}, { arguments: {} }, { name: '' }])
      expect((await h.call('describe_tool', args)).text, JSON.stringify(args)).toMatch(
        /^mcp-smart: no tool named: "name" is missing\. Pass "name"/,
      );
  });

  it('called directly in tools mode, the hint names no find_tool (tools mode serves none)', async () => {
    const h = await harness('tools');
    const e = await h.client.callTool({ name: 'no_such_tool', arguments: {} }).then(
      () => '',
      (x: Error) => x.message,
    );
    expect(e).toContain('no tool "no_such_tool". Call tools/list for the served names.');
    expect(e).not.toContain('find_tool');
  });
});

describe('describe_tool and call_tool of a server that is not running', () => {
  it('say why: the variable not set, the failed start and when it is tried again, the approval pending', async () => {
    const h = await harness('meta');
    const call = (name: string) => h.call('call_tool', { name, arguments: {} });
    expect(await call('vars.search')).toEqual({
      text: 'mcp-smart: server "vars" is unavailable: ${NOTES_TOKEN} is not set in the environment serve runs in (set it where the client starts mcp-smart, then restart serve)',
      isError: true,
    });
    expect((await h.call('describe_tool', { name: 'vars.search' })).text).toContain('${NOTES_TOKEN} is not set');
    expect((await call('boom.anything')).text).toMatch(
      /^mcp-smart: server "boom" is unavailable: it failed to start \(start-up failed: spawn boom-server ENOENT\); mcp-smart tries it again in \d s$/,
    );
    expect((await call('held.tool')).text).toBe(
      'mcp-smart: server "held" is unavailable: it is pending approval of this project\'s servers (run `mcp-smart trust` in the project, `trust -c <file>` for a --config file, or start serve with --trust-project)',
    );
    // find_tool and list_tools name it alike.
    expect((await h.call('find_tool', { intent: 'x', server: 'held' })).text).toContain('pending approval');
    expect((await h.call('list_tools', { server: 'held' })).text).toContain('pending approval');
    // A server that runs: an unknown tool of it is an unknown tool.
    expect((await call('notes.nope')).text).toMatch(/^mcp-smart: no tool "notes.nope"/);
  });
});

describe('params that break the schema', () => {
  /** Raw JSON-RPC requests to a fresh connection of `h`'s runtime: the answers by id. */
  async function raw(
    runtime: ServeRuntime,
    messages: object[],
  ): Promise<Map<unknown, { error?: { code: number; message: string } }>> {
    const server = createClientServer(runtime);
    const [ca, sa] = InMemoryTransport.createLinkedPair();
    await server.connect(sa);
    const answers = new Map<unknown, { error?: { code: number; message: string } }>();
    ca.onmessage = (m) => void answers.set((m as { id?: unknown }).id, m as never);
    await ca.start();
    for (const m of messages) await ca.send({ jsonrpc: '2.0', ...m } as never);
    const ids = messages.flatMap((m) => ('id' in m ? [m.id] : []));
    for (let i = 0; i < 100 && ids.some((id) => !answers.has(id)); i++) await new Promise((r) => setTimeout(r, 20));
    await server.close();
    return answers;
  }

  it('initialize, logging/setLevel and resources/read with bad params get -32602 naming the param', async () => {
    const h = await harness('meta');
    const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } };
    const a = await raw(h.runtime, [
      { id: 1, method: 'initialize' },
      { id: 2, method: 'initialize', params: { ...init, protocolVersion: 5 } },
      { id: 3, method: 'initialize', params: init },
      { method: 'notifications/initialized' },
      { id: 4, method: 'logging/setLevel', params: { level: 'bogus' } },
      { id: 5, method: 'resources/read', params: {} },
    ]);
    expect(a.get(1)?.error).toEqual({
      code: -32602,
      message: 'Invalid params for initialize: params: Invalid input: expected object, received undefined',
    });
    expect(a.get(2)?.error).toEqual({
      code: -32602,
      message: 'Invalid params for initialize: params.protocolVersion: Invalid input: expected string, received number',
    });
    expect(a.get(3)?.error).toBeUndefined();
    expect(a.get(4)?.error?.code).toBe(-32602);
    expect(a.get(4)?.error?.message).toMatch(/^Invalid params for logging\/setLevel: params\.level: Invalid option/);
    expect(a.get(5)?.error).toEqual({
      code: -32602,
      message: 'Invalid params for resources/read: params.uri: Invalid input: expected string, received undefined',
    });
  });

  it('call_tool arguments nested 50,000 deep, as an object or a JSON string, are an error result', async () => {
    const h = await harness('meta');
    const deep = `{"a":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    const refusal = {
      text: 'mcp-smart: arguments for notes.search do not match its input schema: "arguments" are nested deeper than 256 levels. Call describe_tool {"name": "notes.search"} for the schema.',
      isError: true,
    };
    expect(await h.call('call_tool', { name: 'notes.search', arguments: deep })).toEqual(refusal);
    expect(await h.call('call_tool', { name: 'notes.search', arguments: JSON.parse(deep) })).toEqual(refusal);
    expect((await h.call('call_tool', { name: 'notes.search', arguments: 'null' })).text).toContain(
      '"arguments" must be an object, got null',
    );
  });
});
