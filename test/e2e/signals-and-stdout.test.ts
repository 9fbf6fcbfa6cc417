// One signal path: SIGINT/SIGTERM stop every long phase promptly and leave nothing half-written. Standard output
// that goes away (a reader that closes early) ends the run quietly; one that fails (a full device) is an error.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  mkdtempSync,
  openSync,
  closeSync,
  readdirSync,
  rmSync,
  writeFileSync,
  truncateSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, fixture } from '../helpers/paths.js';
import { snapshotTree } from '../helpers/process-tree.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-signals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = {
  PATH: process.env.PATH,
  HOME: dir,
  NO_COLOR: '1',
  MCP_SMART_CACHE_DIR: join(dir, 'cache'),
  MCP_SMART_DATA_DIR: join(dir, 'data'),
};
const SNAP = fixture('snapshots', 'replay-demo.json');

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  afterSignalMs: number;
}

/**
 * Spawns the CLI, sends `sig` after `when` ms — or, when `when` is a string, once a process whose command line
 * contains it runs in the CLI's tree (the phase the test means has begun, however long a busy machine took to get
 * there) — and reports how it ended and how long it took after the signal.
 */
function runAndSignal(args: string[], sig: NodeJS.Signals, when: number | string): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let sentAt = 0;
    const send = () => {
      sentAt = performance.now();
      child.kill(sig);
    };
    const timer =
      typeof when === 'number'
        ? setTimeout(send, when)
        : setInterval(() => {
            if (
              sentAt ||
              !child.pid ||
              !snapshotTree(child.pid)
                .slice(1)
                .some((p) => p.command.includes(when))
            )
              return;
            clearInterval(timer);
            send();
          }, 50);
    const guard = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearInterval(timer);
      clearTimeout(guard);
      resolve({ code, signal, stderr, afterSignalMs: sentAt ? performance.now() - sentAt : -1 });
    });
  });
}

/** 130 for SIGINT, 143 for SIGTERM: as an exit code, or as the signal itself (a shell reports 128 + n). */
const stoppedBy = (e: Ended, sig: NodeJS.Signals): boolean =>
  e.signal === sig || e.code === (sig === 'SIGINT' ? 130 : 143);

describe('signals and standard output', () => {
  it('SIGTERM during replay --tune on many sessions stops it within a second and writes nothing', async () => {
    const intents = join(dir, 'many.jsonl');
    const lines: string[] = [];
    // Enough cases that tuning runs well past the signal even on a fast idle machine (6,000 took about 4 s here).
    for (let i = 0; i < 30000; i++)
      lines.push(
        JSON.stringify({
          intent: `read the file number ${i} from disk and show it`,
          expected: ['filesystem.read_file'],
        }),
      );
    writeFileSync(intents, lines.join('\n') + '\n');
    const e = await runAndSignal(
      ['--snapshot', SNAP, 'replay', intents, '--tune', '--write', '--learn', '--store', 'usage.json'],
      'SIGTERM',
      3000,
    );
    expect(e.afterSignalMs).toBeGreaterThan(0);
    expect(stoppedBy(e, 'SIGTERM'), `${e.code} ${e.signal} ${e.stderr}`).toBe(true);
    expect(e.afterSignalMs).toBeLessThan(2000);
    expect(existsSync(join(dir, 'mcp-smart.config.json'))).toBe(false);
    expect(existsSync(join(dir, 'usage.json'))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock'))).toEqual([]);
  });

  it('SIGINT while connecting ends with 130 and the message says so', async () => {
    const hang = fixture('servers', 'misbehaving', 'hang.mjs');
    // Sent once the server being connected to runs (the CLI's handlers are in place by then), not after a fixed
    // 1.5 s that a busy machine can spend before the CLI even started: a signal before that ends Node by default.
    const e = await runAndSignal(['--no-cache', 'dump', '-o', 'snap.json', '--stdio', `node ${hang}`], 'SIGINT', hang);
    expect(e.code, e.stderr).toBe(130);
    expect(e.stderr).toContain('Stopped by SIGINT');
    expect(existsSync(join(dir, 'snap.json'))).toBe(false);
  });

  it('--json piped into a reader that closes at once: no stack trace, the exit code unchanged', () => {
    const out = execFileSync(
      'sh',
      [
        '-c',
        `node ${JSON.stringify(BIN)} --snapshot ${JSON.stringify(SNAP)} dump | head -c 10; echo " rc=\${PIPESTATUS:-}"`,
      ],
      {
        cwd: dir,
        env,
        encoding: 'utf8',
      },
    );
    expect(out.startsWith('{')).toBe(true);
    // sh has no PIPESTATUS: check the CLI alone with a closed pipe instead.
    const r = spawnSyncClosedStdout(['--snapshot', SNAP, 'dump']);
    expect(r.stderr).not.toContain('EPIPE');
    expect(r.stderr).not.toContain('at ');
    expect(r.code).toBe(0);
  });

  it("both streams into a reader that closes at once (2>&1 | head): the exit code is the run's", () => {
    // The closed pipe failed stderr's next write with an unhandled error event: exit 1 ("a check failed") after a run
    // that passed. Here the pipes of both streams are closed before anything is written.
    const script = `const { spawn } = require('node:child_process');
const c = spawn(process.execPath, ${JSON.stringify([BIN, '--snapshot', SNAP, 'audit'])}, { stdio: ['ignore', 'pipe', 'pipe'] });
c.stdout.destroy();
c.stderr.destroy();
c.on('close', (code) => { process.stdout.write(String(code)); });`;
    const code = execFileSync(process.execPath, ['-e', script], { cwd: dir, env, encoding: 'utf8' });
    expect(code).toBe('0');
  });

  it('stdout on a full device stand-in is a clear error (exit 2), not a stack trace', () => {
    const full = join(dir, 'full');
    execFileSync('mknod', [full, 'c', '1', '7']);
    const fd = openSync(full, 'w');
    try {
      const r = execFileSyncStatus(['--snapshot', SNAP, 'dump'], fd);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('Cannot write to standard output: no space left on the device');
      expect(r.stderr).not.toContain('    at ');
    } finally {
      closeSync(fd);
    }
  });

  it('a 1 GB session file is not read whole: a warning, and the run goes on', async () => {
    const big = join(dir, 'huge.jsonl');
    writeFileSync(big, JSON.stringify({ intent: 'read a file', expected: ['filesystem.read_file'] }) + '\n');
    truncateSync(big, 1024 * 1024 * 1024); // sparse: takes no disk space
    const r = execFileSyncStatus(['--snapshot', SNAP, 'replay', big, '--json']);
    expect(r.stderr).toContain('is 1024 MB; only its first 64 MB (whole lines) were read');
    expect(r.code === 0 || r.code === 1).toBe(true);
  });
});

function execFileSyncStatus(args: string[], stdoutFd?: number): { code: number; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    env,
    stdio: ['ignore', stdoutFd ?? 'ignore', 'pipe'],
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status ?? -1, stderr: r.stderr };
}

/** The CLI with a stdout pipe whose reader is already gone. */
function spawnSyncClosedStdout(args: string[]): { code: number; stderr: string } {
  const script = `const { spawn } = require('node:child_process');
const c = spawn(process.execPath, ${JSON.stringify([BIN, ...args])}, { stdio: ['ignore', 'pipe', 'pipe'] });
c.stdout.destroy();
let err = '';
c.stderr.on('data', (d) => (err += d));
c.on('close', (code) => { process.stdout.write(JSON.stringify({ code, stderr: err })); });`;
  const out = execFileSync(process.execPath, ['-e', script], { cwd: dir, env, encoding: 'utf8' });
  return JSON.parse(out) as { code: number; stderr: string };
}
