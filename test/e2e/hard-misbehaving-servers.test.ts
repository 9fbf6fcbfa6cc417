// Servers that misbehave in ways a client tolerates or a user must read: each is reported clearly, the rest of
// the run stands, and nothing a server sends reaches the terminal raw.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture } from '../helpers/paths.js';
import { spawnCli, startHttpFixture } from '../helpers/spawn-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-hard-'));
const env = { PATH: process.env.PATH, HOME: dir, NO_COLOR: '1', MCP_SMART_CACHE_DIR: join(dir, 'cache') };
const bad = (name: string): string => fixture('servers', 'misbehaving', `${name}.mjs`);
const cmd = (...parts: string[]): string => parts.map((p) => JSON.stringify(p)).join(' ');
const run = (args: string[], timeoutMs = 60_000) => spawnCli(args, { cwd: dir, env, timeoutMs });
const children: ChildProcess[] = [];

beforeAll(() => {
  if (!existsSync(join(BIN, '..', '..', 'dist', 'cli.js'))) throw new Error('run npm run build first');
});
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface AuditJson {
  servers: { name: string; status: string; toolCount: number; error?: string }[];
  totals: { toolCount: number };
}

describe('hard misbehaving servers', () => {
  it('optional prompts/list and resources/list failing: an ok server whose tools count, with a note each', async () => {
    const r = await run([
      '--no-cache',
      'audit',
      '--json',
      '--stdio',
      cmd('node', bad('hard-optional-lists-fail')),
      '--name',
      'opt',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as AuditJson;
    expect(out.servers[0]).toMatchObject({ name: 'opt', status: 'ok', toolCount: 3 });
    expect(r.stderr).toContain('note: opt: prompts/list failed (MCP error -32601');
    expect(r.stderr).toContain('note: opt: resources/list failed (MCP error -32603');
    expect(r.stderr).toContain('the tools were kept');
  });

  it('wrongly typed tool fields and a 2,000-level schema: the three readable tools are kept and counted', async () => {
    const line = cmd('node', bad('hard-bad-tool-shapes'));
    const r = await run(['--no-cache', 'audit', '--json', '--stdio', line, '--name', 'shapes']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as AuditJson;
    expect(out.servers[0]).toMatchObject({ name: 'shapes', status: 'ok', toolCount: 3 });
    expect(out.totals.toolCount).toBe(3);
    expect(r.stderr).toContain('#2 "num_description": description is a number, not a string');
    expect(r.stderr).toContain('#3 "obj_description": description is an object, not a string');
    expect(r.stderr).toContain('#4 "null_description": description is null, not a string');
    expect(r.stderr).toContain('#5 "num_title": title is a number (ignored)');
    expect(r.stderr).toContain('#6 "deep_schema": nested more than 200 levels deep (');
    expect(r.stderr).toContain('the 3 well-formed tools were kept');
    // The same tools through a snapshot file: the edge check is the same, budget counts the same two tools.
    const dump = await run(['--no-cache', '--stdio', line, '--name', 'shapes', 'dump', '-o', 'shapes.json']);
    expect(dump.code, dump.stderr).toBe(0);
    // The snapshot holds the kept tool as the server sent it (its title a number), and reads back the same.
    const file = JSON.parse(readFileSync(join(dir, 'shapes.json'), 'utf8')) as {
      servers: { tools: { name: string; title?: unknown }[] }[];
    };
    expect(file.servers[0]?.tools.find((t) => t.name === 'num_title')?.title).toBe(7);
    const again = await run(['--snapshot', 'shapes.json', 'audit', '--json']);
    expect((JSON.parse(again.stdout) as AuditJson).totals.toolCount).toBe(3);
    const budget = await run(['--snapshot', 'shapes.json', 'budget', '--max', '100000', '--json']);
    expect(budget.code, budget.stderr).toBe(0);
    const full = (JSON.parse(r.stdout) as { totals: { tokens: { full: number } } }).totals.tokens.full;
    expect(full).toBeGreaterThan(0);
    expect((JSON.parse(budget.stdout) as { used: number }).used).toBe(full);
  });

  it('a Node crash quotes the error line, not the "Node.js v20…" or npm log trailer', async () => {
    for (const extra of [[], ['--npm']]) {
      const r = await run([
        '--no-cache',
        'dump',
        '--stdio',
        cmd('node', bad('hard-crash-trailer'), ...extra),
        '--name',
        'crash',
      ]);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('last stderr line: Error: DATABASE_URL is not set; cannot start');
      expect(r.stderr).not.toContain('last stderr line: Node.js');
      expect(r.stderr).not.toContain('last stderr line: npm error');
    }
  });

  it('an invalid initialize result is one line naming the field', async () => {
    const r = await run(['--no-cache', 'dump', '--stdio', cmd('node', bad('hard-bad-initialize')), '--name', 'init']);
    expect(r.code).toBe(3);
    const snap = JSON.parse(r.stdout) as { servers: { error: string }[] };
    expect(snap.servers[0]?.error).toBe(
      'initialize failed: invalid field serverInfo.name: Invalid input: expected string, received number',
    );
  });

  it('escape sequences, bidi controls and zero-width characters in tool names, descriptions and server stderr never reach the terminal raw', async () => {
    const ok = await run([
      '--no-cache',
      'audit',
      '--top',
      '5',
      '--debug',
      '--stdio',
      cmd('node', bad('hard-escapes')),
      '--name',
      'esc',
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    const failed = await run([
      '--no-cache',
      'dump',
      '--stdio',
      cmd('node', bad('hard-escapes'), '--fail'),
      '--name',
      'esc',
    ]);
    expect(failed.code).toBe(3);
    for (const text of [ok.stdout, ok.stderr, failed.stderr]) {
      // Only colour (SGR) sequences may pass, and NO_COLOR is set: no ESC, BEL or CSI at all.
      expect(text).not.toMatch(/[\u0007\u001b\u009b]/);
      // Nor bidi controls or zero-width characters.
      expect(text).not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/);
    }
    expect(ok.stdout).toContain('clear\\u001b[2Jscreen');
    expect(ok.stdout).toContain('run_\\u202egnp.exe');
    expect(ok.stdout).toContain('read\\u200b_file');
    expect(failed.stderr).toContain('\\u001b[2J');
  });

  it('an HTTP 404 with a 50 KB HTML page: a short excerpt, and the run ends promptly', async () => {
    const url = await startHttpFixture(bad('hard-http-errors'), [], children);
    const started = performance.now();
    const r = await run(['--no-cache', 'dump', '--url', url, '--name', 'web']);
    const took = performance.now() - started;
    expect(r.code).toBe(3);
    const error = (JSON.parse(r.stdout) as { servers: { error: string }[] }).servers[0]?.error ?? '';
    expect(error).toContain('an HTML page titled "404 Not Found"');
    expect(error.length).toBeLessThan(700);
    expect(r.stderr.length).toBeLessThan(2000);
    // Before: 7.6 s here, most of it idle keep-alive connections after the work was done.
    expect(took).toBeLessThan(6000);
  });

  it('--timeout above the timer limit is refused (exit 2), --stdio with an empty program is exit 2', async () => {
    const t = await run(['--timeout', '2147483648', '--stdio', cmd('node', bad('hard-escapes')), 'dump']);
    expect(t.code).toBe(2);
    expect(t.stderr).toContain('--timeout');
    const e = await run(['--stdio', "'' x", 'dump']);
    expect(e.code).toBe(2);
    expect(e.stderr).toContain('--stdio');
  });
});
