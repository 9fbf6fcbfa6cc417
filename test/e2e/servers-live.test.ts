// connectServers against real processes: the published servers, our fixture servers over stdio, Streamable HTTP
// and SSE, and every misbehaving fixture next to a good one. Also: no process is left behind.
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectServers } from '../../src/core/connect/index.js';
import type { ServerDefinition, ServerSnapshot } from '../../src/core/types.js';
import { REPO, fixture } from '../helpers/paths.js';
import { processGone, startHttpFixture } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const NODE = process.execPath;
const SERVER = fixture('servers', 'catalog-server.mjs');
const TINY = fixture('servers', 'catalogs', 'tiny.json');
const misbehaving = (name: string): string => fixture('servers', 'misbehaving', `${name}.mjs`);
const published = (pkg: string): string => join(REPO, 'node_modules', '@modelcontextprotocol', pkg, 'dist', 'index.js');

const stdio = (name: string, args: string[], extra: Partial<ServerDefinition> = {}): ServerDefinition => ({
  name,
  transport: 'stdio',
  command: NODE,
  args,
  enabled: true,
  source: '--stdio',
  scope: 'adhoc',
  ...extra,
});
const url = (name: string, address: string, extra: Partial<ServerDefinition> = {}): ServerDefinition => ({
  name,
  transport: 'http',
  url: address,
  enabled: true,
  source: '--url',
  scope: 'adhoc',
  ...extra,
});

const byName = (snaps: ServerSnapshot[], name: string): ServerSnapshot => {
  const s = snaps.find((x) => x.name === name);
  if (!s) throw new Error(`no snapshot named ${name}`);
  return s;
};

const pidsIn = (text: string | undefined): number[] =>
  [...(text ?? '').matchAll(/pid (\d+)/g)].map((m) => Number(m[1]));

const httpServers: ChildProcess[] = [];
const startHttpServer = (args: string[]): Promise<string> => startHttpFixture(SERVER, args, httpServers);
afterAll(() => {
  for (const c of httpServers) c.kill('SIGKILL');
});

describe('published MCP servers', () => {
  it('lists the tools of server-everything, -memory, -sequential-thinking and -filesystem in one parallel run', async () => {
    const scratch = tempDir('mcp-smart-fs-');
    try {
      const snaps = await connectServers(
        [
          stdio('everything', [published('server-everything')]),
          stdio('memory', [published('server-memory')], { env: { MEMORY_FILE_PATH: join(scratch, 'memory.jsonl') } }),
          stdio('thinking', [published('server-sequential-thinking')]),
          stdio('filesystem', [published('server-filesystem'), scratch]),
        ],
        { timeoutMs: 30_000 },
      );
      for (const s of snaps) expect(s.status, `${s.name}: ${s.error}`).toBe('ok');
      expect(byName(snaps, 'thinking').tools.map((t) => t.name)).toEqual(['sequentialthinking']);
      expect(byName(snaps, 'memory').tools.map((t) => t.name)).toContain('create_entities');
      expect(byName(snaps, 'filesystem').tools.map((t) => t.name)).toContain('read_text_file');
      const everything = byName(snaps, 'everything');
      expect(everything.tools.map((t) => t.name)).toContain('echo');
      expect(everything.prompts?.length).toBeGreaterThan(0);
      expect(everything.resources?.length).toBeGreaterThan(0);
      expect(everything.serverInfo?.name).toBeTruthy();
      expect(everything.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe('misbehaving servers are reported while the others still work', () => {
  const good = stdio('good', [SERVER, TINY]);
  const run = async (
    bad: ServerDefinition,
    timeoutMs = 20_000,
  ): Promise<{ bad: ServerSnapshot; good: ServerSnapshot }> => {
    const snaps = await connectServers([bad, good], { timeoutMs, captureStderr: true });
    const g = byName(snaps, 'good');
    expect(g.status).toBe('ok');
    expect(g.tools).toHaveLength(5);
    return { bad: byName(snaps, bad.name), good: g };
  };

  it('not installed', async () => {
    const { bad } = await run(stdio('missing', [], { command: 'mcp-smart-no-such-server-binary' }));
    expect(bad.errorCode).toBe('CONNECT_NOT_FOUND');
    expect(bad.error).toBe(
      'command not found: mcp-smart-no-such-server-binary. Is it installed and on PATH (or is the path right)?',
    );
  });

  it('crash on start, with its last stderr line', async () => {
    const { bad } = await run(stdio('crash', [misbehaving('crash-on-start')]));
    expect(bad.errorCode).toBe('CONNECT_EXITED');
    expect(bad.error).toBe(
      'exited with code 1 during initialize — last stderr line: Error: FIXTURE_API_URL is not set',
    );
  });

  it('hang: timed out, and the process (which ignores stdin closing and SIGTERM) is gone', async () => {
    // 5 s, not less: the good server beside it must start and list within the same limit on a busy machine.
    const { bad } = await run(stdio('hang', [misbehaving('hang'), '--announce-pid', '--ignore-sigterm']), 5000);
    expect(bad.errorCode).toBe('CONNECT_TIMEOUT');
    expect(bad.error).toBe('did not answer initialize within 5000 ms; raise --timeout');
    const [pid] = pidsIn(bad.stderr);
    expect(pid).toBeGreaterThan(0);
    expect(processGone(pid as number)).toBe(true);
  });

  it('crash mid-list', async () => {
    const { bad } = await run(stdio('midlist', [misbehaving('crash-mid-list')]));
    expect(bad.errorCode).toBe('CONNECT_EXITED');
    // The other lists run alongside tools/list; on a busy machine they may still be pending and be named too.
    expect(bad.error).toMatch(
      /^exited with code 70 during (?:[\w/]+, )*tools\/list(?:, [\w/]+)* — last stderr line: fatal: out of memory while listing page 2$/,
    );
    expect(bad.tools).toEqual([]);
  });

  it('malformed tool entries: an ok server whose well-formed tools count, with a note', async () => {
    const { bad } = await run(stdio('malformed', [misbehaving('malformed-tools')]));
    expect(bad.status).toBe('ok');
    expect(bad.tools.map((t) => t.name)).toEqual(['good_one', 'bad_schema', 'good_two']);
    const note = (bad.notes ?? []).join('\n');
    expect(note).toContain('#2: no name');
    expect(note).toContain('#3 "bad_schema": inputSchema is a string (counted as {"type":"object"})');
    expect(note).toContain('#4: name is a number, not a string');
    expect(note).toContain('the 3 well-formed tools were kept');
  });

  it('a cursor that never ends (fresh cursor each page)', async () => {
    const { bad } = await run(stdio('endless', [misbehaving('endless-cursor')]));
    expect(bad.errorCode).toBe('CONNECT_PAGINATION');
    expect(bad.error).toBe(
      'tools/list did not end: still a next page after 1000 pages (the page limit); that list was dropped',
    );
  });

  it('a cursor that repeats', async () => {
    const { bad } = await run(stdio('repeat', [misbehaving('endless-cursor'), '--repeat']));
    expect(bad.errorCode).toBe('CONNECT_PAGINATION');
    expect(bad.error).toBe(
      'tools/list did not end: cursor "again" came back again after 2 pages; that list was dropped',
    );
  });

  it('a 10,000-tool catalogue in pages of 250', async () => {
    const { bad } = await run(stdio('huge', [SERVER, '--generate', '10000', '--page-size', '250']));
    expect(bad.status).toBe('ok');
    expect(bad.tools).toHaveLength(10_000);
    expect(bad.tools[9999]?.name).toBe('tool_10000');
  });
});

describe('start-up problems', () => {
  it('names a missing working directory instead of claiming the command is missing; keeps stderr only on request', async () => {
    const snaps = await connectServers(
      [
        stdio('cwd', [SERVER, TINY], { cwd: join(tmpdir(), 'mcp-smart-no-such-dir-8c1f') }),
        stdio('quiet', [SERVER, TINY, '--announce-pid']),
      ],
      { timeoutMs: 15_000 },
    );
    expect(byName(snaps, 'cwd').errorCode).toBe('CONNECT_SPAWN_FAILED');
    expect(byName(snaps, 'cwd').error).toContain('mcp-smart-no-such-dir-8c1f does not exist');
    expect(byName(snaps, 'quiet').status).toBe('ok');
    expect(byName(snaps, 'quiet')).not.toHaveProperty('stderr');
  });
});

describe('processes are always ended', () => {
  it('kills a wrapper and the server it started (npx-style), even when the server ignores stdin closing', async () => {
    const [snap] = await connectServers([stdio('wrapped', [misbehaving('wrapper'), SERVER, TINY, '--linger'])], {
      timeoutMs: 20_000,
      captureStderr: true,
    });
    expect(snap?.status).toBe('ok');
    const pids = pidsIn(snap?.stderr);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(processGone(pid), `pid ${pid}`).toBe(true);
  });

  it('kills a slow server when aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const [snap] = await connectServers([stdio('slow', [SERVER, TINY, '--delay-ms', '20000', '--announce-pid'])], {
      timeoutMs: 30_000,
      signal: controller.signal,
      captureStderr: true,
    });
    expect(snap?.errorCode).toBe('CONNECT_ABORTED');
    const [pid] = pidsIn(snap?.stderr);
    expect(processGone(pid as number)).toBe(true);
  });
});

describe('HTTP servers', () => {
  it('Streamable HTTP with headers; SSE-only reached through the fallback; type sse directly', async () => {
    const secret = 'Bearer e2e-header-secret-3141';
    const httpUrl = await startHttpServer([TINY, '--http', '0', '--require-header', `authorization=${secret}`]);
    const sseUrl = await startHttpServer([TINY, '--sse', '0']);
    const snaps = await connectServers(
      [
        url('http', httpUrl, { headers: { Authorization: secret } }),
        url('auto-sse', sseUrl, { autoTransport: true }),
        url('sse', sseUrl, { transport: 'sse' }),
        url('no-header', httpUrl),
        url('refused', 'http://127.0.0.1:9/mcp', { autoTransport: true }),
      ],
      { timeoutMs: 15_000 },
    );
    const http = byName(snaps, 'http');
    expect(http.status, http.error).toBe('ok');
    expect(http.transport).toBe('http');
    expect(http.tools).toHaveLength(5);
    expect(byName(snaps, 'auto-sse')).toMatchObject({ status: 'ok', transport: 'sse' });
    expect(byName(snaps, 'auto-sse').tools).toHaveLength(5);
    expect(byName(snaps, 'sse')).toMatchObject({ status: 'ok', transport: 'sse' });
    const noHeader = byName(snaps, 'no-header');
    expect(noHeader.errorCode).toBe('CONNECT_FAILED');
    expect(noHeader.error).toContain('HTTP 401');
    const refused = byName(snaps, 'refused');
    expect(refused.errorCode).toBe('CONNECT_FAILED');
    expect(refused.error).toContain('SSE fallback');
    expect(JSON.stringify(snaps)).not.toContain('e2e-header-secret');
  });
});

describe('secrets', () => {
  it('an env value the server prints is redacted from stderr and from error text', async () => {
    const secret = 'sk-e2e-env-secret-2718';
    const snaps = await connectServers(
      [
        stdio('prints', [SERVER, TINY, '--print-env', 'API_KEY'], { env: { API_KEY: secret } }),
        stdio('dies', ['-e', 'console.error("bad key " + process.env.API_KEY); process.exit(3)'], {
          env: { API_KEY: secret },
        }),
      ],
      { timeoutMs: 15_000, captureStderr: true },
    );
    expect(byName(snaps, 'prints').stderr).toContain('env API_KEY=***');
    expect(byName(snaps, 'dies').error).toBe('exited with code 3 during initialize — last stderr line: bad key ***');
    expect(JSON.stringify(snaps)).not.toContain(secret);
  });
});
