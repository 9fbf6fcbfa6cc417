// HAProxy (Debian's package, /usr/sbin/haproxy) in front of serve replicas: the config the README shows under
// "Team gateway: several replicas" (test/e2e/serve-replicas.test.ts checks that the README shows exactly this), and a
// running haproxy for a test, on loopback, in the foreground (-db), stopped by the test.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';

export const HAPROXY = '/usr/sbin/haproxy';

/** The config for a frontend `listen` (host:port) balancing `replicas` (host:port each, as serve prints them). */
export function haproxyConfig(listen: string, replicas: readonly string[]): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 3s',
    '  # a call may wait for its server up to serve --call-timeout (default 120 s)',
    '  timeout client 130s',
    '  timeout server 130s',
    'frontend mcp',
    `  bind ${listen}`,
    '  default_backend serve',
    'backend serve',
    '  # 2026-07-28 requests: any replica (input_required state is sealed and names the replica holding the call)',
    '  balance roundrobin',
    '  option redispatch',
    '  retries 2',
    '  # 2025 clients: a session lives in one replica; stick on Mcp-Session-Id, learned from the initialize answer',
    '  stick-table type string len 64 size 100k expire 30m',
    '  stick on req.hdr(mcp-session-id)',
    '  stick store-response res.hdr(mcp-session-id)',
    '  # a replica bound to loopback answers only requests whose Host names it: each is sent its own name',
    '  http-send-name-header Host',
    ...replicas.map((r) => `  server ${r} ${r} check inter 500 fall 2 rise 2`),
    '',
  ].join('\n');
}

/** A free loopback port (bound and released: haproxy binds it next). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface RunningHaproxy {
  url: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/** Starts haproxy in `dir` in front of `replicas`; resolves once its port accepts connections. */
export async function startHaproxy(dir: string, replicas: readonly string[]): Promise<RunningHaproxy> {
  const port = await freePort();
  const file = join(dir, 'haproxy.cfg');
  await writeFile(file, haproxyConfig(`127.0.0.1:${port}`, replicas));
  const child = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += String(d)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const until = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited ${child.exitCode}: ${err}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1', () => resolve(true));
      s.once('error', () => resolve(false));
      s.once('connect', () => s.destroy());
    });
    if (up) break;
    if (Date.now() > until) throw new Error(`haproxy never listened on ${port}: ${err}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
