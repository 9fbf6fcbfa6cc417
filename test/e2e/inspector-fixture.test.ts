// The Inspector CLI driver against servers directly, before `serve` stands in between: the demo memory server over
// stdio (a real state change read back), the conformance fixture over stdio and Streamable HTTP, and the failure
// paths (a server that dies at start, one that never answers: the timeout ends the whole process tree).
import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInspector, type InspectorTarget } from '../helpers/inspector.js';
import { fixture, REPO } from '../helpers/paths.js';
import { expectTreeGone, snapshotTree, type ProcessInfo } from '../helpers/process-tree.js';
import { startHttpFixture } from '../helpers/spawn-cli.js';

const MEMORY = join(REPO, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const CONFORMANCE = fixture('servers', 'conformance-server.mjs');

interface Graph {
  entities: { name: string; entityType: string; observations: string[] }[];
  relations: { from: string; to: string; relationType: string }[];
}
const textOf = (result: unknown) => (result as { content: { type: string; text: string }[] }).content[0]!.text;

describe('Inspector CLI → server-memory (stdio)', () => {
  let dir: string;
  let memory: InspectorTarget;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-smart-memory-'));
    memory = { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists the memory tools', async () => {
    const run = await runInspector(memory, { method: 'tools/list' });
    expect(run.exitCode).toBe(0);
    const names = (run.result as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['create_entities', 'create_relations', 'read_graph', 'search_nodes', 'delete_entities']),
    );
  });

  it('creates alice and acme and a works_at relation; read_graph and the memory file show them', async () => {
    const created = await runInspector(memory, {
      method: 'tools/call',
      toolName: 'create_entities',
      toolArgs: {
        entities: [
          { name: 'alice', entityType: 'person', observations: ['works at acme'] },
          { name: 'acme', entityType: 'organization', observations: ['a company'] },
        ],
      },
    });
    expect(created.exitCode).toBe(0);
    const related = await runInspector(memory, {
      method: 'tools/call',
      toolName: 'create_relations',
      toolArgs: { relations: [{ from: 'alice', to: 'acme', relationType: 'works_at' }] },
    });
    expect(related.exitCode).toBe(0);

    // A separate Inspector run starts a fresh server process: the graph comes back from the memory file.
    const read = await runInspector(memory, { method: 'tools/call', toolName: 'read_graph', toolArgs: {} });
    expect(read.exitCode).toBe(0);
    const graph = JSON.parse(textOf(read.result)) as Graph;
    expect(graph.entities).toEqual([
      { name: 'alice', entityType: 'person', observations: ['works at acme'] },
      { name: 'acme', entityType: 'organization', observations: ['a company'] },
    ]);
    expect(graph.relations).toEqual([{ from: 'alice', to: 'acme', relationType: 'works_at' }]);
    expect(readFileSync(join(dir, 'memory.jsonl'), 'utf8')).toContain('"name":"alice"');
  });
});

describe('Inspector CLI → conformance fixture', () => {
  const stdio: InspectorTarget = { command: process.execPath, args: [CONFORMANCE] };
  const children: ChildProcess[] = [];
  let url: string;

  beforeAll(async () => {
    url = await startHttpFixture(CONFORMANCE, ['--http', '--port', '0'], children);
  });
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
  });

  it('over Streamable HTTP: lists tools and calls test_simple_text', async () => {
    const list = await runInspector({ url }, { method: 'tools/list' });
    expect(list.exitCode).toBe(0);
    expect((list.result as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain('test_simple_text');
    const call = await runInspector({ url }, { method: 'tools/call', toolName: 'test_simple_text', toolArgs: {} });
    expect(call.exitCode).toBe(0);
    expect(textOf(call.result)).toBe('This is a simple text response for testing.');
  });

  it('over stdio: reads a resource, gets a prompt with arguments, and sees a tool error as exit 5', async () => {
    const read = await runInspector(stdio, { method: 'resources/read', uri: 'test://template/42/data' });
    expect(read.exitCode).toBe(0);
    const contents = (read.result as { contents: { text: string }[] }).contents;
    expect(JSON.parse(contents[0]!.text)).toEqual({ id: '42', templateTest: true, data: 'Data for ID: 42' });

    const prompt = await runInspector(stdio, {
      method: 'prompts/get',
      promptName: 'test_prompt_with_arguments',
      promptArgs: { arg1: 'hello', arg2: 'world' },
    });
    expect(prompt.exitCode).toBe(0);
    expect(prompt.result).toEqual({
      messages: [
        { role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='hello', arg2='world'" } },
      ],
    });

    const failed = await runInspector(stdio, { method: 'tools/call', toolName: 'test_error_handling', toolArgs: {} });
    expect(failed.exitCode).toBe(5);
    expect(failed.error?.code).toBe('tool_is_error');
    expect((failed.result as { isError: boolean }).isError).toBe(true);
  });
});

describe('Inspector driver failure paths', () => {
  it('a server that dies at start: exit 1 with the error envelope, the server stderr kept', async () => {
    const run = await runInspector(
      { command: process.execPath, args: [fixture('servers', 'misbehaving', 'crash-on-start.mjs')] },
      { method: 'tools/list' },
    );
    expect(run.exitCode).toBe(1);
    expect(run.result).toBeUndefined();
    expect(run.error).toEqual({ code: 'error', message: 'Connection closed' });
    expect(run.stderr).toContain('FIXTURE_API_URL is not set');
  });

  it('a server that never answers: the timeout rejects and ends the Inspector and the server it started', async () => {
    let tree: ProcessInfo[] = [];
    let inspectorPid = 0;
    const hang = { command: process.execPath, args: [fixture('servers', 'misbehaving', 'hang.mjs')] };
    const run = runInspector(
      hang,
      { method: 'tools/list' },
      { timeoutMs: 4_000, onSpawn: (pid) => (inspectorPid = pid) },
    );
    // Snapshot the tree while it waits on the hung server (Inspector → hang.mjs).
    for (let i = 0; i < 60 && !tree.some((p) => p.command.includes('hang.mjs')); i++) {
      await new Promise((r) => setTimeout(r, 50));
      tree = snapshotTree(inspectorPid);
    }
    expect(tree.map((p) => p.command).join('\n')).toContain('hang.mjs');
    await expect(run).rejects.toThrow('Inspector tools/list did not finish within 4000 ms');
    await expectTreeGone(tree, 5_000);
  });

  it('runs in a temporary home of its own and removes it', async () => {
    const run = await runInspector({ command: process.execPath, args: [CONFORMANCE] }, { method: 'initialize' });
    expect(run.exitCode).toBe(0);
    expect(run.result).toMatchObject({ serverInfo: { name: 'mcp-smart-conformance-fixture' } });
    expect(run.home.startsWith(join(tmpdir(), 'mcp-smart-inspector-'))).toBe(true);
    expect(existsSync(run.home)).toBe(false);
  });
});
