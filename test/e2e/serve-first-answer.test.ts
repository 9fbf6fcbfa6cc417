// serve's first answer (issues 36.5, 40.1, 36.2): a client is answered while the servers behind are still starting —
// meta mode from its own tools, tools mode with what is ready within --first-list-wait — and hears
// tools/list_changed (a 2026-07-28 client: on its subscriptions/listen stream) when a slow server's tools arrive;
// subscriptions/listen is answered on a 2025 connection too; a server whose ${VAR} is not set is not started with
// an empty string, and the client is told which variable, on that server's tools. Real processes throughout: the
// built CLI, fixture servers (catalog-server.mjs, --delay-ms for one that is slow to start), the SDK client.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture } from '../helpers/paths.js';
import { openRawStdio, type RawStdio } from '../helpers/raw-stdio.js';
import { connectServeStdio, node, sandbox, textOf, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 120_000;
/** The slow server answers its initialize this long after it was spawned. */
const SLOW_MS = 20_000;
const catalog = (name: string, ...flags: string[]) =>
  node(fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', `${name}.json`), ...flags);
const TINY = ['create_note', 'current_time', 'delete_note', 'echo', 'search_notes'];
const SLOW = ['configure_pipeline', 'ping'];

let box: Sandbox;
let config: string;
beforeAll(async () => {
  box = await sandbox('first-answer');
  config = await box.config('servers.json', {
    tiny: catalog('tiny'),
    slow: catalog('huge-schema', '--delay-ms', String(SLOW_MS)),
  });
});
afterAll(async () => box.remove());

/** A fresh cache and data folder per start: every start here is a first one. */
const coldEnv = (label: string): Record<string, string> => ({
  ...box.env,
  MCP_SMART_CACHE_DIR: join(box.dir, `cache-${label}`),
  MCP_SMART_DATA_DIR: join(box.dir, `data-${label}`),
});

describe('serve answers before its servers are up', () => {
  it(
    'tools mode, cold: the first tools/list comes after --first-list-wait with the fast server’s tools, then list_changed brings the slow one’s',
    async () => {
      const started = Date.now();
      const serve = await connectServeStdio(coldEnv('tools'), [
        '--config',
        config,
        '--mode',
        'tools',
        '--no-learn',
        '--first-list-wait',
        '8000',
      ]);
      try {
        let changes = 0;
        serve.client.setNotificationHandler('notifications/tools/list_changed', () => void changes++);
        const first = (await serve.client.listTools()).tools.map((t) => t.name);
        const answeredAfter = Date.now() - started;
        // Answered before the slow server could be up (it answers SLOW_MS after its spawn, after serve's own start).
        expect(answeredAfter).toBeLessThan(SLOW_MS);
        expect([...first].sort()).toEqual(TINY);
        // Each list_changed is followed by a tools/list, as a client does, until the slow server's tools are in.
        let later = first;
        for (let seen = 0; !later.includes('ping');) {
          await until(() => (changes > seen ? changes : undefined), 60_000);
          seen = changes;
          later = (await serve.client.listTools()).tools.map((t) => t.name);
        }
        expect([...later].sort()).toEqual([...TINY, ...SLOW].sort());
      } finally {
        await serve.client.close();
      }
    },
    TIMEOUT_MS,
  );

  it(
    'meta mode, cold: initialize and tools/list are answered with the five meta-tools while the slow server starts; find_tool then finds its tools',
    async () => {
      const started = Date.now();
      const serve = await connectServeStdio(coldEnv('meta'), ['--config', config, '--mode', 'meta', '--no-learn']);
      try {
        const tools = (await serve.client.listTools()).tools.map((t) => t.name).sort();
        expect(Date.now() - started).toBeLessThan(SLOW_MS);
        expect(tools).toEqual(['call_tool', 'call_tool_read', 'describe_tool', 'find_tool', 'list_tools']);
        // A meta-tool answers from every list: list_tools waits for the servers still starting.
        const listed = textOf(await serve.client.callTool({ name: 'list_tools', arguments: {} }, { timeout: 60_000 }));
        expect(listed).toContain('tiny.search_notes');
        expect(listed).toContain('slow.configure_pipeline');
      } finally {
        await serve.client.close();
      }
    },
    TIMEOUT_MS,
  );
});

describe('subscriptions/listen is answered in both eras', () => {
  it(
    'a 2026-07-28 client’s listen stream carries the list change when the slow server arrives',
    async () => {
      const serve = await connectServeStdio(
        coldEnv('listen-modern'),
        ['--config', config, '--mode', 'tools', '--no-learn', '--first-list-wait', '1000'],
        {},
        true,
      );
      try {
        let changed!: () => void;
        const heard = new Promise<void>((r) => (changed = r));
        serve.client.setNotificationHandler('notifications/tools/list_changed', () => changed());
        const first = (await serve.client.listTools()).tools.map((t) => t.name);
        const sub = await serve.client.listen({ toolsListChanged: true });
        expect(sub.honoredFilter.toolsListChanged).toBe(true);
        await heard;
        const later = (await serve.client.listTools()).tools.map((t) => t.name);
        expect(later.length).toBeGreaterThan(first.length);
        await sub.close();
      } finally {
        await serve.client.close();
      }
    },
    TIMEOUT_MS,
  );

  it(
    'a 2025-11-25 connection that opens a listen stream is acknowledged, not "Method not found", and closed on cancel',
    async () => {
      const raw = openRawStdio(
        process.execPath,
        [BIN, 'serve', '--config', config, '--mode', 'tools', '--no-learn', '--first-list-wait', '1000'],
        coldEnv('listen-legacy'),
      );
      try {
        const init = await raw.initialize(30_000);
        expect((init.result as { protocolVersion: string }).protocolVersion).toMatch(/^2025-/);
        const listen = raw.request('subscriptions/listen', { notifications: { toolsListChanged: true } }, 60_000);
        const ack = await until(() =>
          raw.notifications.find((n) => n.method === 'notifications/subscriptions/acknowledged'),
        );
        expect((ack.params as { notifications: unknown }).notifications).toEqual({ toolsListChanged: true });
        // The slow server's tools arrive: the 2025 connection hears it.
        await until(() => raw.notifications.find((n) => n.method === 'notifications/tools/list_changed'), 60_000);
        raw.notify('notifications/cancelled', { requestId: 2 });
        const closed = await listen;
        expect(closed.error).toBeUndefined();
        expect(closed.result).toEqual({ _meta: { 'io.modelcontextprotocol/subscriptionId': 2 } });
      } finally {
        await closeRaw(raw);
      }
    },
    TIMEOUT_MS,
  );
});

describe('a server whose ${VAR} is not set', () => {
  it(
    'is not started with an empty string: list_tools and find_tool name it and the variable, a call gets an error result naming the variable',
    async () => {
      const vars = join(box.dir, 'vars.json');
      await writeFile(
        vars,
        JSON.stringify({
          servers: {
            tiny: catalog('tiny'),
            notes: { ...catalog('tiny', '--print-env', 'NOTES_TOKEN'), env: { NOTES_TOKEN: '${MCP_SMART_E2E_UNSET}' } },
          },
        }),
      );
      // Its tools known from a snapshot (as from an earlier start when the variable was set): a call reaches it.
      const snapshot = join(box.dir, 'vars-snapshot.json');
      const dump = openRawStdio(process.execPath, [BIN, '--config', vars, '-s', 'tiny', 'dump', '-o', snapshot], {
        ...coldEnv('vars-dump'),
      });
      expect(await dump.exited).toBe(0);
      const snap = JSON.parse(await (await import('node:fs/promises')).readFile(snapshot, 'utf8')) as {
        servers: { name: string }[];
      };
      snap.servers.push({ ...snap.servers[0]!, name: 'notes' });
      await writeFile(snapshot, JSON.stringify(snap));

      const serve = await connectServeStdio(coldEnv('vars'), [
        '--config',
        vars,
        '--mode',
        'meta',
        '--no-learn',
        '--snapshot',
        snapshot,
      ]);
      try {
        const listed = textOf(await serve.client.callTool({ name: 'list_tools', arguments: {} }));
        expect(listed).toContain('notes');
        const found = textOf(
          await serve.client.callTool({ name: 'find_tool', arguments: { intent: 'search my notes' } }),
        );
        expect(found).toMatch(/notes.*\$\{MCP_SMART_E2E_UNSET\} is not set/s);
        const call = (await serve.client.callTool({
          name: 'call_tool',
          arguments: { name: 'notes.search_notes', arguments: { query: 'x' } },
        })) as { isError?: boolean };
        expect(call.isError).toBe(true);
        expect(textOf(call)).toContain('${MCP_SMART_E2E_UNSET} is not set');
        expect(textOf(call)).toContain('server "notes"');
        // The server on the same config without the variable answers as before.
        const ok = (await serve.client.callTool({
          name: 'call_tool',
          arguments: { name: 'tiny.search_notes', arguments: { query: 'x' } },
        })) as { isError?: boolean };
        expect(ok.isError).not.toBe(true);
        // Never started: the fixture prints its NOTES_TOKEN on start, and nothing did.
        expect(serve.stderr()).not.toContain('env NOTES_TOKEN=');
      } finally {
        await serve.client.close();
      }
    },
    TIMEOUT_MS,
  );
});

/** Ends serve the way a client does (stdin closed: it ends its servers), then makes sure nothing is left. */
async function closeRaw(raw: RawStdio): Promise<void> {
  raw.child.stdin?.end();
  const timer = setTimeout(() => raw.kill(), 15_000);
  await raw.exited;
  clearTimeout(timer);
}

/** Polls `probe` until it returns something (the raw client keeps what arrives). */
async function until<T>(probe: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = probe();
    if (got !== undefined) return got;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}
