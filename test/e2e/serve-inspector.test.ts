// A real client that is not our code drives `mcp-smart serve`: the MCP Inspector CLI (a devDependency). Tools mode
// in front of two fixture servers whose names collide; meta mode in front of the demo servers, over stdio and over
// Streamable HTTP: find_tool for "remember that alice works at acme", call_tool with the tool it chose, and the
// memory graph read back through call_tool_read (and from the memory server's own file) shows the entity.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInspector, serveTarget, type InspectorTarget } from '../helpers/inspector.js';
import { fixture } from '../helpers/paths.js';
import { node, sandbox, startServeHttp, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 120_000;
let box: Sandbox;
/** serve's environment: its own HOME, caches, and TMPDIR (the demo's scratch folder lands in the sandbox). */
let serveEnv: Record<string, string>;

beforeAll(async () => {
  box = await sandbox('serve-inspector');
  serveEnv = { ...box.env, TMPDIR: box.dir };
});
afterAll(async () => box.remove());

interface Tools {
  tools: { name: string; inputSchema?: { required?: string[] } }[];
}
const textOf = (result: unknown): string =>
  (result as { content: { type: string; text: string }[] }).content.map((c) => c.text).join('\n');

async function inspect(target: InspectorTarget, call: Parameters<typeof runInspector>[1]): Promise<unknown> {
  const run = await runInspector(target, call, { timeoutMs: 60_000 });
  expect(run.exitCode, `${call.method} ${call.toolName ?? ''}: ${run.stderr.slice(-1500)}`).toBe(0);
  return run.result;
}

describe('Inspector CLI → serve --mode tools (stdio) → two fixture servers', () => {
  it(
    'lists every tool with collision-free names in the servers’ order and forwards calls unchanged',
    async () => {
      const config = await box.config('tools.json', {
        tiny: node(fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')),
        dup: node(fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'duplicate-names.json')),
      });
      const target = serveTarget(['--config', config, '--mode', 'tools', '--no-learn'], serveEnv);
      const listed = (await inspect(target, { method: 'tools/list' })) as Tools;
      expect(listed.tools.map((t) => t.name)).toEqual([
        'dup_search_notes',
        'dup_echo',
        'list_tags',
        'tiny_search_notes',
        'create_note',
        'delete_note',
        'current_time',
        'tiny_echo',
      ]);
      const echoed = await inspect(target, {
        method: 'tools/call',
        toolName: 'tiny_echo',
        toolArgs: { message: 'through the proxy' },
      });
      expect(echoed).toEqual({ content: [{ type: 'text', text: 'through the proxy' }] });
      const tags = await inspect(target, { method: 'tools/call', toolName: 'list_tags', toolArgs: { prefix: 'a' } });
      expect(tags).toEqual({ content: [{ type: 'text', text: 'list_tags {"prefix":"a"}' }] });
    },
    TIMEOUT_MS,
  );
});

/** tools/list → find_tool → call_tool → call_tool_read on the demo memory server, through `target`. */
async function rememberAlice(target: InspectorTarget, entity: string): Promise<void> {
  const listed = (await inspect(target, { method: 'tools/list' })) as Tools;
  expect(listed.tools.map((t) => t.name)).toEqual([
    'find_tool',
    'describe_tool',
    'list_tools',
    'call_tool',
    'call_tool_read',
  ]);
  const found = JSON.parse(
    textOf(
      await inspect(target, {
        method: 'tools/call',
        toolName: 'find_tool',
        toolArgs: { intent: 'remember that alice works at acme', server: 'memory', k: 9 },
      }),
    ),
  ) as { results: { id: string; inputSchema?: { required?: string[] } }[] };
  const chosen = found.results.find((r) => r.inputSchema?.required?.includes('entities'));
  expect(chosen?.id).toBe('memory.create_entities');
  const created = (await inspect(target, {
    method: 'tools/call',
    toolName: 'call_tool',
    toolArgs: {
      name: chosen!.id,
      arguments: { entities: [{ name: entity, entityType: 'person', observations: ['works at acme'] }] },
    },
  })) as { isError?: boolean };
  expect(created.isError).toBeFalsy();
  const graph = JSON.parse(
    textOf(
      await inspect(target, {
        method: 'tools/call',
        toolName: 'call_tool_read',
        toolArgs: { name: 'memory.read_graph' },
      }),
    ),
  ) as { entities: { name: string; entityType: string; observations: string[] }[] };
  expect(graph.entities.filter((e) => e.name === entity)).toEqual([
    { name: entity, entityType: 'person', observations: ['works at acme'] },
  ]);
  // The real change, in the memory server's own file (the demo scratch folder sits under serve's TMPDIR).
  const file = readFileSync(join(box.dir, 'mcp-smart-demo', 'memory.jsonl'), 'utf8');
  expect(file).toContain(`"name":"${entity}"`);
}

describe('Inspector CLI → serve --demo --mode meta', () => {
  it(
    'over stdio: find → call changes the memory server behind the proxy',
    () => rememberAlice(serveTarget(['--demo', '--mode', 'meta', '--no-learn'], serveEnv), 'alice-inspector-stdio'),
    TIMEOUT_MS,
  );

  it(
    'over Streamable HTTP: the same flow, one serve process for every Inspector run',
    async () => {
      const serve = await startServeHttp(serveEnv, ['--demo', '--mode', 'meta', '--no-learn']);
      try {
        await rememberAlice({ url: serve.url, transport: 'http' }, 'alice-inspector-http');
      } finally {
        expect(await serve.stop()).toBe(143);
      }
    },
    TIMEOUT_MS,
  );
});
