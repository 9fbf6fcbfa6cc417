// Four real `serve` processes (a fixture backend behind each) and a `replay --learn` write one store at once, a
// PostgreSQL database and then a file: every forwarded call is counted, none lost. A writer killed with SIGKILL
// mid-way leaves nothing half written. A file lock left by a writer killed inside it is broken once stale (15 s):
// the others keep answering and write what they learned after that wait. A database that goes away does not stop
// serve: it keeps answering, keeps what it learned, and writes it once the database is back.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, REPO, fixture } from '../helpers/paths.js';
import { PG_PASSWORD, startPostgres, type PgServer } from '../helpers/postgres.js';
import { sandbox, node, type Sandbox } from './serve-harness.js';

const TINY = fixture('servers', 'catalogs', 'tiny.json');
const CALLED = ['echo', 'create_note', 'search_notes'] as const;
const CALLS_PER_SERVE = 500;

let pg: PgServer;
let box: Sandbox;
let config: string;
let intents: string;
beforeAll(async () => {
  pg = await startPostgres();
  box = await sandbox('team-concurrency');
  config = await box.config('servers.json', { tiny: node(fixture('servers', 'catalog-server.mjs'), TINY) });
  intents = join(box.dir, 'team-intents.jsonl');
  const lines = Array.from({ length: 300 }, (_, i) =>
    JSON.stringify({ intent: `team task ${i % 37} for ${CALLED[i % 3]}`, expected: [`tiny.${CALLED[i % 3]}`] }),
  );
  await writeFile(intents, lines.join('\n') + '\n');
});
afterAll(async () => {
  await pg?.stop();
  await box?.remove();
});

interface Serving {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
  stderr: () => string;
  names: Map<string, string>;
}

async function startServe(url: string): Promise<Serving> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--config', config, 'serve', '--mode', 'tools', '--store', url],
    env: { ...box.env, PGPASSWORD: PG_PASSWORD },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += String(d)));
  const client = new Client({ name: 'team-load', version: '1' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const names = new Map<string, string>();
  for (const t of CALLED) names.set(t, tools.find((x) => x.name.endsWith(t))!.name);
  return { client, transport, pid: transport.pid!, stderr: () => err, names };
}

/** Calls `n` tools round-robin over CALLED; returns how many calls of each tool were answered. */
async function callMany(
  s: Serving,
  n: number,
  stopAt?: { after: number; kill: () => void },
): Promise<Map<string, number>> {
  const done = new Map<string, number>(CALLED.map((t) => [t, 0]));
  for (let i = 0; i < n; i++) {
    if (stopAt && i === stopAt.after) {
      stopAt.kill();
      break;
    }
    const tool = CALLED[i % CALLED.length]!;
    const r = await s.client
      .callTool({
        name: s.names.get(tool)!,
        arguments: tool === 'echo' ? { message: `m${i}` } : {},
      })
      .catch((e: unknown) => {
        throw new Error(`call ${i} failed (${String(e)}); serve wrote:\n${s.stderr()}`, { cause: e });
      });
    expect(r.isError).toBeFalsy();
    done.set(tool, done.get(tool)! + 1);
  }
  return done;
}

/** Resolves once process `pid` is gone. */
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

/** Closes the client; serve ends when its stdin closes, flushing what it learned. */
async function closeServe(s: Serving): Promise<void> {
  const exited = gone(s.pid);
  await s.client.close();
  await exited;
}

/**
 * Closes only serve's stdin and waits for it to exit, however long its last write takes. The SDK's close() sends
 * SIGTERM 2 s after closing stdin (SIGKILL 2 s later): a serve still waiting out a file lock that a killed writer
 * left would be stopped before it writes, and what it learned lost.
 */
async function endGently(s: Serving): Promise<void> {
  (s.transport as unknown as { _process?: ChildProcess })._process?.stdin?.end();
  await gone(s.pid);
  void s.client.close();
}

const runCliProcess = (args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...box.env, PGPASSWORD: PG_PASSWORD },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

/** replay --learn of labelled intents for the same tools serve forwards (undated: learned as of now). */
const replayLearn = (url: string) =>
  runCliProcess(['--config', config, '--json', 'replay', intents, '--learn', '--store', url, '--ttl-days', '0']);

async function toolRows(
  db: string,
): Promise<Map<string, { success: number; failure: number; cats: number; lastUsed: number }>> {
  const rows = await pg.query(
    db,
    `SELECT t.tool_id, t.success, t.failure, t.last_used, COALESCE(sum(c.n), 0) AS cats
       FROM mcp_smart_tools t LEFT JOIN mcp_smart_categories c USING (tool_id) GROUP BY t.tool_id, t.success, t.failure, t.last_used`,
  );
  return new Map(
    rows.map((r) => [
      r.tool_id as string,
      {
        success: Number(r.success),
        failure: Number(r.failure),
        cats: Number(r.cats),
        lastUsed: Number(r.last_used),
      },
    ]),
  );
}

/** Per tool: success and failure counts, the sum of its category counts, and its remembered intents, as `store export` reads them back. */
async function exported(
  store: string,
): Promise<Map<string, { success: number; failure: number; cats: number; intents: number }>> {
  const file = join(box.dir, `export-${Math.random().toString(36).slice(2)}.json`);
  const run = await runCliProcess(['--json', 'store', 'export', file, '--store', store]);
  expect(run.code, run.stderr).toBe(0);
  const doc = JSON.parse(await readFile(file, 'utf8')) as {
    tools: Record<string, { success: number; failure: number; categories?: Record<string, number> }>;
    intents?: Record<string, unknown[]>;
  };
  return new Map(
    Object.entries(doc.tools).map(([id, t]) => [
      id,
      {
        success: t.success,
        failure: t.failure,
        cats: Object.values(t.categories ?? {}).reduce((a, b) => a + b, 0),
        intents: doc.intents?.[id]?.length ?? 0,
      },
    ]),
  );
}

/** A fresh store of each kind: a PostgreSQL database, or a file in the sandbox. */
const STORES = {
  PostgreSQL: (name: string) => pg.createDatabase(name),
  file: (name: string) => Promise.resolve(join(box.dir, `${name}.json`)),
} as const;

describe.each(Object.keys(STORES) as (keyof typeof STORES)[])('one %s store, many writers', (kind) => {
  const fresh = (name: string): Promise<string> => STORES[kind](`${kind === 'file' ? 'f' : 'p'}_${name}`);

  it('4 serve processes and replay --learn at once: every call counted, none lost', async () => {
    // What replay --learn alone writes, to tell its share from serve's.
    const alone = await fresh('alone');
    expect((await replayLearn(alone)).code).toBe(0);
    const replayOnly = await exported(alone);

    const url = await fresh('shared');
    const serves = await Promise.all([1, 2, 3, 4].map(() => startServe(url)));
    const started = performance.now();
    const [counts, replay] = await Promise.all([
      Promise.all(serves.map((s) => callMany(s, CALLS_PER_SERVE))),
      replayLearn(url),
    ]);
    const callsDone = performance.now();
    expect(replay.code).toBe(0);
    await Promise.all(serves.map(closeServe));
    const written = performance.now();
    const rows = await exported(url);
    for (const tool of CALLED) {
      const made = counts.reduce((n, c) => n + c.get(tool)!, 0);
      const learned = replayOnly.get(`tiny.${tool}`)!.success;
      expect(learned, tool).toBe(100);
      // Every forwarded call of the four serve processes plus every case replay learned, none lost.
      expect(rows.get(`tiny.${tool}`)?.success, tool).toBe(made + learned);
      expect(rows.get(`tiny.${tool}`)?.cats, tool).toBe(made + learned);
      expect(rows.get(`tiny.${tool}`)?.intents, tool).toBe(replayOnly.get(`tiny.${tool}`)!.intents);
    }
    expect(counts.reduce((n, c) => n + [...c.values()].reduce((a, b) => a + b, 0), 0)).toBe(4 * CALLS_PER_SERVE);
    for (const s of serves) expect(s.stderr()).not.toMatch(/could not record usage/);
    // How long the writers took (reported, not asserted: the machine is shared): bench/RESULTS.md, "team store".
    console.log(
      `${kind} store: ${4 * CALLS_PER_SERVE} calls + replay in ${((callsDone - started) / 1000).toFixed(1)} s; every serve exited with its learning written ${((written - callsDone) / 1000).toFixed(1)} s later`,
    );
  }, 180_000);

  it('a writer killed with SIGKILL mid-way leaves the store whole: the others fully counted, no half-written batch', async () => {
    const url = await fresh('killed');
    const serves = await Promise.all([1, 2, 3].map(() => startServe(url)));
    const victim = serves[0]!;
    const [killedCounts, ...rest] = await Promise.all([
      callMany(victim, 300, { after: 150, kill: () => process.kill(victim.pid, 'SIGKILL') }),
      callMany(serves[1]!, 300),
      callMany(serves[2]!, 300),
    ]);
    await victim.client.close().catch(() => undefined);
    const callsDone = performance.now();
    await Promise.all(serves.slice(1).map(endGently));
    const waited = performance.now() - callsDone;
    // A file lock the killed process held is broken once stale (15 s); the others wait for it, then write.
    expect(waited).toBeLessThan(kind === 'file' ? 60_000 : 30_000);
    expect(
      serves
        .slice(1)
        .map((s) => s.stderr())
        .join(''),
    ).not.toMatch(/could not be written/);
    const rows = await exported(url);
    for (const tool of CALLED) {
      const others = rest.reduce((n, c) => n + c.get(tool)!, 0);
      const got = rows.get(`tiny.${tool}`)!.success;
      // The killed process's unwritten batch is lost whole; never more than it made, never less than the others.
      expect(got).toBeGreaterThanOrEqual(others);
      expect(got).toBeLessThanOrEqual(others + killedCounts.get(tool)!);
    }
    // Every batch is written whole (one transaction; one atomic file replace): a tool's calls and its category
    // counts always agree.
    for (const [id, r] of rows) expect(r.cats, id).toBe(r.success);
    console.log(
      `${kind} store, a writer SIGKILLed: the others' last writes landed ${(waited / 1000).toFixed(1)} s after their last call`,
    );
  }, 180_000);
});

describe('one file store, a writer killed while it holds the lock', () => {
  it('the others keep answering, wait until the lock is stale (15 s), then write every call', async () => {
    const file = join(box.dir, 'f_locked.json');
    // The worst moment for a SIGKILL: inside the lock. A process takes the store's lock exactly as mcp-smart does
    // (src/process/file-lock.ts: proper-lockfile, `<file>.lock`, stale after 15 s) and is killed holding it.
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { lock } = await import('proper-lockfile'); await lock(${JSON.stringify(file)}, { realpath: false, stale: 15000 }); console.log('locked'); setInterval(() => {}, 1000);`,
      ],
      { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((r) => holder.stdout.once('data', () => r()));
    holder.kill('SIGKILL');
    const serves = await Promise.all([1, 2].map(() => startServe(file)));
    const started = performance.now();
    const counts = await Promise.all(serves.map((s) => callMany(s, 150)));
    const callsDone = performance.now();
    await Promise.all(serves.map(endGently));
    const waited = performance.now() - callsDone;
    const rows = await exported(file);
    for (const tool of CALLED) expect(rows.get(`tiny.${tool}`)?.success, tool).toBe(100);
    expect(counts.reduce((n, c) => n + [...c.values()].reduce((a, b) => a + b, 0), 0)).toBe(300);
    // The client went away (stdin closed) before the lock was stale: the last write waits it out and says nothing
    // of calls not written (a signal would have cut it short at 3 s; learn.ts CLIENT_GONE_FLUSH_MS).
    expect(waited).toBeGreaterThan(3000);
    for (const s of serves) expect(s.stderr()).not.toMatch(/could not be written/);
    console.log(
      `file store, lock left by a killed writer: 300 calls answered in ${((callsDone - started) / 1000).toFixed(1)} s; their learning written ${(waited / 1000).toFixed(1)} s after the last call`,
    );
  }, 180_000);
});

describe('one PostgreSQL store, the database going away', () => {
  it('the database going away does not stop serve: it answers, keeps what it learned, and writes it when back', async () => {
    const url = await pg.createDatabase('flaky');
    const s = await startServe(url);
    await callMany(s, 9);
    await pg.pause();
    const during = await callMany(s, 30);
    expect([...during.values()].reduce((a, b) => a + b, 0)).toBe(30);
    await new Promise((r) => setTimeout(r, 300));
    expect(s.stderr()).toMatch(/could not record usage \(Cannot reach the usage store postgres:\/\/\S+@127\.0\.0\.1/);
    expect(s.stderr()).not.toContain(PG_PASSWORD);
    await pg.start();
    const deadline = Date.now() + 60_000;
    while (!/reachable again/.test(s.stderr()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(s.stderr()).toMatch(/reachable again/);
    await closeServe(s);
    const rows = await toolRows('flaky');
    expect(CALLED.reduce((n, t) => n + (rows.get(`tiny.${t}`)?.success ?? 0), 0)).toBe(39);
  }, 180_000);
});
