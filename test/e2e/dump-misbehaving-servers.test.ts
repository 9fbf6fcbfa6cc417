// `dump` end to end against misbehaving servers (built CLI): closed ports, Ctrl-C on a server that hangs, stderr floods,
// progress only on a TTY, and a dumped snapshot reproducing live audit figures exactly.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO, fixture, requireBuild } from '../helpers/paths.js';
import { spawnCli, type SpawnRun } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const TIMEOUT_MS = 60_000;
const NODE = process.execPath;
const bad = (name: string): string => fixture('servers', 'misbehaving', `${name}.mjs`);
const published = (pkg: string): string => join(REPO, 'node_modules', '@modelcontextprotocol', pkg, 'dist', 'index.js');
const cmd = (...args: string[]): string => [NODE, ...args].map((a) => `"${a}"`).join(' ');
requireBuild();

let dir: string;
beforeEach(async () => {
  dir = tempDir('mcp-smart-qa2-dump-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function mcpSmart(args: string[], opts: { onSpawn?: (child: ChildProcess) => void } = {}): Promise<SpawnRun> {
  const env = {
    ...process.env,
    NO_COLOR: '1',
    HOME: dir,
    USERPROFILE: dir,
    XDG_CONFIG_HOME: join(dir, '.config'),
    MCP_SMART_CACHE_DIR: join(dir, 'cache'),
    MCP_SMART_DATA_DIR: join(dir, 'data'),
  };
  return spawnCli(args, { cwd: dir, env, timeoutMs: TIMEOUT_MS, ...opts });
}

/** A port on 127.0.0.1 that nothing listens on (bound, then closed). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Live (non-zombie) processes whose command line contains `marker` (Linux /proc). */
function processesWith(marker: string): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (!readFileSync(`/proc/${e}/cmdline`, 'utf8').includes(marker)) continue;
      if (readFileSync(`/proc/${e}/stat`, 'utf8').split(') ')[1]?.startsWith('Z')) continue;
      out.push(Number(e));
    } catch {
      // exited while we looked
    }
  }
  return out;
}

type Snap = { servers: { name: string; status: string; transport: string; error?: string; tools: unknown[] }[] };

describe('dump with misbehaving servers, signals and floods', () => {
  it('a URL nothing listens on: a plain "connection refused" naming the URL, exit 3, no SSE detour', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const run = await mcpSmart(['dump', '--no-cache', '--url', url, '--name', 'gone']);
    expect(run.code).toBe(3);
    const [s] = (JSON.parse(run.stdout) as Snap).servers;
    expect(s).toMatchObject({ name: 'gone', status: 'error', transport: 'http', tools: [] });
    expect(s!.error).toBe(
      `could not connect to ${url}: connection refused (nothing is listening there; is the server running?)`,
    );
    expect(run.stderr).toContain(`FAIL gone  could not connect to ${url}: connection refused`);
    // The same for a server configured as legacy SSE.
    const sseUrl = url.replace(/\/mcp$/, '/sse');
    await writeFile(join(dir, 'sse.json'), JSON.stringify({ mcpServers: { legacy: { type: 'sse', url: sseUrl } } }));
    const sse = await mcpSmart(['dump', '--no-cache', '--config', 'sse.json']);
    expect(sse.code).toBe(3);
    expect((JSON.parse(sse.stdout) as Snap).servers[0]!.error).toBe(
      `could not connect to ${sseUrl}: connection refused (nothing is listening there; is the server running?)`,
    );
  });

  it.skipIf(process.platform !== 'linux')(
    'Ctrl-C while hanging servers connect ends every child, even one that ignores SIGTERM, and writes nothing',
    async () => {
      const marker = `qa2-hang-${process.pid}-${Date.now()}`;
      let sentAfter = 0;
      const run = await mcpSmart(
        [
          'dump',
          '--no-cache',
          '-o',
          'snap.json',
          '--stdio',
          cmd(bad('hang'), '--ignore-sigterm', '--tag', marker),
          '--stdio',
          cmd(bad('hang'), '--tag', marker),
        ],
        {
          onSpawn: (child) => {
            const poll = setInterval(() => {
              // Both servers started (the CLI's own command line holds the marker too).
              if (processesWith(marker).filter((p) => p !== child.pid).length >= 2 && sentAfter === 0) {
                sentAfter = Date.now();
                clearInterval(poll);
                // Give node time to install the SIGTERM handler, so the SIGKILL path is the one exercised.
                setTimeout(() => child.kill('SIGINT'), 500);
              }
            }, 50);
            child.once('close', () => clearInterval(poll));
          },
        },
      );
      expect(sentAfter).toBeGreaterThan(0);
      expect(run.code).toBe(130);
      expect(run.stderr).toContain('Stopped by SIGINT (Ctrl-C); nothing half-done was written.');
      expect(existsSync(join(dir, 'snap.json'))).toBe(false);
      expect(processesWith(marker)).toEqual([]);
    },
  );

  it.skipIf(process.platform !== 'linux')(
    'a second Ctrl-C during shutdown does not kill the CLI before its servers are ended',
    async () => {
      const marker = `qa2-hang2-${process.pid}-${Date.now()}`;
      let sent = false;
      const run = await mcpSmart(
        ['dump', '--no-cache', '--stdio', cmd(bad('hang'), '--ignore-sigterm', '--tag', marker)],
        {
          onSpawn: (child) => {
            const poll = setInterval(() => {
              if (processesWith(marker).filter((p) => p !== child.pid).length >= 1 && !sent) {
                sent = true;
                clearInterval(poll);
                setTimeout(() => {
                  child.kill('SIGINT');
                  // The server ignores SIGTERM, so shutdown waits for the SIGKILL step; signal again meanwhile.
                  setTimeout(() => child.kill('SIGINT'), 100);
                }, 500);
              }
            }, 50);
            child.once('close', () => clearInterval(poll));
          },
        },
      );
      expect(sent).toBe(true);
      expect(run.code).toBe(130);
      expect(processesWith(marker)).toEqual([]);
    },
  );

  it('a server flooding stderr (20 MB before it answers) is read to the end without hanging', async () => {
    const run = await mcpSmart([
      'dump',
      '--no-cache',
      '--stdio',
      cmd(bad('stderr-flood'), '--mb', '20'),
      '--name',
      'loud',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [s] = (JSON.parse(run.stdout) as Snap).servers;
    expect(s).toMatchObject({ name: 'loud', status: 'ok' });
    expect(s!.tools).toHaveLength(5);
    expect(run.stderr.length).toBeLessThan(1000); // without --debug the flood is not shown
  });

  it('progress never reaches a stderr that is not a TTY', async () => {
    const run = await mcpSmart([
      'dump',
      '--no-cache',
      '-o',
      's.json',
      '--stdio',
      cmd(published('server-memory')),
      '--name',
      'memory',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/\r|\x1b|Connecting/);
  });

  it('the dumped snapshot fed back with --snapshot reproduces live audit --json exactly', async () => {
    await writeFile(join(dir, 'allowed.txt'), 'x');
    const config = join(dir, 'mcp.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          everything: { command: NODE, args: [published('server-everything')] },
          filesystem: { command: NODE, args: [published('server-filesystem'), dir] },
          memory: {
            command: NODE,
            args: [published('server-memory')],
            env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
          },
          thinking: { command: NODE, args: [published('server-sequential-thinking')] },
          tiny: {
            command: NODE,
            args: [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')],
          },
        },
      }),
    );
    const dump = await mcpSmart(['--config', config, '--no-cache', 'dump', '-o', 'snap.json']);
    expect(dump.code, dump.stderr).toBe(0);
    const live = await mcpSmart(['--config', config, '--no-cache', '--json', 'audit']);
    const offline = await mcpSmart(['--snapshot', 'snap.json', '--json', 'audit']);
    expect(live.code, live.stderr).toBe(0);
    expect(offline.code, offline.stderr).toBe(0);
    const a = JSON.parse(live.stdout);
    const b = JSON.parse(offline.stdout);
    expect(a.servers.map((s: { name: string }) => s.name)).toEqual([
      'everything',
      'filesystem',
      'memory',
      'thinking',
      'tiny',
    ]);
    expect(b.totals).toEqual(a.totals);
    expect(b.servers).toEqual(a.servers);
    expect(b).toEqual(a);
  });
});
