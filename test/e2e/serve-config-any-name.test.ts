// A -c file in our own format under another name (cfg/team.json) is read as our config: its `serve` section was
// dropped unread, so serve ran in auto mode without the prefix and served the tools `disable` meant to hide.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { connectServeStdio, sandbox, textOf, type Sandbox } from './serve-harness.js';

const TINY = {
  command: process.execPath,
  args: [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')],
};

let box: Sandbox;
let team: string;
beforeAll(async () => {
  box = await sandbox('any-name');
  await mkdir(join(box.dir, 'cfg'));
  team = join(box.dir, 'cfg', 'team.json');
  const serve = { mode: 'meta', prefix: 'zz', servers: { notes: { disable: ['echo'] } } };
  await writeFile(team, JSON.stringify({ mcpServers: { notes: TINY }, serve }));
});
afterAll(async () => {
  await box.remove();
});

describe('serve -c <file of another name> applies its serve section', () => {
  it('meta mode with the prefix, and the disabled tool neither listed nor callable', { timeout: 60_000 }, async () => {
    const s = await connectServeStdio(box.env, ['--no-cache', '-c', team]);
    try {
      const names = (await s.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('zz_find_tool');
      expect(names).toContain('zz_call_tool');
      expect(names).not.toContain('search_notes');
      const listed = textOf(await s.client.callTool({ name: 'zz_list_tools', arguments: { server: 'notes' } }));
      expect(listed).toContain('search_notes');
      expect(listed).not.toContain('echo');
      const call = await s.client.callTool({
        name: 'zz_call_tool',
        arguments: { name: 'notes.echo', arguments: { text: 'hi' } },
      });
      expect(call.isError).toBe(true);
      expect(textOf(call)).toContain(
        `tool "echo" of server "notes" is hidden by serve.servers.notes.disable in ${team}`,
      );
    } finally {
      await s.client.close();
    }
  });
});
