// `mcp-smart serve --demo` end to end: the built CLI driven by the SDK Client over stdio and Streamable HTTP.
// find_tool → call_tool changes a real memory server behind the proxy; tools/list is answered from the warm
// cache without starting any server; SIGTERM leaves no process; HTTP checks Host, Origin and the bearer token.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, REPO } from '../helpers/paths.js';
import { processGone } from '../helpers/spawn-cli.js';

const TIMEOUT_MS = 90_000;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  if (!existsSync(join(REPO, 'dist', 'cli.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  dir = await mkdtemp(join(tmpdir(), 'mcp-smart-serve-e2e-'));
  env = {
    PATH: process.env.PATH ?? '',
    NO_COLOR: '1',
    HOME: dir,
    MCP_SMART_CACHE_DIR: join(dir, 'cache'),
    MCP_SMART_DATA_DIR: join(dir, 'data'),
    // --demo works in os.tmpdir()/mcp-smart-demo: inside this sandbox, so it goes with it.
    TMPDIR: join(dir, 'tmp'),
  };
  await mkdir(join(dir, 'tmp'), { recursive: true });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Direct children of `pid` (the servers serve started; each leads its own process group). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter((n) => n > 0);
  } catch {
    return []; // ps exits 1 when there is none
  }
}

async function waitFor(done: () => boolean, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 50) {
    if (done()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return done();
}

const text = (r: unknown): string => (r as { content: { text: string }[] }).content[0]?.text ?? '';

/** find_tool → call_tool on the memory server, then read the graph back through call_tool_read. */
async function rememberAlice(client: Client, entity: string): Promise<void> {
  const found = JSON.parse(
    text(
      await client.callTool({
        name: 'find_tool',
        arguments: { intent: 'remember that alice works at acme', server: 'memory', k: 9 },
      }),
    ),
  ) as { results: { id: string; inputSchema?: { required?: string[] } }[] };
  const chosen = found.results.find((r) => r.inputSchema?.required?.includes('entities'));
  expect(chosen?.id).toBe('memory.create_entities');
  const created = await client.callTool({
    name: 'call_tool',
    arguments: {
      name: chosen!.id,
      arguments: { entities: [{ name: entity, entityType: 'person', observations: ['works at acme'] }] },
    },
  });
  expect(created.isError).toBeFalsy();
  const graph = await client.callTool({ name: 'call_tool_read', arguments: { name: 'memory.read_graph' } });
  const doc = JSON.parse(text(graph)) as { entities: { name: string; observations: string[] }[] };
  expect(doc.entities.find((e) => e.name === entity)?.observations).toEqual(['works at acme']);
}

describe('serve --demo over stdio', () => {
  it(
    'find_tool → call_tool changes the memory server; then tools/list comes from the cache with no server started; SIGTERM leaves no process',
    async () => {
      const entity = `alice-${process.pid}`;
      // First run: no cache yet, so serve lists the demo servers live (and caches their lists).
      const first = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, '--demo', 'serve', '--mode', 'meta', '--no-learn'],
        env,
        stderr: 'pipe',
      });
      const client = new Client({ name: 'e2e', version: '1' });
      await client.connect(first);
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(['find_tool', 'describe_tool', 'list_tools', 'call_tool', 'call_tool_read']);
      await rememberAlice(client, entity);
      const firstPid = first.pid!;
      const firstChildren = childrenOf(firstPid);
      expect(firstChildren.length).toBe(4); // the uncached first run listed all four demo servers live
      // The client going away (stdin closes): serve ends every server it started.
      const firstExit = new Promise<number | null>((resolve) =>
        (first as unknown as { _process: ChildProcess })._process.once('exit', (code) => resolve(code)),
      );
      await client.close();
      expect(await firstExit).toBe(0);
      expect(await waitFor(() => firstChildren.every(processGone), 5000)).toBe(true);

      // Second run: warm cache. initialize and tools/list start nothing.
      const second = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, '--demo', 'serve', '--mode', 'meta', '--no-learn'],
        env,
        stderr: 'pipe',
      });
      const again = new Client({ name: 'e2e', version: '1' });
      await again.connect(second);
      const servePid = second.pid!;
      expect((await again.listTools()).tools).toHaveLength(5);
      expect(again.getInstructions()).toContain('everything, filesystem, memory, sequential-thinking');
      expect(childrenOf(servePid)).toEqual([]);
      const graph = await again.callTool({ name: 'call_tool_read', arguments: { name: 'memory.read_graph' } });
      expect(text(graph)).toContain(entity);
      const started = childrenOf(servePid);
      expect(started).toHaveLength(1);

      // The client going away abruptly: SIGTERM to serve ends it and every process it started.
      const exited = new Promise<number | null>((resolve) =>
        (second as unknown as { _process: ChildProcess })._process.once('exit', (code) => resolve(code)),
      );
      process.kill(servePid, 'SIGTERM');
      expect(await exited).toBe(143);
      expect(await waitFor(() => started.every(processGone), 5000)).toBe(true);
      await again.close();
    },
    TIMEOUT_MS,
  );
});

/** Starts `serve --transport http` and resolves the URL it prints on stderr. */
async function startHttpServe(
  extra: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, '--demo', 'serve', '--transport', 'http', '--no-learn', ...extra], {
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      err += String(d);
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  return { child, url };
}

function rawPost(url: string, headers: Record<string, string>): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
  });
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

describe('serve --transport http', () => {
  it(
    'serves the same find → call flow over Streamable HTTP, bound to 127.0.0.1, refusing foreign Host and Origin',
    async () => {
      const { child, url } = await startHttpServe(['--mode', 'meta']);
      try {
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
        const port = new URL(url).port;
        expect(await rawPost(url, { host: `evil.example:${port}` })).toBe(403);
        expect(await rawPost(url, { origin: 'http://evil.example' })).toBe(403);
        const client = new Client({ name: 'e2e-http', version: '1' });
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('call_tool_read');
        await rememberAlice(client, `alice-http-${process.pid}`);
        // Prompts and resources of the servers behind pass through (here: the everything server's).
        const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
        expect(prompts.length).toBeGreaterThan(0);
        const resources = (await client.listResources()).resources;
        const first = resources[0]!;
        const read = await client.readResource({ uri: first.uri });
        expect(read.contents[0]?.uri).toBe(first.uri);
        await client.close();
      } finally {
        expect(await stop(child)).toBe(143);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'Ctrl-C twice (the second during shutdown): serve stops (130) only after every server it started is gone',
    async () => {
      const { child, url } = await startHttpServe(['--mode', 'meta']);
      const exited = new Promise<string>((resolve) =>
        child.once('exit', (code, signal) => resolve(code === null ? String(signal) : String(code))),
      );
      const client = new Client({ name: 'e2e-sigint', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      await client.callTool({ name: 'call_tool_read', arguments: { name: 'memory.read_graph' } });
      const started = childrenOf(child.pid!);
      try {
        expect(started.length).toBeGreaterThan(0);
        child.kill('SIGINT');
        // The second signal lands while serve closes its clients and servers: it must not kill serve mid-way.
        setTimeout(() => child.kill('SIGINT'), 20);
        // 130, or the signal itself when the second one lands after serve let go of it (a shell reports 130 then).
        expect(['130', 'SIGINT']).toContain(await exited);
        expect(started.filter((pid) => !processGone(pid))).toEqual([]);
      } finally {
        // Should the test fail, end what serve left behind (each server leads its own process group).
        for (const pid of started.filter((p) => !processGone(p))) {
          try {
            process.kill(-pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }
    },
    TIMEOUT_MS,
  );

  it(
    '--token-env requires the bearer token; a non-loopback bind without one is refused with exit 2',
    async () => {
      const { child, url } = await startHttpServe(['--token-env', 'SERVE_TOKEN'], {
        SERVE_TOKEN: 'not-a-real-secret-1234',
      });
      try {
        expect(await rawPost(url, {})).toBe(401);
        expect(await rawPost(url, { authorization: 'Bearer wrong' })).toBe(401);
        const client = new Client({ name: 'e2e-token', version: '1' });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(url), {
            requestInit: { headers: { authorization: 'Bearer not-a-real-secret-1234' } },
          }),
        );
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
        await client.close();
      } finally {
        await stop(child);
      }
      const refused = spawn(process.execPath, [BIN, '--demo', 'serve', '--transport', 'http', '--host', '0.0.0.0'], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      refused.stderr.on('data', (d: Buffer) => (err += String(d)));
      const code = await new Promise<number | null>((resolve) => refused.once('exit', (c) => resolve(c)));
      expect(code).toBe(2);
      expect(err).toContain('Refusing to serve on 0.0.0.0 without a token');
    },
    TIMEOUT_MS,
  );
});
