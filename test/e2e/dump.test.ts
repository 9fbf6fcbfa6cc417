// `mcp-smart dump` end to end: the built CLI (bin/mcp-smart.js → dist; run `npx tsc -p tsconfig.json` first)
// against published servers and fixture servers over stdio, Streamable HTTP and SSE, misbehaving ones included.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO, fixture, requireBuild } from '../helpers/paths.js';
import { processGone, spawnCli, startHttpFixture, type SpawnRun } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const TIMEOUT_MS = 60_000;
const NODE = process.execPath;
const SERVER = fixture('servers', 'catalog-server.mjs');
const TINY = fixture('servers', 'catalogs', 'tiny.json');
const bad = (name: string): string => fixture('servers', 'misbehaving', `${name}.mjs`);
const published = (pkg: string): string => join(REPO, 'node_modules', '@modelcontextprotocol', pkg, 'dist', 'index.js');
/** A --stdio command line: node plus quoted arguments. */
const cmd = (...args: string[]): string => [NODE, ...args].map((a) => `"${a}"`).join(' ');

let dir: string;
let cacheDir: string;

type Run = SpawnRun;

interface SnapshotServer {
  name: string;
  status: string;
  transport: string;
  error?: string;
  errorCode?: string;
  tools: { name: string }[];
  [key: string]: unknown;
}

/** CI=true makes dump read no cache (a gate must see what the servers answer now); these cases test the cache itself. */
function withoutCi(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { CI: _ci, ...rest } = env;
  return rest;
}

/** Runs the built CLI in a scratch folder with its own HOME and cache; kills the process group after TIMEOUT_MS. */
function mcpSmart(args: string[], opts: { onSpawn?: (child: ChildProcess) => void } = {}): Promise<Run> {
  return spawnCli(args, {
    cwd: dir,
    env: {
      ...withoutCi(process.env),
      NO_COLOR: '1',
      HOME: dir,
      USERPROFILE: dir,
      XDG_CONFIG_HOME: join(dir, '.config'),
      MCP_SMART_CACHE_DIR: cacheDir,
    },
    timeoutMs: TIMEOUT_MS,
    ...opts,
  });
}

const servers = (run: Run): SnapshotServer[] => (JSON.parse(run.stdout) as { servers: SnapshotServer[] }).servers;
const byName = (list: SnapshotServer[], name: string): SnapshotServer => {
  const s = list.find((x) => x.name === name);
  if (!s) throw new Error(`no server ${name} in ${list.map((x) => x.name).join(', ')}`);
  return s;
};

requireBuild();

beforeEach(async () => {
  dir = tempDir('mcp-smart-dump-');
  cacheDir = join(dir, 'cache');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const httpChildren: ChildProcess[] = [];
afterAll(() => {
  for (const c of httpChildren) c.kill('SIGKILL');
});
const startHttpServer = (args: string[]): Promise<string> => startHttpFixture(SERVER, args, httpChildren);

describe('mcp-smart dump', () => {
  it('dumps the published servers, named after serverInfo.name', async () => {
    const run = await mcpSmart([
      'dump',
      '--no-cache',
      '--json',
      '--stdio',
      cmd(published('server-everything')),
      '--stdio',
      cmd(published('server-sequential-thinking')),
      '--stdio',
      cmd(published('server-memory')),
      '--name',
      'memory',
      '--stdio',
      cmd(published('server-filesystem'), dir),
      '--name',
      'files',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const list = servers(run);
    expect(list.map((s) => s.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(list.map((s) => s.name)).toEqual([
      'mcp-servers/everything',
      'sequential-thinking-server',
      'memory',
      'files',
    ]);
    expect(byName(list, 'sequential-thinking-server').tools.map((t) => t.name)).toEqual(['sequentialthinking']);
    expect(byName(list, 'files').tools.map((t) => t.name)).toContain('list_directory');
    expect(JSON.parse(run.stdout).format).toBe('mcp-smart/snapshot@1');
    // Snapshots never carry in-memory fields.
    expect(run.stdout).not.toContain('"elapsedMs"');
    expect(run.stdout).not.toContain('"stderr"');
  });

  // The other lists run alongside tools/list, so on a busy machine they may still be pending when the server dies,
  // and the phase then names them too ("during prompts/list, …, tools/list").
  const cases: [string, string, string, string | RegExp][] = [
    ['not-installed', 'mcp-smart-no-such-binary', 'CONNECT_NOT_FOUND', 'command not found: mcp-smart-no-such-binary'],
    [
      'crash-on-start',
      cmd(bad('crash-on-start')),
      'CONNECT_EXITED',
      'exited with code 1 during initialize — last stderr line: Error: FIXTURE_API_URL is not set',
    ],
    ['hang', cmd(bad('hang')), 'CONNECT_TIMEOUT', 'did not answer initialize within 8000 ms; raise --timeout'],
    [
      'crash-mid-list',
      cmd(bad('crash-mid-list')),
      'CONNECT_EXITED',
      /exited with code 70 during (?:[\w/]+, )*tools\/list(?:, [\w/]+)* — /,
    ],
    [
      'endless-cursor',
      cmd(bad('endless-cursor')),
      'CONNECT_PAGINATION',
      'tools/list did not end: still a next page after 1000 pages (the page limit)',
    ],
  ];
  it.each(cases)('%s: reported with its reason next to a good server, exit 3', async (name, line, code, reason) => {
    // 1,000 pages take far less than a second on an idle machine but several on a loaded one: the limit must be
    // what stops the endless cursor, not the timeout, which only the hang case is about. The good server shares the
    // limit, so even the hang case allows 8 s: on 2 busy CPUs with other test files beside it, a server's start
    // alone has taken over 2 s.
    const run = await mcpSmart([
      'dump',
      '--no-cache',
      '--timeout',
      name === 'hang' ? '8000' : '30000',
      '--stdio',
      cmd(SERVER, TINY),
      '--name',
      'good',
      '--stdio',
      line,
      '--name',
      name,
    ]);
    expect(run.code, run.stderr).toBe(3);
    const list = servers(run);
    expect(byName(list, 'good')).toMatchObject({ status: 'ok' });
    expect(byName(list, 'good').tools).toHaveLength(5);
    const failed = byName(list, name);
    expect(failed.status).toBe('error');
    expect(failed.errorCode).toBe(code);
    expect(failed.error).toMatch(reason);
    expect(run.stderr).toContain(`FAIL ${name}`);
    expect(run.stderr).toMatch(reason);
  });

  it('a 10,000-tool catalogue', async () => {
    const run = await mcpSmart([
      'dump',
      '--no-cache',
      '--stdio',
      cmd(SERVER, '--generate', '10000', '--page-size', '1000'),
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [only] = servers(run);
    expect(only?.name).toBe('generated-10000');
    expect(only?.tools).toHaveLength(10_000);
  });

  it('-o writes the file and keeps stdout free; --json then prints a summary document', async () => {
    const plain = await mcpSmart(['dump', '--no-cache', '-o', 'snap.json', '--stdio', cmd(SERVER, TINY)]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toContain('Wrote snap.json: 1 server.');
    const saved = JSON.parse(await readFile(join(dir, 'snap.json'), 'utf8'));
    expect(saved.servers[0].tools).toHaveLength(5);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    const json = await mcpSmart([
      'dump',
      '--no-cache',
      '--json',
      '-o',
      'snap2.json',
      '--stdio',
      cmd(SERVER, TINY),
      '--stdio',
      cmd(bad('crash-on-start')),
      '--name',
      'crash',
    ]);
    expect(json.code).toBe(3);
    const doc = JSON.parse(json.stdout);
    expect(doc).toMatchObject({ schemaVersion: 1, command: 'dump', output: join(dir, 'snap2.json') });
    expect(doc.servers).toEqual([
      { name: 'tiny', status: 'ok', toolCount: 5 },
      { name: 'crash', status: 'error', error: expect.stringContaining('exited with code 1'), toolCount: 0 },
    ]);
  });

  it('Streamable HTTP with a header, and an SSE-only server through the fallback', async () => {
    const httpUrl = await startHttpServer([TINY, '--http', '0', '--require-header', 'x-api-key=dump-http-secret-99']);
    const sseUrl = await startHttpServer([TINY, '--sse', '0']);
    const config = join(dir, 'servers.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          remote: { url: httpUrl, headers: { 'X-Api-Key': 'dump-http-secret-99' } },
          legacy: { url: sseUrl },
        },
      }),
    );
    const run = await mcpSmart(['dump', '--config', config, '--debug']);
    expect(run.code, run.stderr).toBe(0);
    const list = servers(run);
    expect(byName(list, 'remote')).toMatchObject({ status: 'ok', transport: 'http' });
    expect(byName(list, 'legacy')).toMatchObject({ status: 'ok', transport: 'sse' });
    for (const text of [
      run.stdout,
      run.stderr,
      ...readdirSync(join(cacheDir, 'tool-lists')).map((f) => readFileSync(join(cacheDir, 'tool-lists', f), 'utf8')),
    ]) {
      expect(text).not.toContain('dump-http-secret-99');
    }
  });

  it('env secrets never reach stdout, stderr (even with --debug) or the cache', async () => {
    const secret = 'sk-dump-env-secret-4242';
    const config = join(dir, 'mcp.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          prints: { command: NODE, args: [SERVER, TINY, '--print-env', 'API_KEY'], env: { API_KEY: secret } },
          dies: {
            command: NODE,
            args: ['-e', 'console.error("bad key", process.env.API_KEY); process.exit(5)'],
            env: { API_KEY: secret },
          },
        },
      }),
    );
    const run = await mcpSmart(['dump', '--config', config, '--debug']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('env API_KEY=***');
    expect(run.stderr).toContain('last stderr line: bad key ***');
    const files = readdirSync(join(cacheDir, 'tool-lists'));
    expect(files).toHaveLength(1); // only the server that worked
    for (const text of [
      run.stdout,
      run.stderr,
      ...files.map((f) => readFileSync(join(cacheDir, 'tool-lists', f), 'utf8')),
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('answers from the cache the second time; --no-cache neither reads nor writes it', async () => {
    const args = ['dump', '--stdio', cmd(SERVER, TINY), '--name', 'tiny'];
    const first = await mcpSmart(args);
    expect(first.stderr).not.toContain('(cached)');
    const second = await mcpSmart(args);
    expect(second.stderr).toContain('(cached)');
    expect(servers(second)).toEqual(servers(first));
    await rm(cacheDir, { recursive: true, force: true });
    const off = await mcpSmart([...args, '--no-cache']);
    expect(off.code).toBe(0);
    expect(existsSync(cacheDir)).toBe(false);
  });

  it('Ctrl-C ends the run and the server it started, writing nothing', async () => {
    const pidFile = join(dir, 'server.pid');
    let sent = false;
    const run = await mcpSmart(
      [
        'dump',
        '--no-cache',
        '-o',
        'snap.json',
        '--stdio',
        cmd(SERVER, TINY, '--delay-ms', '30000', '--pid-file', pidFile),
      ],
      {
        onSpawn: (child) => {
          const poll = setInterval(() => {
            if (existsSync(pidFile) && !sent) {
              sent = true;
              clearInterval(poll);
              child.kill('SIGINT');
            }
          }, 50);
          child.once('close', () => clearInterval(poll));
        },
      },
    );
    expect(sent).toBe(true);
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('Stopped by SIGINT');
    expect(existsSync(join(dir, 'snap.json'))).toBe(false);
    expect(processGone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
  });
});
