// serve in-process: names that fit every client, the meta-tools' exact cost, find → call over the SDK's
// in-memory transports (lazy start, arguments validated, results unchanged, progress forwarded), collisions in
// tools mode, and auto mode sending exactly what `budget` says fits.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metaTools } from '../../src/core/condense/index.js';
import { readSnapshotFiles } from '../../src/core/snapshot.js';
import { countToolTokens, createTokenCounter, type TokenCounter } from '../../src/core/tokens/index.js';
import { buildServedView, type ServeMode } from '../../src/serve/served-view.js';
import { countingWith, type Counting } from '../../src/serve/deps.js';
import { assignServedNames, fitName, maxServedNameLength } from '../../src/core/served-names.js';
import { ServeRuntime } from '../../src/serve/runtime.js';
import { createClientServer } from '../../src/serve/sdk-server.js';
import type { ServeSetup } from '../../src/serve/setup.js';
import { isSelfServe } from '../../src/app/services/launcher.js';
import { templatePattern } from '../../src/serve/passthrough.js';
import type { ServeConfig, ServerDefinition, ServerSnapshot, ToolSnapshot } from '../../src/core/types.js';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';

let counter: TokenCounter;
let dir: string;
beforeAll(async () => {
  counter = await createTokenCounter('o200k_base');
  dir = await mkdtemp(join(tmpdir(), 'mcp-smart-serve-unit-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('served names', () => {
  it('fit Claude Code (mcp__<key>__ + name ≤ 64) and Cursor (key + name ≤ 60)', () => {
    expect(maxServedNameLength('mcp-smart')).toBe(48);
    expect(maxServedNameLength('s')).toBe(56);
    const long = 'x'.repeat(70);
    const a = fitName(long, 'srv.' + long, 48);
    expect(a).toHaveLength(48);
    expect(a).toBe(fitName(long, 'srv.' + long, 48));
    expect(a).toMatch(/^x{41}_[0-9a-f]{6}$/);
    expect(fitName('get.file name', 'srv.get.file name', 48)).toBe('get_file_name');
  });

  it('keep names unless two servers collide or a meta-tool name is taken; deterministic', () => {
    const items = [
      { server: 'a', name: 'search' },
      { server: 'a', name: 'only_a' },
      { server: 'b', name: 'search' },
      { server: 'b', name: 'find_tool' },
    ];
    const names = assignServedNames(items, 'mcp-smart', ['find_tool']);
    expect(names).toEqual(['a_search', 'only_a', 'b_search', 'b_find_tool']);
    expect(assignServedNames(items, 'mcp-smart', ['find_tool'])).toEqual(names);
  });
});

describe('meta-tools', () => {
  it('cost 442 tokens together as budget counts them, 496 as JSON with annotations; both ≤ 1,000', () => {
    const tools = metaTools();
    expect(tools.map((t) => t.name)).toEqual([
      'find_tool',
      'describe_tool',
      'list_tools',
      'call_tool',
      'call_tool_read',
    ]);
    const asCounted = tools.reduce((n, t) => n + countToolTokens(t, counter), 0);
    const asSent = counter.count(JSON.stringify(tools));
    expect(asCounted).toBe(442);
    expect(asSent).toBe(496);
    expect(Math.max(asCounted, asSent)).toBeLessThanOrEqual(1000);
  });
});

// ---- in-memory servers behind the runtime ----

interface Backend {
  tools: ToolSnapshot[];
  started: number;
}

function backendServer(name: string, b: Backend): Server {
  const server = new Server({ name, version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools: b.tools as never }));
  server.setRequestHandler('tools/call', async (req, ctx) => {
    if (req.params.name === 'ask') {
      if (!server.getClientCapabilities()?.elicitation)
        return { content: [{ type: 'text', text: 'elicitation not declared' }] };
      const answer = await server.elicitInput({
        message: 'Whose note?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      });
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
    }
    if (req.params.name === 'crash') {
      setTimeout(() => void server.close(), 5);
      return new Promise<never>(() => undefined);
    }
    const token = req.params._meta?.progressToken;
    if (token !== undefined)
      await ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken: token, progress: 1, total: 1 },
      });
    return {
      content: [{ type: 'text', text: `${name}:${req.params.name}:${JSON.stringify(req.params.arguments ?? {})}` }],
      structuredContent: { server: name },
      isError: req.params.name === 'fail',
      _meta: { from: name },
    };
  });
  return server;
}

const def = (name: string): ServerDefinition => ({
  name,
  transport: 'stdio',
  command: 'unused-in-memory',
  enabled: true,
  source: 'test',
  scope: 'explicit',
});

const NOTES: ToolSnapshot[] = [
  {
    name: 'create_note',
    description: 'Create a note with a title and body.',
    inputSchema: {
      type: 'object',
      properties: { title: { type: 'string' }, body: { type: 'string' } },
      required: ['title'],
    },
  },
  {
    name: 'search',
    description: 'Search notes by text.',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    annotations: { readOnlyHint: true },
  },
  { name: 'ask', description: 'Asks the user whose note it is.', inputSchema: { type: 'object' } },
];
const FILES: ToolSnapshot[] = [
  {
    name: 'search',
    description: 'Search files on disk by name.',
    inputSchema: { type: 'object', properties: { pattern: { type: 'string' } } },
    annotations: { readOnlyHint: true },
  },
  { name: 'fail', description: 'Always reports an error.', inputSchema: { type: 'object' } },
  { name: 'crash', description: 'Exits in the middle of the call.', inputSchema: { type: 'object' } },
];

async function harness(
  mode: ServeMode,
  config: ServeConfig = {},
  extra: { clock?: { t: number }; activate?: boolean; limit?: number; elicitation?: boolean } = {},
) {
  const clock = extra.clock ?? { t: 1_700_000_000_000 };
  const backends: Record<string, Backend> = {
    notes: { tools: NOTES, started: 0 },
    files: { tools: FILES, started: 0 },
  };
  const known = new Map<string, ServerSnapshot>(
    Object.entries(backends).map(([name, b]) => [name, { name, transport: 'stdio', status: 'ok', tools: b.tools }]),
  );
  const setup: ServeSetup = {
    definitions: [def('notes'), def('files')],
    known,
    config: { serve: config },
    warnings: [],
    cache: null,
    usageStore: join(dir, `usage-${mode}.json`),
  };
  const counting: Counting = countingWith(counter);
  const runtime = new ServeRuntime({
    setup,
    mode,
    level: 'lossless',
    limit: extra.limit ?? 20_000,
    key: 'mcp-smart',
    activate: extra.activate === true,
    counting,
    usage: { tools: {} },
    learn: true,
    record: join(dir, `cases-${mode}.jsonl`),
    spawnTimeoutMs: 5000,
    callTimeoutMs: 5000,
    log: () => undefined,
    now: () => clock.t,
    clock: () => 0,
    pool: {
      createTransport: (d) => {
        const b = backends[d.name]!;
        b.started++;
        const [a, z] = InMemoryTransport.createLinkedPair();
        void backendServer(d.name, b).connect(z);
        return a;
      },
    },
  });
  await runtime.init();
  const server = createClientServer(runtime);
  const [ca, sa] = InMemoryTransport.createLinkedPair();
  await server.connect(sa);
  const client = new Client(
    { name: 'test', version: '1' },
    { capabilities: extra.elicitation ? { elicitation: {} } : {} },
  );
  if (extra.elicitation)
    client.setRequestHandler('elicitation/create', (req) => ({
      action: 'accept',
      content: { name: `bob (asked: ${req.params.message})` },
    }));
  await client.connect(ca);
  const text = (r: unknown): string => (r as { content: { text: string }[] }).content[0]?.text ?? '';
  return {
    runtime,
    client,
    backends,
    text,
    close: async () => {
      await client.close();
      await runtime.close();
    },
  };
}

describe('serve over in-memory transports', () => {
  it('meta mode: lists only the meta-tools without starting a server; find → call starts one, result unchanged', async () => {
    const h = await harness('meta');
    const listed = await h.client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual([
      'find_tool',
      'describe_tool',
      'list_tools',
      'call_tool',
      'call_tool_read',
    ]);
    expect(listed.tools[3]?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    expect(h.backends.notes!.started + h.backends.files!.started).toBe(0);

    const found = JSON.parse(
      h.text(await h.client.callTool({ name: 'find_tool', arguments: { intent: 'write a new note', k: 2 } })),
    );
    expect(found.results[0].id).toBe('notes.create_note');
    expect(found.results[0].inputSchema.required).toEqual(['title']);
    expect(h.backends.notes!.started).toBe(0);

    // Several phrasings of one need (`queries`) are ranked and fused by reciprocal rank: two of three put
    // files.search first, so it leads although the intent alone puts notes.search first.
    const ids = async (args: Record<string, unknown>): Promise<string[]> =>
      JSON.parse(h.text(await h.client.callTool({ name: 'find_tool', arguments: { k: 2, ...args } }))).results.map(
        (r: { id: string }) => r.id,
      );
    expect((await ids({ intent: 'search notes' }))[0]).toBe('notes.search');
    expect(
      (await ids({ intent: 'search notes', queries: ['search files on disk by name', 'files on disk', ''] }))[0],
    ).toBe('files.search');

    const progress: number[] = [];
    const result = await h.client.callTool(
      { name: 'call_tool', arguments: { name: 'notes.create_note', arguments: '{"title":"t"}' } },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(result).toEqual({
      content: [{ type: 'text', text: 'notes:create_note:{"title":"t"}' }],
      structuredContent: { server: 'notes' },
      isError: false,
      _meta: { from: 'notes' },
    });
    expect(progress).toEqual([1]);
    expect([h.backends.notes!.started, h.backends.files!.started]).toEqual([1, 0]);
    await h.runtime.learner.flush();
    expect(h.runtime.learner.cases).toEqual([{ intent: 'write a new note', expected: ['notes.create_note'] }]);
    expect(h.runtime.opts.usage.tools['notes.create_note']).toMatchObject({ success: 1, failure: 0 });
    await h.close();
  });

  it('meta mode: clear errors for bad arguments, unknown and ambiguous names; call_tool_read refuses writes', async () => {
    const h = await harness('meta');
    const bad = await h.client.callTool({
      name: 'call_tool',
      arguments: { name: 'notes.create_note', arguments: { body: 3 } },
    });
    expect(bad.isError).toBe(true);
    expect(h.text(bad)).toBe(
      'mcp-smart: arguments for notes.create_note do not match its input schema: arguments must have required property \'title\', arguments/body must be string. Call describe_tool {"name": "notes.create_note"} for the schema.',
    );
    const ambiguous = await h.client.callTool({ name: 'call_tool', arguments: { name: 'search', arguments: {} } });
    expect(h.text(ambiguous)).toBe(
      'mcp-smart: no tool "search". Several servers have it: files.search, notes.search; pass one of these ids.',
    );
    const refused = await h.client.callTool({
      name: 'call_tool_read',
      arguments: { name: 'notes.create_note', arguments: { title: 'x' } },
    });
    expect(h.text(refused)).toBe(
      'mcp-smart: notes.create_note is not annotated readOnlyHint, so call_tool_read refuses it; use call_tool (which your client may ask you to approve).',
    );
    const read = await h.client.callTool({
      name: 'call_tool_read',
      arguments: { name: 'files.search', arguments: {} },
    });
    expect(h.text(read)).toBe('files:search:{}');
    expect(h.backends.notes!.started).toBe(0);
    const failed = await h.client.callTool({ name: 'call_tool', arguments: { name: 'files.fail' } });
    expect(failed.isError).toBe(true);
    expect(h.runtime.opts.usage.tools['files.fail']).toMatchObject({ success: 0, failure: 1 });
    const described = JSON.parse(
      h.text(await h.client.callTool({ name: 'describe_tool', arguments: { name: 'notes.search' } })),
    );
    expect(described).toEqual({ id: 'notes.search', ...NOTES[1], name: undefined });
    const list = h.text(await h.client.callTool({ name: 'list_tools', arguments: { server: 'files' } }));
    expect(list).toBe(
      'files.search — Search files on disk by name.\nfiles.fail — Always reports an error.\nfiles.crash — Exits in the middle of the call.',
    );
    await h.close();
  });

  it('tools mode: every tool first-class, colliding names prefixed, calls routed to the right server', async () => {
    const h = await harness('tools', {
      servers: { files: { disable: ['fail', 'crash'] }, notes: { disable: ['ask'] } },
    });
    const names = (await h.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(['files_search', 'create_note', 'notes_search']);
    expect(h.text(await h.client.callTool({ name: 'notes_search', arguments: { query: 'q' } }))).toBe(
      'notes:search:{"query":"q"}',
    );
    expect(h.text(await h.client.callTool({ name: 'files_search', arguments: {} }))).toBe('files:search:{}');
    await h.close();
  });

  it('pin and load: a deferred server keeps its pinned tool first-class; an off server is not served at all', async () => {
    const h = await harness('auto', {
      servers: { notes: { load: 'defer', pin: ['create_note'] }, files: { load: 'off' } },
    });
    const names = (await h.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(['find_tool', 'describe_tool', 'list_tools', 'call_tool', 'call_tool_read', 'create_note']);
    const list = h.text(await h.client.callTool({ name: 'list_tools', arguments: {} }));
    expect(list).not.toContain('files.');
    await h.close();
  });
});

describe('health, activation and recording', () => {
  it('a server that crashes mid-call: an error naming it, restarted with back-off, unhealthy after 3 failures; the other keeps serving', async () => {
    const clock = { t: 1_700_000_000_000 };
    const h = await harness('meta', {}, { clock });
    const crash = () => h.client.callTool({ name: 'call_tool', arguments: { name: 'files.crash' } });
    const first = await crash();
    expect(first.isError).toBe(true);
    expect(h.text(first)).toMatch(/^mcp-smart: server "files" is unavailable: /);
    await crash(); // restarted at once after the first failure, crashes again
    expect(h.backends.files!.started).toBe(2);
    const waiting = await crash();
    expect(h.text(waiting)).toMatch(/^mcp-smart: server "files" failed \(.*\); mcp-smart restarts it in 1 s/);
    expect(h.backends.files!.started).toBe(2);
    clock.t += 1000;
    await crash();
    expect(h.backends.files!.started).toBe(3);
    expect(h.runtime.pool.health('files').state).toBe('unhealthy');
    const found = JSON.parse(
      h.text(
        await h.client.callTool({
          name: 'find_tool',
          arguments: { intent: 'search files on disk', server: 'files', k: 1 },
        }),
      ),
    );
    expect(found.results[0].id).toBe('files.search');
    expect(found.results[0].unavailable).toMatch(/^server "files" is unhealthy \(/);
    expect(
      h.text(
        await h.client.callTool({ name: 'call_tool', arguments: { name: 'notes.search', arguments: { query: 'x' } } }),
      ),
    ).toBe('notes:search:{"query":"x"}');
    await h.close();
  });

  it('--activate: a tool called through call_tool becomes first-class and the client is told the list changed', async () => {
    const h = await harness('meta', {}, { activate: true });
    let changed = 0;
    h.client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
    await h.client.callTool({ name: 'call_tool', arguments: { name: 'notes.create_note', arguments: { title: 't' } } });
    const names = (await h.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(['find_tool', 'describe_tool', 'list_tools', 'call_tool', 'call_tool_read', 'create_note']);
    expect(changed).toBe(1);
    expect(h.text(await h.client.callTool({ name: 'create_note', arguments: { title: 'direct' } }))).toBe(
      'notes:create_note:{"title":"direct"}',
    );
    await h.close();
  });

  it('--activate unloads the least recently used tool when over the limit', async () => {
    const base = await harness('meta');
    const metaOnly = base.runtime.view.tokens;
    await base.close();
    const h = await harness('meta', {}, { activate: true, limit: metaOnly + 60 });
    await h.client.callTool({ name: 'call_tool', arguments: { name: 'notes.create_note', arguments: { title: 't' } } });
    expect(h.runtime.view.servedNameOf.has('notes.create_note')).toBe(true);
    await h.client.callTool({ name: 'call_tool', arguments: { name: 'files.search', arguments: {} } });
    expect(h.runtime.view.servedNameOf.has('files.search')).toBe(true);
    expect(h.runtime.view.servedNameOf.has('notes.create_note')).toBe(false);
    expect(h.runtime.view.tokens).toBeLessThanOrEqual(metaOnly + 60);
    await h.close();
  });

  it('--record appends "intent → tool" as labelled-intents JSONL with secrets redacted; the usage store is written', async () => {
    const h = await harness('meta');
    const intent = 'write a note with token ghp_abcdefghijklmnopqrstuvwxyz123456';
    await h.client.callTool({ name: 'find_tool', arguments: { intent, k: 3 } });
    await h.client.callTool({ name: 'call_tool', arguments: { name: 'notes.create_note', arguments: { title: 'x' } } });
    await h.runtime.learner.flush();
    const lines = (await readFile(join(dir, 'cases-meta.jsonl'), 'utf8')).trim().split('\n');
    expect(JSON.parse(lines[lines.length - 1]!)).toEqual({
      intent: 'write a note with token ***',
      expected: ['notes.create_note'],
    });
    const store = JSON.parse(await readFile(join(dir, 'usage-meta.json'), 'utf8'));
    expect(store.tools['notes.create_note'].success).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(store)).not.toContain('"x"');
    await h.close();
  });
});

describe('elicitation from a server behind', () => {
  it('reaches a client that declared it; is not declared to the servers behind otherwise', async () => {
    const withIt = await harness('meta', {}, { elicitation: true });
    const answered = await withIt.client.callTool({ name: 'call_tool', arguments: { name: 'notes.ask' } });
    expect(withIt.text(answered)).toBe('{"action":"accept","content":{"name":"bob (asked: Whose note?)"}}');
    await withIt.close();
    const without = await harness('meta');
    const refused = await without.client.callTool({ name: 'call_tool', arguments: { name: 'notes.ask' } });
    expect(without.text(refused)).toBe('elicitation not declared');
    await without.close();
  });
});

describe('setup and routing helpers', () => {
  it('recognises a configured server that is mcp-smart serve itself (direct, via node, via npx)', () => {
    const stdio = (command: string, args: string[]): ServerDefinition => ({ ...def('x'), command, args });
    expect(isSelfServe(stdio('mcp-smart', ['serve']))).toBe(true);
    expect(isSelfServe(stdio('npx', ['-y', 'mcp-smart@latest', '--demo', 'serve', '--mode', 'meta']))).toBe(true);
    expect(isSelfServe(stdio('node', ['/opt/mcp-smart/bin/mcp-smart.js', 'serve']))).toBe(true);
    expect(isSelfServe(stdio('npx', ['-y', 'mcp-smart', 'audit']))).toBe(false);
    expect(isSelfServe(stdio('npx', ['-y', '@modelcontextprotocol/server-memory']))).toBe(false);
  });

  it('routes a resource uri by RFC 6570 template', () => {
    expect(templatePattern('file:///{path}').test('file:///notes.txt')).toBe(true);
    expect(templatePattern('file:///{path}').test('file:///a/b.txt')).toBe(false);
    expect(templatePattern('file:///{+path}').test('file:///a/b.txt')).toBe(true);
    expect(templatePattern('test://static/resource/{id}').test('test://static/resource/7')).toBe(true);
  });

  it('idleTimeout stops a server after the idle time; the next call starts it again', async () => {
    const h = await harness('meta', { servers: { notes: { idleTimeout: 0.05 } } });
    const call = () =>
      h.client.callTool({ name: 'call_tool', arguments: { name: 'notes.search', arguments: { query: 'q' } } });
    await call();
    expect(h.runtime.pool.health('notes').state).toBe('running');
    await new Promise((r) => setTimeout(r, 200));
    expect(h.runtime.pool.health('notes').state).toBe('idle');
    await call();
    expect(h.backends.notes!.started).toBe(2);
    await h.close();
  });
});

describe('auto mode sends what budget says fits', () => {
  it('check-base with --limit 620: same deferred servers and the same tokens, token for token', async () => {
    const snapshotFile = fixture('snapshots', 'check-base.json');
    const home = await mkdtemp(join(tmpdir(), 'mcp-smart-serve-budget-'));
    try {
      const r = await runCli(['--snapshot', snapshotFile, 'budget', '--max', '10000', '--limit', '620', '--json'], {
        cwd: home,
        env: { NO_COLOR: '1', HOME: home },
      });
      const doc = JSON.parse(r.stdout) as { final: number; plan: { action: string; target: string }[] };
      const servers = await readSnapshotFiles([snapshotFile], home);
      const counting = countingWith(counter);
      const view = buildServedView({
        servers,
        mode: 'auto',
        level: 'lossless',
        config: {},
        rules: { filters: new Map() },
        limit: 620,
        activated: [],
        key: 'mcp-smart',
        deps: counting.deps,
      });
      const deferredByBudget = doc.plan.filter((s) => s.action === 'defer').map((s) => s.target);
      expect(view.deferred).toEqual(deferredByBudget.sort());
      expect(view.deferred).toEqual(['files', 'notes']);
      expect(view.tokens).toBe(doc.final);
      expect(view.tokens).toBe(615);
      const sent = view.tools.reduce((n, t) => n + countToolTokens(t.definition, counter), 0);
      expect(sent).toBe(615);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('the serve section of mcp-smart.config.json', () => {
  it('accepts the documented keys and reports unknown or wrong ones with their key path and a suggestion', async () => {
    const { validateSmartConfig } = await import('../../src/core/config/validate.js');
    const { DEFAULT_WEIGHTS } = await import('../../src/core/discover/index.js');
    const good = validateSmartConfig(
      {
        serve: {
          mode: 'meta',
          level: 'compact',
          budget: { max: 128000, share: 0.05 },
          servers: { memory: { load: 'eager', idleTimeout: 0, disable: ['delete_entities'], pin: ['read_graph'] } },
          prefix: 'smart',
          activate: true,
        },
      },
      DEFAULT_WEIGHTS,
    );
    expect(good.issues).toEqual([]);
    expect(good.config.serve?.servers?.memory?.load).toBe('eager');
    const bad = validateSmartConfig(
      {
        serve: {
          mdoe: 'meta',
          level: 'tiny',
          budget: { max: -1 },
          servers: { memory: { load: 'lazy', pins: ['x'] } },
          prefix: 'has space',
        },
      },
      DEFAULT_WEIGHTS,
    );
    expect(bad.issues.map((i) => i.key)).toEqual([
      'serve.mdoe',
      'serve.level',
      'serve.prefix',
      'serve.budget.max',
      'serve.servers.memory.load',
      'serve.servers.memory.pins',
    ]);
    expect(bad.issues[0]?.reason).toContain('Did you mean "mode"?');
    expect(bad.issues[4]?.reason).toBe('expected one of "eager", "defer", "off", got "lazy".');
  });
});

describe('serve --print-config', () => {
  it('prints the client snippet and says why that mode; unknown clients are a usage error', async () => {
    const desktop = await runCli(['serve', '--print-config', 'claude-desktop']);
    expect(desktop.code).toBe(0);
    expect(desktop.stdout).toContain('# Claude Desktop, mode auto: it sends every tool to the model on each request');
    const code = await runCli(['serve', '--print-config', 'claude-code']);
    expect(code.stdout).toContain('# Claude Code, mode tools: it runs its own tool search');
    const meta = await runCli(['serve', '--print-config', 'codex', '--mode', 'meta']);
    expect(meta.stdout).toContain('# Codex, mode meta (chosen with --mode).');
    expect(meta.stdout).toContain('"serve", "--mode", "meta"]');
    const bad = await runCli(['serve', '--print-config', 'notepad']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Invalid value for --print-config: notepad. Expected one of: claude-code');
  });
});
