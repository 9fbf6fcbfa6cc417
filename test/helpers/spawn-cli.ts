// Spawning the built CLI (bin/mcp-smart.js → dist) for e2e tests, and checking that processes are gone.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN } from './paths.js';

export interface SpawnRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface SpawnCliOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** The whole process group is killed after this long. */
  timeoutMs: number;
  onSpawn?: (child: ChildProcess) => void;
}

/** Gemini CLI's machine-wide settings looked for inside the test's HOME stand-in, never under /etc/gemini-cli. */
function geminiSystemStandIns(opts: SpawnCliOptions): Record<string, string> {
  const base = join(opts.env.HOME ?? opts.cwd, '.mcp-smart-no-gemini-system');
  return {
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(base, 'settings.json'),
    GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(base, 'system-defaults.json'),
  };
}

/** Runs `node bin/mcp-smart.js ...args` in its own process group; SIGKILLs the group on timeout. */
export function spawnCli(args: string[], opts: SpawnCliOptions): Promise<SpawnRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd,
      // Project configs of tests live in temporary folders and count as approved (MCP_SMART_TRUST_PROJECT) unless a
      // test sets it to '' to prove the project gate.
      env: { ...geminiSystemStandIns(opts), MCP_SMART_TRUST_PROJECT: '1', ...opts.env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, opts.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
    opts.onSpawn?.(child);
  });
}

/** Gone, or a zombie nobody has reaped yet (this container's init reaps late). */
/**
 * The environment of a CLI run sandboxed in `dir`: its own HOME, config and cache folders, no colour, and no
 * GitHub job summary, so nothing reaches the user's files.
 */
export function sandboxEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NO_COLOR: '1',
    HOME: dir,
    USERPROFILE: dir,
    XDG_CACHE_HOME: join(dir, '.cache'),
    XDG_CONFIG_HOME: join(dir, '.config'),
    GITHUB_STEP_SUMMARY: '',
    MCP_SMART_TRUST_PROJECT: '1',
    ...extra,
  };
}

export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') === true;
  } catch {
    return true;
  }
}

/**
 * Starts `node <script> ...args` (a fixture server in HTTP mode that prints "listening <url>") and resolves its URL.
 * The child is pushed onto `children` so the caller can kill it in afterAll. `timeoutMs` is only a safety net for a
 * file that dies before its afterAll: a fixture must outlive every test of its file, and on 2 busy CPUs with other
 * files beside it a file's tests have run past 60 s.
 */
export function startHttpFixture(
  script: string,
  args: string[],
  children: ChildProcess[],
  timeoutMs = 600_000,
): Promise<string> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'ignore'], timeout: timeoutMs });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += String(d);
      const m = /listening (\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`fixture http server ${script} exited with ${code}`)));
  });
}
