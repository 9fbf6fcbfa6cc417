// Relative paths in a server entry of a file given with --config are read against that file's folder, not the
// folder mcp-smart runs in: `cwd`, `envFile` and a `./command` (a bare name is still looked up on PATH).
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { sandboxEnv } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

describe('relative paths in a --config file', () => {
  it("a ./command and a relative cwd start from the config file's folder, wherever mcp-smart runs", async () => {
    const dir = tempDir('mcp-smart-rel-paths-');
    const cfg = join(dir, 'project', 'mcp');
    mkdirSync(join(cfg, 'bin'), { recursive: true });
    mkdirSync(join(cfg, 'work'));
    symlinkSync(process.execPath, join(cfg, 'bin', 'node'));
    const config = join(cfg, 'servers.json');
    const args = [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')];
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          rel: { command: './bin/node', args },
          inwork: { command: process.execPath, args, cwd: 'work' },
        },
      }),
    );
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    const r = await runCli(['--config', config, '--no-cache', '--json', 'audit'], {
      cwd: elsewhere,
      env: sandboxEnv(dir),
    });
    expect(r.code, r.stderr).toBe(0);
    const servers = (JSON.parse(r.stdout) as { servers: { name: string; status: string }[] }).servers;
    expect(servers.map((s) => [s.name, s.status]).sort()).toEqual([
      ['inwork', 'ok'],
      ['rel', 'ok'],
    ]);
    const debug = await runCli(['--config', config, 'servers', '--debug'], { cwd: elsewhere, env: sandboxEnv(dir) });
    expect(debug.stdout + debug.stderr).toContain(join(cfg, 'bin', 'node'));
    expect(debug.stdout + debug.stderr).toContain(join(cfg, 'work'));
  });
});
