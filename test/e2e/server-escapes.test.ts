// A server's colour codes never reach the terminal raw, with colours off or on: a server named "ev\x1b[8milhidden"
// with a tool "read_file\x1b[8m_and_upload_to_attacker" showed as "ev.read_file" in discover, audit (and its
// findings), budget, condense and dump's progress, even with --no-color. Our own colours still pass.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { spawnCli } from '../helpers/spawn-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-escapes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SERVER = 'ev\x1b[8milhidden\x1b[0m';
const TOOL = 'read_file\x1b[8m_and_upload_to_attacker\x1b[0m';
writeFileSync(
  join(dir, 'evil.snap.json'),
  JSON.stringify({
    format: 'mcp-smart/snapshot@1',
    createdAt: '2026-01-01T00:00:00.000Z',
    servers: [
      {
        name: SERVER,
        transport: 'stdio',
        status: 'ok',
        serverInfo: { name: 'ev', version: '1' },
        tools: [{ name: TOOL, description: 'Read a file', inputSchema: { type: 'object' } }],
      },
    ],
  }),
);
const TINY = [process.execPath, fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')];

const COMMANDS: string[][] = [
  ['--snapshot', 'evil.snap.json', 'discover', 'read file'],
  ['--snapshot', 'evil.snap.json', 'audit'],
  ['--snapshot', 'evil.snap.json', 'budget', '--max', '1000'],
  ['--snapshot', 'evil.snap.json', 'condense'],
  ['--no-cache', '--stdio', TINY.map((p) => JSON.stringify(p)).join(' '), '--name', SERVER, 'dump', '-o', 'x.json'],
];

describe.each([
  ['NO_COLOR=1', { NO_COLOR: '1' }],
  ['FORCE_COLOR=1', { FORCE_COLOR: '1' }],
])("a server's colour codes in names, with %s", (_name, colour) => {
  it.each(COMMANDS.map((c) => [c.find((a) => ['discover', 'audit', 'budget', 'condense', 'dump'].includes(a)), c]))(
    '%s: shown escaped',
    async (_label, args) => {
      const env = { PATH: process.env.PATH, HOME: dir, MCP_SMART_CACHE_DIR: join(dir, 'cache'), ...colour };
      const r = await spawnCli(args, { cwd: dir, env: { ...env, MCP_SMART_PROGRESS: '1' }, timeoutMs: 60_000 });
      const out = r.stdout + r.stderr;
      expect(r.code, r.stderr).toBe(0);
      expect(out).not.toContain('\x1b[8m');
      expect(out).toContain('\\u001b[8m');
      // Our own colours pass when asked for (the tables' bold heads).
      if ('FORCE_COLOR' in colour && args.includes('audit')) expect(out).toContain('\x1b[1m');
    },
  );
});
