// adopt writes what it copies as written exactly: every header value is hidden in our output by default, so the
// write-time scrub turned `X-Tenant: my-company` into `***` — and, through it, `--org my-company` and
// `/srv/my-company/data` of another server. Secret flags in args become variables, never written or printed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { tempDir } from '../helpers/temp.js';

const FS = {
  command: 'npx',
  args: ['-y', '@acme/mcp', '--org', 'my-company', '--root', '/srv/my-company/data'],
};
const SECRET_ARGS = ['--api-key', 'sk-proj-abcdef123456', '--token=ghp_abcdefgh12345678', '--password', 'hunter2pw'];
const API = { url: 'https://api.example.com/mcp', headers: { 'X-Tenant': 'my-company', Accept: 'application/json' } };

function project(servers: Record<string, unknown>): { home: string; cwd: string; env: Record<string, string> } {
  const home = tempDir('mcp-smart-adopt-plain-');
  const cwd = join(home, 'proj');
  mkdirSync(join(cwd, '.cursor'), { recursive: true });
  writeFileSync(join(cwd, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: servers }));
  return { home, cwd, env: { NO_COLOR: '1', HOME: home, MCP_SMART_CACHE_DIR: join(home, 'cache') } };
}
const written = (cwd: string): { mcpServers: Record<string, { args?: string[]; headers?: object }> } =>
  JSON.parse(readFileSync(join(cwd, 'mcp-smart.config.json'), 'utf8')) as never;

describe('adopt cursor with plain header and argument values', () => {
  it('writes X-Tenant, Accept and the arguments exactly as the client has them', async () => {
    const p = project({ fs: FS, api: API });
    const r = await runCli(['adopt', 'cursor'], { env: p.env, cwd: p.cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(written(p.cwd).mcpServers).toEqual({ fs: FS, api: API });
    expect(r.stdout).not.toContain('These values are secrets');
  });

  it("with -s fs --apply, the other server's header values do not corrupt the adopted arguments", async () => {
    const p = project({ fs: FS, api: API });
    const r = await runCli(['-s', 'fs', 'adopt', 'cursor', '--apply'], { env: p.env, cwd: p.cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(written(p.cwd).mcpServers).toEqual({ fs: FS });
  });

  it('secret flags become variables: not written, not printed by --dry-run, carried by --apply', async () => {
    const p = project({ fs: { ...FS, args: [...FS.args, ...SECRET_ARGS] }, api: API });
    const dry = await runCli(['adopt', 'cursor', '--dry-run'], { env: p.env, cwd: p.cwd });
    expect(dry.code, dry.stderr).toBe(0);
    for (const s of ['sk-proj', 'ghp_', 'hunter2pw']) expect(dry.stdout + dry.stderr).not.toContain(s);
    expect(dry.stdout).toContain('"--token=${FS_TOKEN}"');
    expect(dry.stdout).toContain('"/srv/my-company/data"');
    expect(dry.stdout).toContain('"X-Tenant": "my-company"');
    expect(dry.stdout).toContain('FS_API_KEY  (fs args[7])');
    const r = await runCli(['adopt', 'cursor', '--apply'], { env: p.env, cwd: p.cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(written(p.cwd).mcpServers.fs!.args).toEqual([
      ...FS.args,
      '--api-key',
      '${FS_API_KEY}',
      '--token=${FS_TOKEN}',
      '--password',
      '${FS_PASSWORD}',
    ]);
    const cursor = JSON.parse(readFileSync(join(p.cwd, '.cursor', 'mcp.json'), 'utf8')) as {
      mcpServers: { smart: { env: object } };
    };
    expect(cursor.mcpServers.smart.env).toEqual({
      FS_API_KEY: 'sk-proj-abcdef123456',
      FS_TOKEN: 'ghp_abcdefgh12345678',
      FS_PASSWORD: 'hunter2pw',
    });
  });
});
