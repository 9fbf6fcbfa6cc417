// serve's cold start in meta mode (issue 40.1): the first tools/list is serve's own five tools, so it is answered
// before any server behind is started — their spawns and boots do not compete with it — and the servers start right
// after it. A client that calls find_tool or call_tool right after initialize, with no tools/list first, still gets
// the servers' tools (its call waits for them, as before). The order is read from one pipe: serve runs with --debug
// and its stderr joined to its stdout (`2>&1`), so its answer and its 'server "…" starting' lines arrive in the order
// serve wrote them. Real processes throughout: the built CLI, the fixture catalogue servers, a fresh cache folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture } from '../helpers/paths.js';
import { node, sandbox, textOf, until, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 90_000;
const META = ['call_tool', 'call_tool_read', 'describe_tool', 'find_tool', 'list_tools'];
const STARTING = /^mcp-smart serve: server "(\w+)" starting$/;

let box: Sandbox;
let config: string;
let stuck: string;
beforeAll(async () => {
  box = await sandbox('meta-start-order');
  const catalog = (name: string) =>
    node(fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', `${name}.json`));
  config = await box.config('servers.json', { tiny: catalog('tiny'), other: catalog('huge-schema') });
  // Its initialize comes after 10 minutes: a start of it is under way for as long as any test here runs.
  stuck = await box.config('stuck.json', {
    stuck: node(
      fixture('servers', 'catalog-server.mjs'),
      fixture('servers', 'catalogs', 'tiny.json'),
      '--delay-ms',
      '600000',
    ),
  });
});
afterAll(async () => box.remove());

interface Joined {
  child: ChildProcess;
  /** Every line serve wrote on stdout or stderr, in the order written. */
  lines: string[];
  send: (msg: object) => void;
  /** The line index and message of the answer to request `id`. */
  answer: (id: number, ms?: number) => Promise<{ at: number; msg: Record<string, unknown> }>;
}

/** serve --debug in meta mode from a fresh cache folder, its stderr on its stdout's pipe. */
function serveJoined(label: string, file = config): Joined {
  const env = {
    ...box.env,
    MCP_SMART_CACHE_DIR: join(box.dir, `cache-${label}`),
    MCP_SMART_DATA_DIR: join(box.dir, `data-${label}`),
  };
  const args = [BIN, '--debug', '--config', file, 'serve', '--mode', 'meta', '--no-learn', '--spawn-timeout', '120000'];
  const child = spawn('sh', ['-c', 'exec "$0" "$@" 2>&1', process.execPath, ...args], {
    env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let buffer = '';
  child.stdout.on('data', (d: Buffer) => {
    buffer += d.toString();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      lines.push(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
  });
  const send = (msg: object): void => void child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n');
  const answer = (id: number, ms = 60_000) =>
    until(
      () => {
        for (let at = 0; at < lines.length; at++) {
          if (!lines[at]!.startsWith('{')) continue;
          const msg = JSON.parse(lines[at]!) as Record<string, unknown>;
          if (msg.id === id && msg.method === undefined) return { at, msg };
        }
        return undefined;
      },
      ms,
      `the answer to request ${id}`,
    );
  return { child, lines, send, answer };
}

const initialize = (s: Joined): void => {
  s.send({
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'order', version: '1' } },
  });
  s.send({ method: 'notifications/initialized' });
};

const startsIn = (lines: string[]): { at: number; server: string }[] =>
  lines.flatMap((line, at) => {
    const m = STARTING.exec(line);
    return m ? [{ at, server: m[1]! }] : [];
  });

async function ended(s: Joined): Promise<void> {
  const gone = new Promise((r) => s.child.once('exit', r));
  s.child.stdin!.end();
  await gone;
}

describe('serve --mode meta, cold: the first tools/list before any server starts', () => {
  it(
    'answers tools/list with its own five tools, and only then starts each server behind',
    async () => {
      const s = serveJoined('order');
      try {
        initialize(s);
        s.send({ id: 2, method: 'tools/list' });
        const listed = await s.answer(2);
        const tools = (listed.msg.result as { tools: { name: string }[] }).tools.map((t) => t.name).sort();
        expect(tools).toEqual(META);
        // Both servers start after the answer (it does not start them: they are needed by the meta-tools' calls).
        const starts = await until(
          () => (startsIn(s.lines).length === 2 ? startsIn(s.lines) : undefined),
          60_000,
          'both servers starting',
        );
        expect(starts.map((x) => x.server).sort()).toEqual(['other', 'tiny']);
        for (const start of starts) expect(start.at).toBeGreaterThan(listed.at);
      } finally {
        await ended(s);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'a find_tool and a call_tool sent right after initialize, with no tools/list, wait for the servers and answer from them',
    async () => {
      const s = serveJoined('calls');
      try {
        initialize(s);
        s.send({ id: 2, method: 'tools/call', params: { name: 'find_tool', arguments: { intent: 'search notes' } } });
        s.send({
          id: 3,
          method: 'tools/call',
          params: { name: 'call_tool', arguments: { name: 'tiny.echo', arguments: { message: 'hello' } } },
        });
        const found = await s.answer(2);
        expect(found.msg.error).toBeUndefined();
        expect(textOf(found.msg.result)).toContain('tiny.search_notes');
        const called = await s.answer(3);
        expect(called.msg.error).toBeUndefined();
        expect((called.msg.result as { isError?: boolean }).isError).not.toBe(true);
        expect(textOf(called.msg.result)).toContain('hello');
        // The servers were started for these calls (no tools/list ever came).
        expect(
          startsIn(s.lines)
            .map((x) => x.server)
            .sort(),
        ).toEqual(['other', 'tiny']);
      } finally {
        await ended(s);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'a client that leaves while a server is still starting: serve ends that start (its process) and exits, not waiting for its initialize',
    async () => {
      const s = serveJoined('leave', stuck);
      initialize(s);
      s.send({ id: 2, method: 'tools/list' });
      await s.answer(2);
      await until(() => (startsIn(s.lines).length === 1 ? true : undefined), 30_000, 'the stuck server starting');
      // The server answers initialize after 10 minutes and the spawn timeout is 2: before closing aborted the starts
      // under way, serve's exit waited for one of them (this test's own bound, 60 s, would fail first).
      const exit = await Promise.race([
        new Promise<number | null>((r) => s.child.once('exit', (code) => r(code))).then((code) => ({ code })),
        new Promise<undefined>((r) => {
          s.child.stdin!.end();
          setTimeout(() => r(undefined), 60_000).unref();
        }),
      ]);
      if (exit === undefined) s.child.kill('SIGKILL');
      expect(exit).toEqual({ code: 0 });
    },
    TIMEOUT_MS,
  );
});
