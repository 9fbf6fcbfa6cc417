// A real PostgreSQL server for a test file: Debian's `postgresql` binaries (initdb + postgres), a data folder in the
// test's temporary folder, loopback on an ephemeral port, password authentication (scram) so credentials really
// matter. Root cannot run postgres: then the server runs as the `postgres` user through setpriv (which execs, so
// the pid we hold is the server's). stop() ends it (fast shutdown, then SIGKILL) and removes the folder.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { tempDir } from './temp.js';

export const PG_USER = 'mcp';
export const PG_PASSWORD = 'team-secret-pw';

export interface PgServer {
  port: number;
  /** postgres://mcp@127.0.0.1:<port>/<db> — no password in it; pass PG_PASSWORD through PGPASSWORD. */
  url(db?: string): string;
  /** Creates a fresh database and returns its URL (without password). */
  createDatabase(name: string): Promise<string>;
  /** Runs SQL in a database (psql-free: through the pg client). */
  query(db: string, sql: string): Promise<Record<string, unknown>[]>;
  /** Stops the server (kept data), for "the database is down" tests; start() brings it back on the same port. */
  pause(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The binaries folder of the newest installed PostgreSQL, or undefined. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

const isRoot = (): boolean => process.getuid?.() === 0;

function pgUserIds(): { uid: number; gid: number } {
  const r = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (r.status !== 0 || g.status !== 0)
    throw new Error('running as root needs the postgres user (apt-get install postgresql)');
  return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
}

/** argv that runs `cmd` as the postgres user when we are root, else as ourselves. */
function asPgUser(cmd: string, args: string[]): [string, string[]] {
  if (!isRoot()) return [cmd, args];
  return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', cmd, ...args]];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Root's temporary folders are 0700: the postgres user must be able to pass through the ones we made. */
function openPathFor(dir: string, uid: number): void {
  for (let d = dirname(dir); d !== '/' && d !== '.'; d = dirname(d)) {
    const st = statSync(d);
    if (st.uid === uid) continue;
    if ((st.mode & 0o001) === 0 && /mcp-smart-/.test(d)) chmodSync(d, st.mode | 0o001);
  }
}

export async function startPostgres(): Promise<PgServer> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install -y postgresql (see .ci/run)');
  const dir = tempDir('mcp-smart-pg-');
  const data = join(dir, 'data');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${PG_PASSWORD}\n`);
  if (isRoot()) {
    const { uid, gid } = pgUserIds();
    openPathFor(dir, uid);
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  const [icmd, iargs] = asPgUser(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    PG_USER,
    '--auth=scram-sha-256',
    `--pwfile=${pwfile}`,
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  const init = spawnSync(icmd, iargs, { encoding: 'utf8', timeout: 60_000 });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  const port = await freePort();
  let child: ChildProcess | undefined;
  let log = '';
  const { Client } = (await import('pg')).default;
  const url = (db = 'postgres'): string => `postgres://${PG_USER}@127.0.0.1:${port}/${db}`;
  const connect = async (db: string): Promise<InstanceType<typeof Client>> => {
    // The password goes in the URL: pg lets a connection string's missing password override the `password` option.
    const withPw = url(db).replace(`//${PG_USER}@`, `//${PG_USER}:${PG_PASSWORD}@`);
    const c = new Client({ connectionString: withPw, connectionTimeoutMillis: 3000 });
    await c.connect();
    return c;
  };

  const start = async (): Promise<void> => {
    const [cmd, args] = asPgUser(join(bin, 'postgres'), [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=off',
      '-c',
      'max_connections=60',
    ]);
    child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.on('data', (b: Buffer) => (log = (log + b.toString()).slice(-4000)));
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        const c = await connect('postgres');
        await c.end();
        return;
      } catch (e) {
        if (child.exitCode !== null || Date.now() > deadline)
          throw new Error(`postgres did not start: ${String(e)}\n${log}`, { cause: e });
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const pause = async (): Promise<void> => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise<void>((r) => c.once('exit', () => r()));
    c.kill('SIGINT');
    const timer = setTimeout(() => c.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  await start();
  return {
    port,
    url,
    async createDatabase(name) {
      const c = await connect('postgres');
      try {
        await c.query(`CREATE DATABASE "${name}"`);
      } finally {
        await c.end();
      }
      return url(name);
    },
    async query(db, sql) {
      const c = await connect(db);
      try {
        return (await c.query(sql)).rows as Record<string, unknown>[];
      } finally {
        await c.end();
      }
    },
    pause,
    start,
    async stop() {
      await pause();
      // tempDir's cleanup removes the folder after the file; remove it now so a long file frees the space at once.
      spawnSync('rm', ['-rf', dir]);
    },
  };
}
