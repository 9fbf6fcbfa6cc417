// Over Streamable HTTP mcp-smart opens in the 2026-07-28 era (`server/discover`, with its Mcp-Method header) and
// falls back to the 2025 `initialize` handshake for real 2025 servers (SDK v1), whichever way they answer the
// probe: 400 "Server not initialized", 404, 405, -32601, an HTML 500, a dropped connection. The era is recorded in
// the snapshot and the cache, and a server the cache knows as 2025 is not probed again. SSE-only still works.
import type { ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, requireBuild } from '../helpers/paths.js';
import { spawnCli, startHttpFixture, type SpawnRun } from '../helpers/spawn-cli.js';
import { sandbox, type Sandbox } from './serve-harness.js';

requireBuild();

const LEGACY = fixture('servers', 'legacy-http.mjs');
const MODERN = fixture('servers', 'modern-server.mjs');
const CATALOG = fixture('servers', 'catalog-server.mjs');
const TINY = fixture('servers', 'catalogs', 'tiny.json');
const ANSWERS = ['400', '404', '405', '32601', '500', 'close'] as const;

interface Snap {
  name: string;
  status: string;
  transport: string;
  protocolVersion?: string;
  error?: string;
  tools: { name: string }[];
}

let box: Sandbox;
let config: string;
const urls: Record<string, string> = {};
const children: ChildProcess[] = [];
const log = (name: string): string => join(box.dir, `${name}.log`);
const lines = (name: string): string[] => readFileSync(log(name), 'utf8').split('\n').filter(Boolean);

const run = (args: string[]): Promise<SpawnRun> =>
  spawnCli(['--config', config, ...args], { cwd: box.dir, env: box.env, timeoutMs: 60_000 });

const dump = async (args: string[]): Promise<Snap[]> => {
  const out = await run([...args, 'dump']);
  expect(out.code, out.stderr).toBe(0);
  return (JSON.parse(out.stdout) as { servers: Snap[] }).servers;
};

beforeAll(async () => {
  box = await sandbox('http-era-probe');
  // The nine fixtures start at once (each waits for its own "listening" line): one after the other, a busy machine's
  // Node starts passed the hook's 60 s. The config lists them in this order.
  const fixtures: [name: string, script: string, args: string[]][] = [
    ...ANSWERS.map((a): [string, string, string[]] => [
      `v1-${a}`,
      LEGACY,
      [TINY, '--unknown', a, '--log', log(`v1-${a}`)],
    ]),
    ['v1-stateless', CATALOG, [TINY, '--http', '0']],
    ['both-eras', MODERN, ['--http', '0', '--legacy', 'serve', '--log-headers', log('both-eras')]],
    ['sse-only', CATALOG, [TINY, '--sse', '0']],
  ];
  const started = await Promise.all(fixtures.map(([, script, args]) => startHttpFixture(script, args, children)));
  fixtures.forEach(([name], i) => (urls[name] = started[i]!));
  const mcpServers = Object.fromEntries(Object.entries(urls).map(([name, url]) => [name, { url }]));
  config = join(box.dir, 'mcp-smart.config.json');
  writeFileSync(config, JSON.stringify({ mcpServers, cache: { ttlSeconds: 1 } }));
});

afterAll(async () => {
  for (const c of children) c.kill();
  await box.remove();
});

describe('Streamable HTTP: 2026-07-28 first, 2025 fallback', () => {
  it('every 2025 server is reached in 2025-11-25 after its answer to the server/discover probe', async () => {
    const snaps = await dump(['--no-cache']);
    const tiny = snaps.find((s) => s.name === 'v1-stateless')!;
    expect(tiny.tools.length).toBe(5);
    for (const answer of ANSWERS) {
      const snap = snaps.find((s) => s.name === `v1-${answer}`)!;
      expect([snap.status, snap.transport, snap.protocolVersion, snap.error], answer).toEqual([
        'ok',
        'http',
        '2025-11-25',
        undefined,
      ]);
      expect(snap.tools).toEqual(tiny.tools);
      // The first POST was the probe, with its Mcp-Method header; then the plain 2025 handshake, without one.
      expect(lines(`v1-${answer}`).slice(0, 3), answer).toEqual([
        'server/discover server/discover',
        'initialize -',
        'notifications/initialized -',
      ]);
    }
    expect([tiny.status, tiny.protocolVersion]).toEqual(['ok', '2025-11-25']);
  });

  it('a server that speaks both eras is reached in 2026-07-28: the first POST carries Mcp-Method', async () => {
    const [snap] = (await dump(['--no-cache', '--server', 'both-eras'])) as [Snap];
    expect([snap.status, snap.protocolVersion]).toEqual(['ok', '2026-07-28']);
    expect(snap.tools.length).toBe(5);
    const posts = lines('both-eras');
    expect(posts[0]).toBe('server/discover -');
    expect(posts).not.toContain('initialize -');
  });

  it('an SSE-only (2024) server still gets its SSE fallback', async () => {
    const [snap] = (await dump(['--no-cache', '--server', 'sse-only'])) as [Snap];
    expect([snap.status, snap.transport, snap.protocolVersion, snap.tools.length]).toEqual([
      'ok',
      'sse',
      '2025-11-25',
      5,
    ]);
  });

  it('the cache records the era, and a server it knows as 2025 is opened with initialize, not probed again', async () => {
    writeFileSync(log('v1-400'), '');
    await dump(['--server', 'v1-400']);
    expect(lines('v1-400')[0]).toBe('server/discover server/discover');
    const dir = join(box.env.MCP_SMART_CACHE_DIR!, 'tool-lists');
    const stored = readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { snapshot: Snap });
    expect(stored.map((e) => [e.snapshot.name, e.snapshot.protocolVersion])).toEqual([['v1-400', '2025-11-25']]);
    // The entry expires after 1 s (cache.ttlSeconds): the next run lists live, but opens in the era it recorded.
    await new Promise((r) => setTimeout(r, 1_200));
    writeFileSync(log('v1-400'), '');
    const [again] = (await dump(['--server', 'v1-400'])) as [Snap];
    expect([again.status, again.protocolVersion, again.tools.length]).toEqual(['ok', '2025-11-25', 5]);
    expect(lines('v1-400')[0]).toBe('initialize -');
    expect(lines('v1-400')).not.toContain('server/discover server/discover');
  });
});
