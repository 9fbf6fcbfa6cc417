// adopt → serve end to end: the built CLI adopts a Codex config (TOML, enabled_tools + disabled_tools) and a Gemini
// settings file (excludeTools) in a temporary HOME, then a real `serve` process on the adopted file neither lists
// nor calls what the client hid, while the client's own file is left exactly as it was.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { connectServeStdio, sandbox, textOf, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 90_000;
const SERVER = fixture('servers', 'catalog-server.mjs');
const TINY = fixture('servers', 'catalogs', 'tiny.json');

let box: Sandbox;
beforeAll(async () => {
  box = await sandbox('adopt');
});
afterAll(async () => {
  await box.remove();
});

async function adoptAndServe(
  client: string,
  project: string,
  check: (listed: string[], callHidden: () => Promise<unknown>) => Promise<void>,
  hiddenTool: string,
): Promise<void> {
  const adopted = await spawnCli(['adopt', client], { cwd: project, env: box.env, timeoutMs: TIMEOUT_MS });
  expect(adopted.code).toBe(0);
  const file = join(project, 'mcp-smart.config.json');
  for (const mode of ['tools', 'meta']) {
    const s = await connectServeStdio(box.env, ['--no-cache', '-c', file, '--mode', mode]);
    try {
      if (mode === 'tools') {
        const listed = (await s.client.listTools()).tools.map((t) => t.name);
        await check(listed, () => s.client.callTool({ name: hiddenTool, arguments: {} }));
      } else {
        const list = textOf(await s.client.callTool({ name: 'list_tools', arguments: {} }));
        expect(list).not.toContain(`notes.${hiddenTool}`);
        const call = await s.client.callTool({ name: 'call_tool', arguments: { name: `notes.${hiddenTool}` } });
        expect(call.isError).toBe(true);
        expect(textOf(call)).toContain(`tool "${hiddenTool}" of server "notes" is hidden by mcpServers.notes.`);
      }
    } finally {
      await s.client.close();
    }
  }
}

describe('serve on an adopted config hides what the client hid', () => {
  it(
    'codex: enabled_tools / disabled_tools',
    async () => {
      const project = join(box.dir, 'codex-project');
      await mkdir(project, { recursive: true });
      await mkdir(join(box.dir, '.codex'), { recursive: true });
      const toml = [
        '[mcp_servers.notes]',
        'command = "node"',
        `args = [${JSON.stringify(SERVER)}, ${JSON.stringify(TINY)}]`,
        'enabled_tools = ["search_notes", "create_note", "delete_note", "echo"]',
        'disabled_tools = ["delete_note"]',
        '',
      ].join('\n');
      await writeFile(join(box.dir, '.codex', 'config.toml'), toml);
      await adoptAndServe(
        'codex',
        project,
        async (listed, callHidden) => {
          expect(listed.sort()).toEqual(['create_note', 'echo', 'search_notes']);
          await expect(callHidden()).rejects.toThrow(
            'tool "delete_note" of server "notes" is hidden by mcpServers.notes.excludeTools',
          );
        },
        'delete_note',
      );
      expect(await readFile(join(box.dir, '.codex', 'config.toml'), 'utf8')).toBe(toml);
    },
    TIMEOUT_MS,
  );

  it(
    'gemini: excludeTools',
    async () => {
      const project = join(box.dir, 'gemini-project');
      await mkdir(join(project, '.gemini'), { recursive: true });
      const settings = JSON.stringify({
        mcpServers: { notes: { command: 'node', args: [SERVER, TINY], excludeTools: ['current_time'] } },
      });
      await writeFile(join(project, '.gemini', 'settings.json'), settings);
      // Gemini loads a project's servers only in a folder the user trusts (client-trust.ts).
      await mkdir(join(box.dir, '.gemini'), { recursive: true });
      await writeFile(join(box.dir, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }));
      await adoptAndServe(
        'gemini',
        project,
        async (listed, callHidden) => {
          expect(listed.sort()).toEqual(['create_note', 'delete_note', 'echo', 'search_notes']);
          await expect(callHidden()).rejects.toThrow('tool "current_time" of server "notes" is hidden by');
        },
        'current_time',
      );
      expect(await readFile(join(project, '.gemini', 'settings.json'), 'utf8')).toBe(settings);
    },
    TIMEOUT_MS,
  );
});
