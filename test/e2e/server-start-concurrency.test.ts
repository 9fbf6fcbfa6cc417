// Many configured servers are started a bounded number at a time (SERVER_START_CONCURRENCY), not all at once:
// real fixture processes note how many of them were running when each started.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_START_CONCURRENCY } from '../../src/core/map-limited.js';
import { fixture, requireBuild } from '../helpers/paths.js';
import { sandboxEnv, spawnCli } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

requireBuild();

describe('starting many servers', () => {
  it(`dump starts at most ${SERVER_START_CONCURRENCY} at once, and lists every one`, { timeout: 120_000 }, async () => {
    const dir = tempDir('mcp-smart-concurrency-');
    const peers = join(dir, 'peers');
    mkdirSync(peers);
    const count = SERVER_START_CONCURRENCY + 8;
    const server = `"${process.execPath}" "${fixture('servers', 'catalog-server.mjs')}" "${fixture('servers', 'catalogs', 'tiny.json')}" --peers-dir "${peers}" --delay-ms 400`;
    const args = Array.from({ length: count }, (_, i) => ['--stdio', server, '--name', `s${i}`]).flat();
    const run = await spawnCli([...args, '--no-cache', '--json', 'audit'], {
      cwd: dir,
      env: sandboxEnv(dir),
      timeoutMs: 110_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const servers = (JSON.parse(run.stdout) as { servers: { status: string }[] }).servers;
    expect(servers.filter((s) => s.status === 'ok')).toHaveLength(count);
    const seen = readFileSync(join(peers, 'seen.log'), 'utf8').trim().split('\n').map(Number);
    expect(seen).toHaveLength(count);
    expect(Math.max(...seen)).toBeLessThanOrEqual(SERVER_START_CONCURRENCY);
    // And they do run side by side.
    expect(Math.max(...seen)).toBeGreaterThan(1);
  });
});
