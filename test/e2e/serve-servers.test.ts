// The servers behind serve, with real processes: one that fails when serve starts is tried again in the background
// and served once it starts, and until then find_tool and list_tools name it with its reason; two tools whose ids
// collide after joining server and tool names are both reachable, under a documented, deterministic rule, and
// `discover --json` names every tool with the id serve gives it — also when serve.servers.<name>.disable hides the
// first of the two (discover had counted the hidden tool, so the other was "a.b.c#2" there and "a.b.c" in serve).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { connectServeStdio, node, sandbox, textOf, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 60_000;
let box: Sandbox;
let client: Client | undefined;
beforeEach(async () => {
  box = await sandbox('serve-servers');
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  await box.remove();
});

const call = async (c: Client, name: string, args: Record<string, unknown> = {}): Promise<string> =>
  textOf(await c.callTool({ name, arguments: args }));

describe('a server that fails when serve starts', () => {
  it(
    'is named with its reason by find_tool and list_tools, tried again, and served once it starts',
    async () => {
      const ready = join(box.dir, 'ready');
      const flaky = {
        ...node(
          fixture('servers', 'misbehaving', 'crash-on-start.mjs'),
          '--unless-file',
          ready,
          '--print-env',
          'API_TOKEN',
        ),
        env: { API_TOKEN: 'tok-5f2a9c41e7d3b8' },
      };
      const config = await box.config('servers.json', {
        flaky,
        tiny: node(fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')),
      });
      const started = await connectServeStdio(box.env, ['--config', config, '--mode', 'meta', '--no-learn']);
      client = started.client;
      // Meta mode answers the first tools/list from its own five tools and starts the servers once it is out.
      await client.listTools();
      await started.waitForStderr(/tried again in the background/);

      const found = JSON.parse(await call(client, 'find_tool', { intent: 'search my notes' })) as {
        results: { id: string }[];
        notStarted: { server: string; reason: string; retryInSeconds: number }[];
      };
      expect(found.results.map((r) => r.id)).toContain('tiny.search_notes');
      expect(found.notStarted).toHaveLength(1);
      expect(found.notStarted[0]).toMatchObject({ server: 'flaky' });
      expect(found.notStarted[0]!.reason).toBe(
        'exited with code 1 during initialize — last stderr line: Error: token *** was rejected',
      );
      expect(found.notStarted[0]!.retryInSeconds).toBeGreaterThanOrEqual(0);
      expect(found.notStarted[0]!.retryInSeconds).toBeLessThanOrEqual(2);
      const listed = await call(client, 'list_tools');
      expect(listed).toContain('tiny.search_notes');
      expect(listed).toMatch(
        /\n\(server "flaky" has not started: exited with code 1 .*token \*\*\* was rejected; its tools are not listed — mcp-smart tries it again (in \d s|now)\)$/,
      );
      expect(await call(client, 'list_tools', { server: 'flaky' })).toMatch(/^\(server "flaky" has not started: /);
      // The server quoted its token in its error: the reason carries the error, never the token.
      expect(JSON.stringify(found) + listed + started.stderr()).not.toContain('tok-5f2a9c41e7d3b8');

      // The setting is fixed: the next attempt (2 s after the failure) starts it.
      writeFileSync(ready, '');
      await started.waitForStderr(/server "flaky" started on a later attempt; its tools are served now/, 15_000);
      expect(await call(client, 'list_tools', { server: 'flaky' })).toContain('flaky.search_notes');
      const after = JSON.parse(await call(client, 'find_tool', { intent: 'search my notes' })) as Record<
        string,
        unknown
      >;
      expect(after.notStarted).toBeUndefined();
      expect(await call(client, 'call_tool', { name: 'flaky.current_time', arguments: {} })).toBe('current_time {}');
    },
    TIMEOUT_MS,
  );
});

/** A catalog file in the sandbox: one tool `tool` whose description names server `name`. */
function weatherCatalog(name: string, tool: string): string {
  const file = join(box.dir, `${name}.json`);
  const schema = { type: 'object', properties: { x: { type: 'string' } } };
  const description = `Reports the weather station reading of server ${name}.`;
  writeFileSync(file, JSON.stringify({ tools: [{ name: tool, description, inputSchema: schema }] }));
  return file;
}

describe('tool ids that collide', () => {
  it(
    'server "a" tool "b.c" keeps the id "a.b.c"; server "a.b" tool "c" is "a.b.c#2"; both are found and called; a warning names both',
    async () => {
      const server = fixture('servers', 'catalog-server.mjs');
      const config = await box.config('servers.json', {
        'a.b': node(server, weatherCatalog('ab', 'c')),
        a: node(server, weatherCatalog('a', 'b.c')),
      });
      const started = await connectServeStdio(box.env, ['--config', config, '--mode', 'meta', '--no-learn']);
      client = started.client;
      expect((await call(client, 'list_tools')).split('\n')).toEqual([
        'a.b.c — Reports the weather station reading of server a.',
        'a.b.c#2 — Reports the weather station reading of server ab.',
      ]);
      expect(started.stderr()).toContain(
        'warning: server "a.b" tool "c" makes the id "a.b.c", as server "a" tool "b.c" does; it is served as "a.b.c#2"',
      );
      const found = JSON.parse(await call(client, 'find_tool', { intent: 'weather station reading' })) as {
        results: { id: string }[];
      };
      expect(found.results.map((r) => r.id).sort()).toEqual(['a.b.c', 'a.b.c#2']);
      expect(await call(client, 'call_tool', { name: 'a.b.c', arguments: { x: '1' } })).toBe('b.c {"x":"1"}');
      expect(await call(client, 'call_tool', { name: 'a.b.c#2', arguments: { x: '2' } })).toBe('c {"x":"2"}');
      expect(JSON.parse(await call(client, 'describe_tool', { name: 'a.b.c#2' }))).toMatchObject({
        id: 'a.b.c#2',
        description: 'Reports the weather station reading of server ab.',
      });
    },
    TIMEOUT_MS,
  );

  it(
    'discover --json gives the ids serve lists, with serve.servers.a.disable hiding "b.c" and without',
    async () => {
      const server = fixture('servers', 'catalog-server.mjs');
      const mcpServers = {
        'a.b': node(server, weatherCatalog('ab', 'c')),
        a: node(server, weatherCatalog('a', 'b.c')),
      };
      const cases: [Record<string, unknown>, string[]][] = [
        [{}, ['a.b.c', 'a.b.c#2']],
        [{ serve: { servers: { a: { disable: ['b.c'] } } } }, ['a.b.c']],
      ];
      for (const [section, ids] of cases) {
        const config = join(box.dir, 'mcp-smart.config.json');
        writeFileSync(config, JSON.stringify({ mcpServers, ...section }));
        const discovered = await spawnCli(['--config', config, 'discover', 'weather station reading', '--json'], {
          cwd: box.dir,
          env: box.env,
          timeoutMs: TIMEOUT_MS,
        });
        expect(discovered.code).toBe(0);
        const results = (JSON.parse(discovered.stdout) as { results: { id: string; server: string }[] }).results;
        const started = await connectServeStdio(box.env, ['--config', config, '--mode', 'meta', '--no-learn']);
        client = started.client;
        const listed = (await call(client, 'list_tools')).split('\n').map((line) => line.split(' — ')[0]);
        await client.close();
        client = undefined;
        expect(results.map((r) => r.id).sort()).toEqual(ids);
        expect(listed.sort()).toEqual(ids);
        // The id names the same tool in both: server "a.b" tool "c" is the one left when "b.c" is hidden.
        if (ids.length === 1) expect(results[0]?.server).toBe('a.b');
      }
    },
    TIMEOUT_MS,
  );
});
