// HAProxy (Debian's package, /usr/sbin/haproxy) in front of serve replicas: a running haproxy for a test with the
// docs/team.md's config (haproxy-config.mjs), on loopback, in the foreground (-db), stopped by the test.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { haproxyConfig } from './haproxy-config.mjs';
import { freePort } from './free-port.mjs';

export { haproxyConfig } from './haproxy-config.mjs';

export const HAPROXY = '/usr/sbin/haproxy';

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
