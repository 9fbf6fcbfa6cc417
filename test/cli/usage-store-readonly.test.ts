// A usage store the user made read-only (or another user's) is never replaced: learning refuses it with an error
// naming the file (exit 2), before anything is written; the file keeps its content and mode. Both learners:
// `replay --learn`, and `serve` (a real process), which refuses at start instead of learning into nothing.
import { chmodSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { sandboxEnv, spawnCli } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const STORE = JSON.stringify({ format: 'mcp-smart/usage@1', updatedAt: '2026-01-01T00:00:00.000Z', tools: {} }) + '\n';

function readOnlyStore(dir: string): string {
  const file = join(dir, 'usage.json');
  writeFileSync(file, STORE);
  chmodSync(file, 0o444);
  return file;
}

describe('a read-only usage store', () => {
  it('replay --learn refuses it (exit 2) naming the file; nothing is replaced or left beside it', async () => {
    const dir = tempDir('mcp-smart-ro-store-');
    const store = readOnlyStore(dir);
    const r = await runCli(
      [
        '--snapshot',
        fixture('session-shapes', 'snapshot.json'),
        '--json',
        'replay',
        fixture('session-shapes'),
        '--learn',
        '--store',
        store,
      ],
      {
        cwd: dir,
        env: { NO_COLOR: '1', MCP_SMART_CACHE_DIR: join(dir, 'cache'), MCP_SMART_DATA_DIR: join(dir, 'data') },
      },
    );
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toEqual({
      code: 'STORE_REFUSED',
      message: `${store}: it is read-only (mode 0444); mcp-smart never replaces a file it may not write — make it writable (chmod u+w) or give another file. It was left untouched; make it writable, pass --store with another file, or --no-learn to serve without learning.`,
    });
    expect(readFileSync(store, 'utf8')).toBe(STORE);
    expect(statSync(store).mode & 0o777).toBe(0o444);
    expect(readdirSync(dir).filter((f) => f.startsWith('usage') || f.startsWith('.usage'))).toEqual(['usage.json']);
  });

  it('serve refuses to start learning into it (exit 2, the file named); --no-learn serves with it', async () => {
    const dir = tempDir('mcp-smart-ro-store-');
    const store = readOnlyStore(dir);
    const config = join(dir, 'servers.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          tiny: {
            command: process.execPath,
            args: [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')],
          },
        },
      }),
    );
    const env = sandboxEnv(dir);
    const refused = await spawnCli(['--config', config, 'serve', '--store', store], {
      cwd: dir,
      env,
      timeoutMs: 30_000,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${store}: it is read-only (mode 0444)`);
    expect(refused.stdout).toBe('');
    expect(readFileSync(store, 'utf8')).toBe(STORE);
    // Without learning the store is only read: serve starts (and ends when its stdin closes, exit 0).
    const served = await spawnCli(['--config', config, 'serve', '--store', store, '--no-learn'], {
      cwd: dir,
      env,
      timeoutMs: 30_000,
    });
    expect(served.code).toBe(0);
    expect(readFileSync(store, 'utf8')).toBe(STORE);
  });
});
