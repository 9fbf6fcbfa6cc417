// Input files that never end or are huge: `--config /dev/zero` read until V8 failed ("Invalid string length", 5 s
// and 600 MB later), `--snapshot /dev/zero` never ended, and a pipe nobody writes, found as .cursor/mcp.json, hung
// every command run in that project. Each read now stops at a limit for its kind of file, exit 2 naming the file and
// what it was read as; a pipe someone writes a small config into still works.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { sandboxEnv, spawnCli } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const CHECK_BASE = fixture('snapshots', 'check-base.json');
const CONFIG = JSON.stringify({ mcpServers: { piped: { command: 'node', args: ['server.js'] } } });

let dir: string;
/** The project folder the CLI runs in (HOME is `dir`: run in the home folder, a project file is the user's own). */
let project: string;
let writers: ChildProcess[] = [];
const cli = (args: string[], timeoutMs = 60_000) =>
  spawnCli(['--json', ...args], { cwd: project, env: sandboxEnv(dir), timeoutMs });
const jsonError = (stdout: string): { code: string; message: string } =>
  (JSON.parse(stdout) as { error: { code: string; message: string } }).error;
/** A process that writes `text` into the pipe at `file` after `delay` seconds (its open waits for a reader). */
const writeInto = (file: string, text: string, delay = 0): void => {
  const child = spawn('/bin/sh', ['-c', `sleep ${delay}; printf '%s' "$0" > "$1"`, text, file], { stdio: 'ignore' });
  writers.push(child);
};

beforeEach(() => {
  dir = tempDir('mcp-smart-endless-');
  project = join(dir, 'project');
  mkdirSync(project);
});
afterEach(async () => {
  for (const w of writers) if (w.exitCode === null) w.kill('SIGKILL');
  writers = [];
  await rm(dir, { recursive: true, force: true });
});

describe('a file that never ends stops at its kind of limit: exit 2 naming the file and what it is read as', () => {
  it('--config, check --baseline and check --queries of /dev/zero', async () => {
    for (const [args, what] of [
      [['--config', '/dev/zero', 'servers'], 'a config file'],
      [['--snapshot', CHECK_BASE, 'check', '--baseline', '/dev/zero'], 'a baseline'],
      [['--snapshot', CHECK_BASE, 'check', '--update', '--queries', '/dev/zero'], 'labelled intents'],
    ] as const) {
      const r = await cli([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(jsonError(r.stdout)).toMatchObject({ code: 'FILE_UNREADABLE' });
      expect(jsonError(r.stdout).message).toContain(`Cannot read /dev/zero: it is not a regular file`);
      expect(jsonError(r.stdout).message).toContain(`more than ${what} can be`);
    }
  }, 120_000);

  it('--snapshot /dev/zero ends (it never did)', async () => {
    const r = await cli(['--snapshot', '/dev/zero', 'audit']);
    expect(r.code).toBe(2);
    expect(jsonError(r.stdout)).toMatchObject({ code: 'FILE_UNREADABLE' });
    expect(jsonError(r.stdout).message).toContain('more than a snapshot can be');
  }, 90_000);

  it('/dev/zero linked as a project’s .cursor/mcp.json, found by discovery', async () => {
    mkdirSync(join(project, '.cursor'));
    symlinkSync('/dev/zero', join(project, '.cursor', 'mcp.json'));
    const r = await cli(['servers']);
    expect(r.code).toBe(2);
    expect(jsonError(r.stdout)).toMatchObject({ code: 'FILE_UNREADABLE' });
    expect(jsonError(r.stdout).message).toContain(join(project, '.cursor', 'mcp.json'));
    expect(jsonError(r.stdout).message).toContain('more than a config file can be');
  }, 60_000);

  it('a regular file over the limit is refused from its size, before it is read', async () => {
    // Sparse: no disk used, and a read of it would take seconds; the refusal comes from fstat.
    writeFileSync(join(project, '.mcp.json'), '');
    truncateSync(join(project, '.mcp.json'), 300 * 1024 * 1024);
    writeFileSync(join(project, 'big.snapshot.json'), '');
    truncateSync(join(project, 'big.snapshot.json'), 1100 * 1024 * 1024);
    for (const [args, file, what] of [
      [['servers'], join(project, '.mcp.json'), 'a config file'],
      [['--snapshot', 'big.snapshot.json', 'audit'], 'big.snapshot.json', 'a snapshot'],
    ] as const) {
      const started = Date.now();
      const r = await cli([...args]);
      expect(r.code, file).toBe(2);
      expect(jsonError(r.stdout)).toMatchObject({ code: 'FILE_UNREADABLE' });
      expect(jsonError(r.stdout).message).toContain(`Cannot read ${file}: it is larger than`);
      expect(jsonError(r.stdout).message).toContain(`more than ${what} can be`);
      expect(Date.now() - started).toBeLessThan(10_000);
    }
  }, 60_000);
});

describe('pipes', () => {
  it('a pipe nobody writes, found as .cursor/mcp.json, is exit 2 after a wait instead of a hang', async () => {
    mkdirSync(join(project, '.cursor'));
    execFileSync('mkfifo', [join(project, '.cursor', 'mcp.json')]);
    const r = await cli(['servers'], 30_000);
    expect(r.code).toBe(2);
    expect(jsonError(r.stdout)).toMatchObject({ code: 'FILE_UNREADABLE' });
    expect(jsonError(r.stdout).message).toContain('a pipe nobody wrote into');
  }, 40_000);

  it('a pipe someone writes a small config into is read, discovered or given, the writer early or late', async () => {
    mkdirSync(join(project, '.cursor'));
    const found = join(project, '.cursor', 'mcp.json');
    const given = join(project, 'given.json');
    execFileSync('mkfifo', [found]);
    execFileSync('mkfifo', [given]);
    const names = (stdout: string): string[] =>
      (JSON.parse(stdout) as { servers: { name: string }[] }).servers.map((s) => s.name);
    for (const [delay, args, fifo] of [
      [0, ['servers'], found],
      [1, ['servers'], found],
      [0, ['--config', given, 'servers'], given],
      [1, ['--config', given, 'servers'], given],
    ] as const) {
      writeInto(fifo, CONFIG, delay);
      const r = await cli([...args], 30_000);
      expect(r.code, `${args.join(' ')} after ${delay} s`).toBe(0);
      expect(names(r.stdout)).toEqual(['piped']);
    }
  }, 60_000);
});
