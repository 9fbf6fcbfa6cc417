// Schemas no recursive walk survives, from live servers over stdio and HTTP: a tool nested 2,500 levels deep
// (2,500 `properties.child` pairs are 5,002 JSON levels; or 2,500 arrays) is left out with a note naming the server, the tool, the depth and the remedy; a schema
// with 200,000 properties is counted like any tool; the other servers of the run are reported normally.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { spawnCli, startHttpFixture } from '../helpers/spawn-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-deep-wide-'));
const env = { PATH: process.env.PATH, HOME: dir, NO_COLOR: '1', MCP_SMART_CACHE_DIR: join(dir, 'cache') };
const SERVER = fixture('servers', 'misbehaving', 'hard-deep-wide-schema.mjs');
const CATALOG = fixture('servers', 'catalog-server.mjs');
const cmd = (...parts: string[]): string => parts.map((p) => JSON.stringify(p)).join(' ');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface AuditJson {
  servers: { name: string; status: string; toolCount: number }[];
  totals: { toolCount: number };
}

describe('deep and wide schemas from live servers', () => {
  it('deep (stdio, objects), deep (HTTP, arrays) and wide beside a normal server: exit 0, each reported', async () => {
    const url = await startHttpFixture(SERVER, ['--http', '1', '--arrays', '1', '--depth', '2500'], children);
    const r = await spawnCli(
      [
        '--no-cache',
        'audit',
        '--json',
        '--stdio',
        cmd('node', SERVER, '--depth', '2500'),
        '--name',
        'deep',
        '--url',
        url,
        '--name',
        'deep-http',
        '--stdio',
        cmd('node', SERVER, '--shape', 'wide', '--width', '200000'),
        '--name',
        'wide',
        '--stdio',
        cmd('node', CATALOG, '--generate', '5'),
        '--name',
        'normal',
      ],
      { cwd: dir, env, timeoutMs: 120_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as AuditJson;
    const byName = new Map(out.servers.map((s) => [s.name, s]));
    expect(byName.get('deep')).toMatchObject({ status: 'ok', toolCount: 1 });
    expect(byName.get('deep-http')).toMatchObject({ status: 'ok', toolCount: 1 });
    expect(byName.get('wide')).toMatchObject({ status: 'ok', toolCount: 2 });
    expect(byName.get('normal')).toMatchObject({ status: 'ok', toolCount: 5 });
    const remedy = "so it is left out; ask its server's maintainer to flatten the schema";
    expect(r.stderr).toContain(
      `note: deep: tools/list returned 1 malformed tool entry (#1 "deeply_nested": nested more than 200 levels deep (5,002), ${remedy})`,
    );
    expect(r.stderr).toContain(
      `note: deep-http: tools/list returned 1 malformed tool entry (#1 "deeply_nested": nested more than 200 levels deep (2,502), ${remedy})`,
    );
    expect(r.stderr).not.toContain('wide:');
    expect(r.stderr).not.toContain('Maximum call stack');
    expect(r.stderr).not.toContain('    at ');
  });
});
