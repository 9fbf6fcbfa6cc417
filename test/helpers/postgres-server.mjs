// A real PostgreSQL server in a folder of the caller's (tests: their temporary folder; benches: theirs): Debian's
// `postgresql` binaries (initdb + postgres), loopback on an ephemeral port, password authentication (scram) so
// credentials really matter. Root cannot run postgres: then it runs as the `postgres` user through setpriv (which
// execs, so the pid held is the server's). stop() ends it (fast shutdown, then SIGKILL) and removes the folder.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.mjs';

export const PG_USER = 'mcp';
export const PG_PASSWORD = 'team-secret-pw';

/** The binaries folder of the newest installed PostgreSQL, or undefined. */
export function postgresBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

const isRoot = () => process.getuid?.() === 0;

function pgUserIds() {
  const u = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (u.status !== 0 || g.status !== 0)
    throw new Error('running as root needs the postgres user (apt-get install postgresql)');
  return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
}

/** argv that runs `cmd` as the postgres user when we are root, else as ourselves. */
const asPgUser = (cmd, args) =>
  isRoot() ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', cmd, ...args]] : [cmd, args];

/** Root's temporary folders are 0700: the postgres user must be able to pass through the ones we made. */
function openPathFor(dir, uid) {
  for (let d = dirname(dir); d !== '/' && d !== '.'; d = dirname(d)) {
    const st = statSync(d);
    if (st.uid === uid) continue;
    if ((st.mode & 0o001) === 0 && /mcp-smart-/.test(d)) chmodSync(d, st.mode | 0o001);
  }
}

/** Starts a server whose data lives in `dir` (an empty folder the caller made). */
export async function startPostgresIn(dir) {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install -y postgresql (see .ci/run)');
  const data = join(dir, 'data');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${PG_PASSWORD}\n`);
  if (isRoot()) {
    const { uid, gid } = pgUserIds();
    openPathFor(dir, uid);
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  const init = spawnSync(
    ...asPgUser(join(bin, 'initdb'), [
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
    ]),
    { encoding: 'utf8', timeout: 60_000 },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  const port = await freePort();
  let child;
  let log = '';
  const url = (db = 'postgres') => `postgres://${PG_USER}@127.0.0.1:${port}/${db}`;
  const connect = async (db) => {
    // The password goes in the URL: pg lets a connection string's missing password override the `password` option.
    const c = new pg.Client({
      connectionString: url(db).replace(`//${PG_USER}@`, `//${PG_USER}:${PG_PASSWORD}@`),
      connectionTimeoutMillis: 3000,
    });
    c.on('error', () => undefined);
    await c.connect();
    return c;
  };
  const start = async () => {
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
    child.stderr.on('data', (b) => (log = (log + b.toString()).slice(-4000)));
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        await (await connect('postgres')).end();
        return;
      } catch (e) {
        if (child.exitCode !== null || Date.now() > deadline)
          throw new Error(`postgres did not start: ${String(e)}\n${log}`, { cause: e });
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const pause = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', () => r()));
    c.kill('SIGINT');
    const timer = setTimeout(() => c.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const withClient = async (db, fn) => {
    const c = await connect(db);
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  };
  await start();
  return {
    port,
    url,
    createDatabase: async (name) => {
      await withClient('postgres', (c) => c.query(`CREATE DATABASE "${name}"`));
      return url(name);
    },
    query: (db, sql) => withClient(db, async (c) => (await c.query(sql)).rows),
    pause,
    start,
    stop: async () => {
      await pause();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
