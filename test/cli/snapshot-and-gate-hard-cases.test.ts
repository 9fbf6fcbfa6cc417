// Snapshot files with odd shapes, and the check gate on failed servers, recall-only failures and cached lists.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-snap-gate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, doc: unknown): string => {
  const p = join(dir, name);
  writeFileSync(p, JSON.stringify(doc));
  return p;
};
const tool = (name: string) => ({ name, description: `Tool ${name}.`, inputSchema: { type: 'object' } });
const server = (name: string, tools: string[], extra: object = {}) => ({
  name,
  transport: 'stdio',
  status: 'ok',
  tools: tools.map(tool),
  ...extra,
});
const snap = (...servers: object[]) => ({ format: 'mcp-smart/snapshot@1', createdAt: 'x', servers });

describe('snapshot hard cases', () => {
  it('instructions that are an object: reported, not exit 4, in audit and discover', async () => {
    const file = write('instr.json', snap(server('a', ['read_file', 'write_file'], { instructions: { text: 'x' } })));
    for (const argv of [
      ['--snapshot', file, 'audit', '--json'],
      ['--snapshot', file, 'discover', 'read a file', '--json'],
    ]) {
      const r = await runCli(argv);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('servers[0].instructions is an object, not a string; it was ignored');
    }
  });

  it('a duplicate server name in one snapshot is said, naming both tool counts', async () => {
    const file = write('dup.json', snap(server('a', ['x', 'y', 'z']), server('a', ['x'])));
    const r = await runCli(['--snapshot', file, 'audit', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('a second server named "a" replaced an earlier one (3 tools → 1 tool)');
  });

  it('a tool with a numeric description in a snapshot: the others are kept and counted', async () => {
    const file = write(
      'shapes.json',
      snap(server('a', ['one', 'two'], {}), {
        ...server('b', []),
        tools: [tool('ok'), { name: 'n', description: 5, inputSchema: {} }],
      }),
    );
    const r = await runCli(['--snapshot', file, 'audit', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { totals: { toolCount: number } };
    expect(out.totals.toolCount).toBe(3);
    expect(r.stderr).toContain('#2 "n": description is a number, not a string');
  });

  it('dump writes source paths relative to the project or under ~, never the absolute home', async () => {
    const home = join(dir, 'home');
    const project = join(dir, 'project');
    const server = fixture('servers', 'catalog-server.mjs');
    const tiny = fixture('servers', 'catalogs', 'tiny.json');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(home, '.cursor'), { recursive: true });
    mkdirSync(project, { recursive: true });
    writeFileSync(
      join(home, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { user: { command: 'node', args: [server, tiny] } } }),
    );
    writeFileSync(
      join(project, '.mcp.json'),
      JSON.stringify({ mcpServers: { proj: { command: 'node', args: [server, tiny] } } }),
    );
    // Approved in Claude Code: the folder's trust dialog accepted and the .mcp.json server enabled.
    writeFileSync(
      join(home, '.claude.json'),
      JSON.stringify({ projects: { [project]: { hasTrustDialogAccepted: true, enabledMcpjsonServers: ['proj'] } } }),
    );
    const r = await runCli(['--no-cache', 'dump', '-o', 'snap.json'], {
      cwd: project,
      env: { HOME: home, NO_COLOR: '1' },
    });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(join(project, 'snap.json'), 'utf8');
    const sources = (JSON.parse(text) as { servers: { name: string; source: string }[] }).servers.map((s) => [
      s.name,
      s.source,
    ]);
    expect(sources.sort()).toEqual([
      ['proj', '.mcp.json'],
      ['user', '~/.cursor/mcp.json'],
    ]);
    expect(text).not.toContain(home);
  }, 60_000);
});

describe('check gate hard cases', () => {
  const crash = fixture('servers', 'misbehaving', 'crash-on-start.mjs');
  const good = `node ${fixture('servers', 'catalog-server.mjs')} ${fixture('servers', 'catalogs', 'tiny.json')}`;

  it('check --update with the only server failing writes no baseline (exit 3 with the cause)', async () => {
    const baseline = join(dir, 'never.lock.json');
    const r = await runCli(['--stdio', `node ${crash}`, '--name', 'only', 'check', '--update', '--baseline', baseline]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('a baseline is never written from servers that failed');
    expect(r.stderr).toContain('only (exited with code 1');
    expect(() => readFileSync(baseline)).toThrow();
  }, 60_000);

  it('a check whose servers all failed never passes', async () => {
    const baseline = join(dir, 'good.lock.json');
    const up = await runCli([
      '--no-cache',
      '--stdio',
      good,
      '--name',
      'srv',
      'check',
      '--update',
      '--baseline',
      baseline,
    ]);
    expect(up.code, up.stderr).toBe(0);
    const r = await runCli(['--stdio', `node ${crash}`, '--name', 'srv', 'check', '--baseline', baseline, '--json']);
    expect(r.code).toBe(3);
    const out = JSON.parse(r.stdout) as { passed: boolean; failures: { code: string; message: string }[] };
    expect(out.passed).toBe(false);
    expect(out.failures[0]?.code).toBe('NO_SERVER_ANSWERED');
    expect(out.failures[0]?.message).toContain('srv: exited with code 1');
  }, 60_000);

  it('a check failing only on recall names the recall check in its headline', async () => {
    const snapFile = fixture('snapshots', 'check-base.json');
    const baseline = join(dir, 'recall.lock.json');
    await runCli(['--snapshot', snapFile, 'check', '--update', '--baseline', baseline]);
    const queries = join(dir, 'q.jsonl');
    writeFileSync(queries, JSON.stringify({ intent: 'zzz qqq', expected: ['nope.none'] }) + '\n');
    const r = await runCli([
      '--snapshot',
      snapFile,
      'check',
      '--baseline',
      baseline,
      '--queries',
      queries,
      '--min-recall',
      '0.9',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[0]).toMatch(
      /^FAIL: hybrid Recall@5 0\.000 is below the minimum 0\.9; tool tokens within limits/,
    );
  });
});

describe('tool-list cache hard cases', () => {
  it('a tampered cache entry passes the same edge check; gates list afresh, others say the cache age', async () => {
    const cacheDir = join(dir, 'cache-home');
    const env = { HOME: cacheDir, NO_COLOR: '1', MCP_SMART_CACHE_DIR: join(cacheDir, 'cache') };
    const line = `node ${fixture('servers', 'catalog-server.mjs')} ${fixture('servers', 'catalogs', 'tiny.json')}`;
    const first = await runCli(['--stdio', line, '--name', 'c', 'audit', '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    const { readdirSync } = await import('node:fs');
    const lists = join(cacheDir, 'cache', 'tool-lists');
    const [entry] = readdirSync(lists);
    const file = join(lists, entry!);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { snapshot: { tools: unknown[] } };
    doc.snapshot.tools.push({ name: 'tampered', description: 7, inputSchema: {} });
    writeFileSync(file, JSON.stringify(doc));
    const cached = await runCli(['--stdio', line, '--name', 'c', 'audit', '--json'], { env });
    expect(cached.code, cached.stderr).toBe(0);
    expect((JSON.parse(cached.stdout) as { totals: { toolCount: number } }).totals.toolCount).toBe(5);
    expect(cached.stderr).toContain('the cached tool list holds 1 malformed tool entry');
    expect(cached.stderr).toMatch(/note: 1 server from cache, (less than a minute|\d+ min) old; --no-cache to refresh/);
    const budget = await runCli(['--stdio', line, '--name', 'c', 'budget', '--max', '100000'], { env });
    expect(budget.stderr).not.toContain('from cache');
    expect(budget.stderr).not.toContain('tampered');
  }, 60_000);
});
