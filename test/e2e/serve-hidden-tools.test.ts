// Hidden stays hidden (issue 26): a real `mcp-smart serve` process, in every mode, neither lists, finds, describes
// nor calls a tool a filter hides — client filters copied into mcp-smart.config.json, our serve.disable, and a
// Gemini settings file read with -c — and audit, budget and serve agree on the visible tool set.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { connectServeStdio, sandbox, textOf, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 90_000;
const TINY = {
  command: process.execPath,
  args: [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')],
};
// tiny.json lists search_notes, create_note, delete_note, current_time, echo.
const VISIBLE = ['create_note', 'search_notes'];

let box: Sandbox;
let smartFile: string;
let geminiFile: string;
let deferFile: string;

beforeAll(async () => {
  box = await sandbox('hidden');
  smartFile = join(box.dir, 'mcp-smart.config.json');
  const doc = {
    mcpServers: {
      // Copied from Codex (enabled_tools leaves out current_time) and Gemini (excludeTools) entries.
      notes: {
        ...TINY,
        enabled_tools: ['search_notes', 'create_note', 'delete_note', 'echo'],
        excludeTools: ['delete_note'],
      },
    },
    serve: { servers: { notes: { disable: ['echo'] } } },
  };
  await writeFile(smartFile, JSON.stringify(doc));
  deferFile = join(box.dir, 'mcp-smart-defer.json');
  await writeFile(
    deferFile,
    JSON.stringify({ ...doc, serve: { servers: { notes: { disable: ['echo'], load: 'defer' } } } }),
  );
  await mkdir(join(box.dir, 'gem', '.gemini'), { recursive: true });
  geminiFile = join(box.dir, 'gem', '.gemini', 'settings.json');
  await writeFile(geminiFile, JSON.stringify({ mcpServers: { notes: { ...TINY, excludeTools: ['delete_note'] } } }));
});
afterAll(async () => {
  await box.remove();
});

const run = (args: string[]): ReturnType<typeof spawnCli> =>
  spawnCli(['--no-cache', ...args], { cwd: box.dir, env: box.env, timeoutMs: TIMEOUT_MS });

async function served(mode: string, config: string, fn: (c: Client) => Promise<void>): Promise<void> {
  // "auto-deferred": auto mode with the server on `load: "defer"`, so its tools sit behind the meta-tools (two
  // small tools cost less than the meta-tools, so the budget plan alone keeps them first-class).
  const file = mode === 'auto-deferred' ? deferFile : config;
  const s = await connectServeStdio(box.env, [
    '--no-cache',
    '-c',
    file,
    '--mode',
    mode === 'auto-deferred' ? 'auto' : mode,
  ]);
  try {
    await fn(s.client);
  } finally {
    await s.client.close();
  }
}

const names = async (c: Client): Promise<string[]> => (await c.listTools()).tools.map((t) => t.name);

describe('serve hides what the filters hide, in every mode (mcp-smart.config.json with copied filters)', () => {
  it(
    'audit, budget and serve agree on the visible tools',
    async () => {
      const audit = await run(['-c', smartFile, '--json', 'audit']);
      expect(audit.code).toBe(0);
      const doc = JSON.parse(audit.stdout) as {
        servers: { tools: { name: string }[] }[];
        hidden: { tools: { name: string }[] }[];
      };
      expect(doc.servers[0]?.tools.map((t) => t.name).sort()).toEqual(VISIBLE);
      expect(doc.hidden[0]?.tools.map((t) => t.name).sort()).toEqual(['current_time', 'delete_note', 'echo']);
      const budget = await run(['-c', smartFile, '--json', 'budget', '--max', '100000']);
      expect(budget.code).toBe(0);
      expect((JSON.parse(budget.stdout) as { servers: { toolCount: number }[] }).servers[0]?.toolCount).toBe(2);
      await served('tools', smartFile, async (c) => expect((await names(c)).sort()).toEqual(VISIBLE));
      await served('meta', smartFile, async (c) => {
        const list = textOf(await c.callTool({ name: 'list_tools', arguments: {} }));
        expect(list.split('\n').map((l) => l.split(' ')[0])).toEqual(VISIBLE.map((t) => `notes.${t}`).reverse());
      });
    },
    TIMEOUT_MS,
  );

  for (const mode of ['tools', 'meta', 'auto', 'auto-deferred']) {
    it(
      `${mode}: not listed, not found, not described, every call path refused naming tool, server and filter`,
      async () => {
        await served(mode, smartFile, async (c) => {
          const listed = await names(c);
          for (const t of ['delete_note', 'current_time', 'echo']) expect(listed).not.toContain(t);
          expect(listed.includes('find_tool')).toBe(mode === 'meta' || mode === 'auto-deferred');
          if (!listed.includes('find_tool')) {
            // tools mode, and auto when everything fits the budget: the tools themselves, no meta-tools.
            expect(listed).toEqual(expect.arrayContaining(VISIBLE));
            // A direct tools/call of a hidden tool is a protocol error naming what hid it.
            await expect(c.callTool({ name: 'delete_note', arguments: { id: 'x' } })).rejects.toThrow(
              /tool "delete_note" of server "notes" is hidden by mcpServers\.notes\.excludeTools in .*mcp-smart\.config\.json/,
            );
            return;
          }
          const found = textOf(await c.callTool({ name: 'find_tool', arguments: { intent: 'delete a note', k: 10 } }));
          const ids = (JSON.parse(found) as { results: { id: string }[] }).results.map((r) => r.id);
          expect(ids.sort()).toEqual(VISIBLE.map((t) => `notes.${t}`));
          const call = await c.callTool({ name: 'call_tool', arguments: { name: 'notes.delete_note', arguments: {} } });
          expect(call.isError).toBe(true);
          expect(textOf(call)).toContain(
            'tool "delete_note" of server "notes" is hidden by mcpServers.notes.excludeTools',
          );
          const read = await c.callTool({ name: 'call_tool_read', arguments: { name: 'current_time' } });
          expect(read.isError).toBe(true);
          expect(textOf(read)).toContain('hidden by mcpServers.notes.enabled_tools (it is not listed)');
          const desc = await c.callTool({ name: 'describe_tool', arguments: { name: 'notes.echo' } });
          expect(desc.isError).toBe(true);
          expect(textOf(desc)).toContain('hidden by serve.servers.notes.disable');
          // A visible tool still goes through.
          const ok = await c.callTool({
            name: 'call_tool',
            arguments: { name: 'notes.create_note', arguments: { title: 't', body: 'b' } },
          });
          expect(ok.isError).toBeFalsy();
        });
      },
      TIMEOUT_MS,
    );
  }
});

describe('serve -c <Gemini settings file> keeps its excludeTools', () => {
  it(
    'the excluded tool is not listed and its call is refused naming the settings file',
    async () => {
      await served('tools', geminiFile, async (c) => {
        const listed = await names(c);
        expect(listed).not.toContain('delete_note');
        expect(listed).toContain('echo');
        await expect(c.callTool({ name: 'delete_note', arguments: { id: 'x' } })).rejects.toThrow(
          `hidden by mcpServers.notes.excludeTools in ${geminiFile}`,
        );
      });
    },
    TIMEOUT_MS,
  );
});
