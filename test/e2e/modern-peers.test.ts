// mcp-smart as a client of both protocol eras, with real processes: a modern-only SDK v2 server (2026-07-28,
// legacy: 'reject') over stdio and Streamable HTTP is dumped, audited and served beside 2025 peers (the SDK v1
// catalog fixture, and a strict 2025 server that exits on any request before initialize — it must never be probed).
import type { ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, requireBuild } from '../helpers/paths.js';
import { spawnCli, startHttpFixture, type SpawnRun } from '../helpers/spawn-cli.js';
import { connectServeStdio, node, sandbox, textOf, type Sandbox } from './serve-harness.js';

requireBuild();

const MODERN = fixture('servers', 'modern-server.mjs');
const STRICT = fixture('servers', 'misbehaving', 'strict-2025.mjs');
const CATALOG = fixture('servers', 'catalog-server.mjs');
const TINY = fixture('servers', 'catalogs', 'tiny.json');

interface Snap {
  name: string;
  status: string;
  protocolVersion?: string;
  serverInfo?: { name: string };
  tools: { name: string }[];
}

let box: Sandbox;
let config: string;
let strictLog: string;
let headerLog: string;
const children: ChildProcess[] = [];

const run = (args: string[]): Promise<SpawnRun> =>
  spawnCli(['--config', config, ...args], { cwd: box.dir, env: box.env, timeoutMs: 60_000 });

beforeAll(async () => {
  box = await sandbox('modern-peers');
  strictLog = join(box.dir, 'strict.log');
  headerLog = join(box.dir, 'modern-http-headers.log');
  const url = await startHttpFixture(MODERN, ['--http', '0', '--log-headers', headerLog], children);
  const file = join(box.dir, 'servers.json');
  const servers = {
    modern: node(MODERN),
    'modern-http': { url },
    strict: node(STRICT, '--log', strictLog),
    tiny: node(CATALOG, TINY),
  };
  await box.config('servers.json', servers as never);
  config = file;
});

afterAll(async () => {
  for (const c of children) c.kill();
  await box.remove();
});

describe('mcp-smart reaches both eras', () => {
  it('dump: modern-only servers answer in 2026-07-28, 2025 ones in their version; the strict one only ever saw initialize first', async () => {
    const dump = await run(['--no-cache', 'dump']);
    expect(dump.code, dump.stderr).toBe(0);
    const snaps = (JSON.parse(dump.stdout) as { servers: Snap[] }).servers;
    const by = (n: string): Snap => snaps.find((s) => s.name === n)!;
    expect(snaps.map((s) => [s.name, s.status, s.protocolVersion])).toEqual([
      ['modern', 'ok', '2026-07-28'],
      ['modern-http', 'ok', '2026-07-28'],
      ['strict', 'ok', '2025-06-18'],
      ['tiny', 'ok', '2025-11-25'],
    ]);
    const tinyTools = by('tiny').tools.map((t) => t.name);
    expect(by('modern').tools.map((t) => t.name)).toEqual(tinyTools);
    expect(by('modern-http').tools).toEqual(by('tiny').tools);
    expect(by('modern').serverInfo?.name).toBe('modern-fixture');
    expect(readFileSync(strictLog, 'utf8').split('\n').filter(Boolean)).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/list',
    ]);
  });

  it('the tool-list cache keeps the era: a second dump is answered from the cache, still 2026-07-28', async () => {
    const first = await run(['dump', '--server', 'modern']);
    expect(first.code, first.stderr).toBe(0);
    const dir = join(box.env.MCP_SMART_CACHE_DIR!, 'tool-lists');
    const read = () => readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'));
    const stored = read();
    expect(stored.map((text) => (JSON.parse(text) as { snapshot: Snap }).snapshot.protocolVersion)).toEqual([
      '2026-07-28',
    ]);
    const again = await run(['dump', '--server', 'modern']);
    expect((JSON.parse(again.stdout) as { servers: Snap[] }).servers[0]?.protocolVersion).toBe('2026-07-28');
    // A live listing would have rewritten the entry (a new storedAt): the second dump read it instead.
    expect(read()).toEqual(stored);
  });

  it('audit: a modern server counts exactly like the same tools from a 2025 server', async () => {
    const audit = await run(['--no-cache', 'audit', '--json']);
    expect(audit.code, audit.stderr).toBe(0);
    const doc = JSON.parse(audit.stdout) as {
      servers: { name: string; status: string; toolCount: number; tools: { name: string; tokens: unknown }[] }[];
    };
    const by = (n: string) => doc.servers.find((s) => s.name === n)!;
    expect(by('modern').status).toBe('ok');
    expect(by('modern-http').toolCount).toBe(5);
    const tokens = (n: string) => by(n).tools.map((t) => [t.name, t.tokens]);
    expect(tokens('modern')).toEqual(tokens('tiny'));
    expect(tokens('modern-http')).toEqual(tokens('tiny'));
  });

  it('serve: calls reach the modern backends (stdio and HTTP) and the strict 2025 one', async () => {
    const served = await connectServeStdio(box.env, ['--config', config, '--mode', 'meta', '--no-learn']);
    try {
      for (const [server, args, want] of [
        ['modern', { message: 'over stdio' }, 'over stdio'],
        ['modern-http', { message: 'over http' }, 'over http'],
        ['strict', { text: 'still 2025' }, 'still 2025'],
      ] as const) {
        const result = await served.client.callTool({
          name: 'call_tool',
          arguments: { name: `${server}.echo`, arguments: args },
        });
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(textOf(result)).toBe(want);
      }
      // The client called `modern-http.echo` (serve's name); the backend's Mcp-Name header names its own tool.
      const calls = readFileSync(headerLog, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('tools/call '));
      expect(calls).toEqual(['tools/call echo']);
    } finally {
      await served.client.close();
    }
  });
});
