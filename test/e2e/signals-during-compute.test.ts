// SIGINT/SIGTERM during each long computation phase (counting a large catalogue, condensing, the check gate,
// planning a budget, ranking many intents, replaying, tuning) end the real CLI process with 130/143 and the
// INTERRUPTED/TERMINATED message, promptly, with nothing written. The signal is sent once the phase has begun:
// the test waits for the phase's --debug line instead of sleeping a fixed time.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture } from '../helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-signals-compute-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = {
  PATH: process.env.PATH,
  HOME: dir,
  NO_COLOR: '1',
  MCP_SMART_CACHE_DIR: join(dir, 'cache'),
  MCP_SMART_DATA_DIR: join(dir, 'data'),
};
const REPLAY_SNAP = fixture('snapshots', 'replay-demo.json');
const CATALOGUE = join(dir, 'catalogue.json');

/** 111 servers of 100 tools, every description different (nothing cached), seeded so runs are identical. */
function writeCatalogue(): void {
  const words = (
    'read write file list search query update delete create repository issue branch commit database table row ' +
    'column index user group role permission message channel thread email calendar event weather forecast city map'
  ).split(' ');
  let seed = 7;
  const pick = (): string => words[(seed = (seed * 1103515245 + 12345) % 2147483648) % words.length]!;
  const sentence = (n: number): string => Array.from({ length: n }, pick).join(' ');
  const servers = Array.from({ length: 111 }, (_, s) => ({
    name: `srv${s}`,
    transport: 'stdio',
    status: 'ok',
    tools: Array.from({ length: 100 }, (_, t) => ({
      name: `${pick()}_${pick()}_${t}`,
      description: `${sentence(60)} variant ${s}-${t}.`,
      inputSchema: {
        type: 'object',
        properties: { [pick()]: { type: 'string', description: sentence(12) }, id: { type: 'number' } },
      },
    })),
  }));
  writeFileSync(CATALOGUE, JSON.stringify({ format: 'mcp-smart/snapshot@1', createdAt: 'x', servers }));
}

function writeIntents(file: string, n: number, expected: string): void {
  const lines = Array.from({ length: n }, (_, i) =>
    JSON.stringify({ intent: `read the file number ${i} from disk and show it`, expected: [expected] }),
  );
  writeFileSync(join(dir, file), lines.join('\n') + '\n');
}

beforeAll(() => {
  if (!existsSync(join(BIN, '..', '..', 'dist', 'cli.js'))) throw new Error('run npm run build first');
  writeCatalogue();
  writeIntents('many.jsonl', 30_000, 'filesystem.read_file');
  writeIntents('tune.jsonl', 3_000, 'filesystem.read_file');
  writeIntents('queries.jsonl', 3_000, 'srv1.read_file_1');
});

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** -1 when the process ended before the marker appeared. */
  afterSignalMs: number;
}

/** Runs the CLI with --debug, sends `sig` as soon as `marker` shows on stderr, and reports how it ended. */
function signalAtMarker(args: string[], marker: string, sig: NodeJS.Signals): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, '--debug', ...args], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let sentAt = 0;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!sentAt && stderr.includes(marker)) {
        sentAt = performance.now();
        child.kill(sig);
      }
    });
    const guard = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout, stderr, afterSignalMs: sentAt ? performance.now() - sentAt : -1 });
    });
  });
}

const MESSAGE = {
  SIGINT: 'Stopped by SIGINT (Ctrl-C); nothing half-done was written.',
  SIGTERM: 'Stopped by SIGTERM; nothing half-done was written.',
};

/** Exit 130/143 (an exit code, not death by the signal), the catalog message, soon after the signal, no output. */
function expectStopped(e: Ended, sig: 'SIGINT' | 'SIGTERM'): void {
  const why = `code ${e.code} signal ${e.signal} after ${Math.round(e.afterSignalMs)} ms\n${e.stderr.slice(-2000)}`;
  expect(e.afterSignalMs, why).toBeGreaterThan(0);
  expect(e.code, why).toBe(sig === 'SIGINT' ? 130 : 143);
  expect(e.stderr).toContain(`mcp-smart: ${MESSAGE[sig]}`);
  // Well before the phase could have finished (each runs for seconds past its marker here) and before the 5 s
  // grace: the phase itself noticed the signal at its next pause.
  expect(e.afterSignalMs, why).toBeLessThan(3000);
  expect(e.stdout).toBe('');
}

const leftovers = (): string[] => readdirSync(dir).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock'));

describe('a signal during a long computation phase', () => {
  it('audit counting 11,100 tools at every condense level: SIGTERM → 143', async () => {
    const e = await signalAtMarker(
      ['--snapshot', CATALOGUE, 'audit', '--html', 'report.html'],
      'debug: counting 11,100 tools',
      'SIGTERM',
    );
    expectStopped(e, 'SIGTERM');
    expect(existsSync(join(dir, 'report.html'))).toBe(false);
  });

  it('condense -o of 11,100 tools: SIGINT → 130, no output file', async () => {
    const e = await signalAtMarker(
      ['--snapshot', CATALOGUE, 'condense', '--level', 'compact', '-o', 'condensed.json'],
      'debug: condensing and counting 11,100 tools',
      'SIGINT',
    );
    expectStopped(e, 'SIGINT');
    expect(existsSync(join(dir, 'condensed.json'))).toBe(false);
  });

  it('check --update counting 11,100 tools: SIGTERM → 143, no baseline', async () => {
    const e = await signalAtMarker(
      ['--snapshot', CATALOGUE, 'check', '--update', '--baseline', 'lock.json'],
      'debug: counting 11,100 tools',
      'SIGTERM',
    );
    expectStopped(e, 'SIGTERM');
    expect(existsSync(join(dir, 'lock.json'))).toBe(false);
  });

  it('budget planning over 11,100 tools: SIGINT → 130, no applied definitions', async () => {
    const e = await signalAtMarker(
      ['--snapshot', CATALOGUE, 'budget', '--max', '1000', '--apply', '-o', 'planned.json'],
      'debug: planning',
      'SIGINT',
    );
    expectStopped(e, 'SIGINT');
    expect(existsSync(join(dir, 'planned.json'))).toBe(false);
  });

  it('discover --queries ranking 3,000 intents over 111 servers: SIGTERM → 143', async () => {
    const e = await signalAtMarker(
      ['--snapshot', CATALOGUE, 'discover', '--queries', 'queries.jsonl'],
      'debug: ranking 3,000 labelled intents',
      'SIGTERM',
    );
    expectStopped(e, 'SIGTERM');
  });

  it('replay of 30,000 cases: SIGINT → 130, no usage store', async () => {
    const e = await signalAtMarker(
      ['--snapshot', REPLAY_SNAP, 'replay', 'many.jsonl', '--learn', '--store', 'usage.json'],
      'debug: replaying 30,000 cases',
      'SIGINT',
    );
    expectStopped(e, 'SIGINT');
    expect(existsSync(join(dir, 'usage.json'))).toBe(false);
  });

  it('replay --tune --write --learn while tuning: SIGTERM → 143, neither the config nor the store written', async () => {
    const e = await signalAtMarker(
      ['--snapshot', REPLAY_SNAP, 'replay', 'tune.jsonl', '--tune', '--write', '--learn', '--store', 'usage.json'],
      'debug: tuning weights on 3,000 cases',
      'SIGTERM',
    );
    expectStopped(e, 'SIGTERM');
    expect(existsSync(join(dir, 'mcp-smart.config.json'))).toBe(false);
    expect(existsSync(join(dir, 'usage.json'))).toBe(false);
    expect(leftovers()).toEqual([]);
  });
});

describe('a signal while a phase holds the event loop to its end', () => {
  it('is handled when the phase ends, not dropped with the handlers (the run stops with 143)', async () => {
    // A phase with no pause inside: 600 ms of synchronous work under whileHandlingSignals, the signal sent during
    // it. Its handler can only run after the work; unsubscribing first would drop the queued signal.
    const script = `
      import { installSignalPath, whileHandlingSignals, stoppedBy } from ${JSON.stringify(join(BIN, '..', '..', 'dist', 'process', 'signals.js'))};
      installSignalPath(process, new AbortController());
      await whileHandlingSignals(async () => {
        process.stderr.write('busy\\n');
        const end = performance.now() + 600;
        while (performance.now() < end);
      });
      process.stdout.write(String(stoppedBy()));
    `;
    const r = await new Promise<{ out: string; code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => d.toString().includes('busy') && child.kill('SIGTERM'));
      child.on('close', (code, signal) => resolve({ out, code, signal }));
    });
    expect(r.signal).toBeNull();
    expect(r.out).toBe('SIGTERM');
  });
});
