// Real `serve` processes learning into a real PostgreSQL (test/helpers/postgres.ts) whose table another session
// holds locked, or whose catalogue has a tool named with a NUL byte: serving never waits on the store, shutdown is
// bounded, and every learned call is kept (written, or kept for the next serve and written by it). Figures: calls
// kept of calls made, seconds to answer `initialize` and to exit.
import { spawn, spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import pgModule from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture } from '../helpers/paths.js';
import { PG_PASSWORD, PG_USER, startPostgres, type PgServer } from '../helpers/postgres.js';
import { sandbox, node, type Sandbox } from './serve-harness.js';

let pg: PgServer;
let box: Sandbox;
let config: string;
beforeAll(async () => {
  pg = await startPostgres();
  box = await sandbox('store-locks');
  // The tiny catalogue and one tool whose name holds U+0000 (served as evil_name; its id keeps the byte).
  const cat = JSON.parse(await readFile(fixture('servers', 'catalogs', 'tiny.json'), 'utf8')) as {
    tools: { name: string }[];
  };
  cat.tools.push({ ...cat.tools.find((t) => t.name === 'echo')!, name: 'evil\u0000name' });
  const catalog = join(box.dir, 'catalog.json');
  await writeFile(catalog, JSON.stringify(cat));
  config = await box.config('servers.json', { tiny: node(fixture('servers', 'catalog-server.mjs'), catalog) });
});
afterAll(async () => {
  await pg?.stop();
  await box?.remove();
});

const env = (): Record<string, string> => ({ ...box.env, PGPASSWORD: PG_PASSWORD });
const serveArgs = (url: string): string[] => [BIN, '--config', config, 'serve', '--mode', 'tools', '--store', url];

async function initStore(name: string): Promise<string> {
  const url = await pg.createDatabase(name);
  const r = spawnSync(process.execPath, [BIN, 'store', 'init', '--store', url], { env: env(), encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return url;
}

const callsIn = async (db: string): Promise<number> =>
  Number((await pg.query(db, 'SELECT coalesce(sum(success + failure), 0)::float8 AS n FROM mcp_smart_tools'))[0]!.n);

/** A session holding `LOCK TABLE mcp_smart_tools IN ACCESS EXCLUSIVE MODE` until release(). */
async function lockTools(db: string): Promise<{ release: () => Promise<void> }> {
  const c = new pgModule.Client({
    connectionString: pg.url(db).replace(`//${PG_USER}@`, `//${PG_USER}:${PG_PASSWORD}@`),
  });
  c.on('error', () => undefined);
  await c.connect();
  await c.query('BEGIN');
  await c.query('LOCK TABLE mcp_smart_tools IN ACCESS EXCLUSIVE MODE');
  return {
    release: async () => {
      await c.query('ROLLBACK').catch(() => undefined);
      await c.end();
    },
  };
}

interface Serving {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
  stderr: () => string;
  /** ms from spawn to `initialize` answered. */
  initMs: number;
}

async function startServe(url: string): Promise<Serving> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: serveArgs(url),
    env: env(),
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += String(d)));
  const client = new Client({ name: 'store-locks', version: '1' });
  const started = performance.now();
  await client.connect(transport, { timeout: 20_000 });
  return { client, transport, pid: transport.pid!, stderr: () => err, initMs: performance.now() - started };
}

const gone = (pid: number): Promise<void> =>
  new Promise<void>((r) => {
    const check = (): void => {
      try {
        process.kill(pid, 0);
        setTimeout(check, 50);
      } catch {
        r();
      }
    };
    check();
  });

async function call(s: Serving, name: string, i: number): Promise<void> {
  const r = await s.client.callTool({ name, arguments: { message: `m${i}` } });
  expect(r.isError, JSON.stringify(r)).toBeFalsy();
}

describe('PostgreSQL store: hostile names and locks never cost learned calls or hold up serving', () => {
  it('a tool named with U+0000 is learned with the others: every call kept', async () => {
    const url = await initStore('nul');
    const s = await startServe(url);
    const names = (await s.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('evil_name');
    let made = 0;
    for (let i = 0; i < 48; i++, made++) await call(s, i % 16 === 5 ? 'evil_name' : 'echo', i);
    const exited = gone(s.pid);
    await s.client.close();
    await exited;
    expect(s.stderr()).not.toMatch(/could not record usage|could not be written/);
    const kept = await callsIn('nul');
    console.log(`NUL tool name: ${kept} of ${made} calls kept`);
    expect(`${kept} of ${made}`).toBe('48 of 48');
    const ids = (await pg.query('nul', 'SELECT tool_id FROM mcp_smart_tools ORDER BY 1')).map((r) => r.tool_id);
    expect(ids).toEqual(['tiny.echo', 'tiny.evil\uFFFDname']);
  }, 120_000);

  it('a locked table: initialize is answered, SIGTERM and a closed stdin exit in seconds, every call is kept', async () => {
    const url = await initStore('locked');
    const lock = await lockTools('locked');
    let made = 0;
    try {
      // Started while the table is locked: the start-up read gives up after 1 s and serve answers.
      const s = await startServe(url);
      console.log(`locked table: initialize answered in ${(s.initMs / 1000).toFixed(1)} s`);
      expect(s.initMs).toBeLessThan(10_000);
      for (let i = 0; i < 200; i++, made++) await call(s, 'echo', i);
      const exited = gone(s.pid);
      const stopAt = performance.now();
      process.kill(s.pid, 'SIGTERM');
      await exited;
      const termMs = performance.now() - stopAt;
      void s.client.close();
      console.log(`locked table: SIGTERM to exit ${(termMs / 1000).toFixed(1)} s`);
      expect(termMs).toBeLessThan(6000);
      expect(s.stderr()).toMatch(/200 learned call\(s\) could not be written .* in time; kept in /);

      // The client goes away (stdin closed, no signal): serve exits as soon, keeping what it learned.
      const raw = spawn(process.execPath, serveArgs(url), { env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let rawErr = '';
      raw.stdout.on('data', (d: Buffer) => (out += String(d)));
      raw.stderr.on('data', (d: Buffer) => (rawErr += String(d)));
      const send = (m: object): boolean => raw.stdin.write(JSON.stringify(m) + '\n');
      send({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      for (let i = 1; i <= 20; i++, made++)
        send({
          jsonrpc: '2.0',
          id: i,
          method: 'tools/call',
          params: { name: 'echo', arguments: { message: `r${i}` } },
        });
      const deadline = Date.now() + 30_000;
      while (!out.includes('"id":20') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(out).toContain('"id":20');
      const closedAt = performance.now();
      const rawExit = new Promise<number | null>((r) => raw.on('exit', (code) => r(code)));
      raw.stdin.end();
      expect(await rawExit).toBe(0);
      const closeMs = performance.now() - closedAt;
      console.log(`locked table: stdin closed to exit ${(closeMs / 1000).toFixed(1)} s`);
      expect(closeMs).toBeLessThan(8000);
      expect(rawErr).toMatch(/2?20 learned call\(s\) could not be written .* in time; kept in /);
      expect(
        await readFile(join(box.dir, 'data', 'unwritten-usage'), 'utf8').catch((e: NodeJS.ErrnoException) => e.code),
      ).toBe('EISDIR');
    } finally {
      await lock.release();
    }
    expect(await callsIn('locked')).toBe(0);

    // The next serve of the store writes what the two kept.
    const next = await startServe(url);
    const deadline = Date.now() + 30_000;
    while ((await callsIn('locked')) < made && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const exited = gone(next.pid);
    await next.client.close();
    await exited;
    const kept = await callsIn('locked');
    console.log(`locked table: ${kept} of ${made} calls kept`);
    expect(`${kept} of ${made}`).toBe('220 of 220');
    expect(next.stderr()).toMatch(/220 learned call\(s\) kept by an earlier serve are being written/);
  }, 180_000);
});
