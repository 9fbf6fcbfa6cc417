/**
 * A stdio server's process, apart from the MCP spoken over its pipes: started in its own process group (never through
 * a shell) and ended with that whole group. Split from the transport (stdio.ts) so that serve can start the processes
 * it is about to need while its own modules still load, and hand each to its transport later: a Node server takes
 * ~0.4 s to boot, and nothing MCP is said to it before the client has declared what serve must declare to it.
 * No SDK import here, for that reason.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

export interface ProcessExit {
  code: number | null;
  signal: string | null;
}

export interface SpawnParams {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** A started process, listened to from its first moment so that nothing it does before it is adopted is missed. */
export interface ServerProcess {
  readonly child: ChildProcess;
  /** Resolves once the process runs; rejects with what kept it from starting (ENOENT, EACCES). */
  readonly started: Promise<void>;
  /** Resolves with the exit once the process and its pipes have closed. */
  readonly closed: Promise<ProcessExit>;
  /** The error that kept it from starting, once known. */
  spawnError(): NodeJS.ErrnoException | undefined;
  /** The exit, once it has closed. */
  exit(): ProcessExit | undefined;
  /** Errors of the process after it started go to `listener` (errors before that are replayed to it). */
  onError(listener: (error: Error) => void): void;
  /** What the process writes on stdout goes to `listener`, what it wrote before that first. */
  onStdout(listener: (chunk: Buffer) => void): void;
  /** The same for stderr, as text; before a listener, only the last STDERR_KEPT characters are kept. */
  onStderr(listener: (text: string) => void): void;
}

/** The most of a server's stderr kept, before adoption and after (its last lines are what a failure quotes). */
export const STDERR_KEPT = 64 * 1024;

/**
 * What a process gives (its output, its errors) held until someone takes it; past `limit` (measured by `size`) the
 * oldest is dropped. The process's pipes are read from the start: Node discards what nobody reads when the process
 * exits, and a process that failed before adoption must still tell why.
 */
function held<T>(limit?: { max: number; size: (item: T) => number }): {
  push: (item: T) => void;
  take: (fn: (item: T) => void) => void;
} {
  let items: T[] = [];
  let size = 0;
  let reader: ((item: T) => void) | undefined;
  return {
    push: (item) => {
      if (reader) return reader(item);
      items.push(item);
      if (!limit) return;
      size += limit.size(item);
      while (size > limit.max && items.length > 1) size -= limit.size(items.shift()!);
    },
    take: (fn) => {
      reader = fn;
      const before = items;
      items = [];
      for (const item of before) fn(item);
    },
  };
}

/**
 * The variables a server inherits from its parent's environment, the definition's `env` going over them: the names
 * and rule of the MCP SDK's getDefaultEnvironment on POSIX (a test holds them equal), for a caller that starts a
 * server before it has loaded the SDK (serve/prespawn.ts); Windows servers start through the SDK's own transport.
 */
const INHERITED = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

export function inheritedFrom(parent: Record<string, string | undefined>): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const key of INHERITED) {
    const value = parent[key];
    // A shell function exported into the environment is not passed on (as the SDK does).
    if (value !== undefined && !value.startsWith('()')) inherited[key] = value;
  }
  return inherited;
}

/** Starts the server's process in a group of its own with `inherited` and its `env`; its pipes are read from now. */
export function spawnServerProcess(params: SpawnParams, inherited: Record<string, string>): ServerProcess {
  const child = spawn(params.command, params.args, {
    env: { ...inherited, ...(params.env ?? {}) },
    cwd: params.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    shell: false,
    detached: true,
    windowsHide: true,
  });
  let spawnError: NodeJS.ErrnoException | undefined;
  let exit: ProcessExit | undefined;
  const errors = held<Error>();
  const started = new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve());
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (child.pid === undefined) spawnError = error;
      reject(error);
      errors.push(error);
    });
  });
  const out = held<Buffer>();
  const err = held<string>({ max: STDERR_KEPT, size: (text) => text.length });
  child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => err.push(text));
  // Read by whoever adopts the process; a process that never starts is not an unhandled rejection meanwhile.
  started.catch(() => undefined);
  const closed = new Promise<ProcessExit>((resolve) =>
    child.once('close', (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    }),
  );
  return {
    child,
    started,
    closed,
    spawnError: () => spawnError,
    exit: () => exit,
    onError: errors.take,
    onStdout: out.take,
    onStderr: err.take,
  };
}

const STDIN_GRACE_MS = 250;
const SIGTERM_GRACE_MS = 1000;
const SIGKILL_GRACE_MS = 500;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits for `p` at most `ms`, and clears the timer so it cannot hold the CLI open afterwards. */
async function waitAtMost(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

/** Linux: members of process group `pgid` that are not zombies (a container's init may reap them late). */
function liveMembersFromProc(pgid: number): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined; // no procfs (macOS): rely on kill(0) alone
  }
  let live = 0;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // Fields after "(comm)": state ppid pgrp …
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') live++;
  }
  return live;
}

function groupAlive(pid: number): boolean {
  try {
    // Signal 0 to -pid asks whether any member of the process group is still there.
    process.kill(-pid, 0);
  } catch {
    return false;
  }
  return (liveMembersFromProc(pid) ?? 1) > 0;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

async function waitUntil(done: () => boolean, ms: number): Promise<boolean> {
  const step = 10;
  for (let waited = 0; waited < ms; waited += step) {
    if (done()) return true;
    await sleep(step);
  }
  return done();
}

/**
 * Ends the server and everything it started; resolves when they are gone (or were killed): stdin closed → short
 * grace → SIGTERM to the group → SIGKILL to the group. Even after the leader exits, a grandchild (npx → node) may
 * still be in the group.
 */
export async function endProcessTree(proc: ServerProcess): Promise<void> {
  const pid = proc.child.pid;
  if (pid === undefined) return;
  try {
    proc.child.stdin?.end();
  } catch {
    // stdin may already be closed by a crashed server.
  }
  const exited = (): boolean => proc.exit() !== undefined;
  await waitAtMost(proc.closed, STDIN_GRACE_MS);
  if (groupAlive(pid)) {
    signalGroup(pid, 'SIGTERM');
    if (!(await waitUntil(() => exited() && !groupAlive(pid), SIGTERM_GRACE_MS))) {
      signalGroup(pid, 'SIGKILL');
      await waitUntil(() => exited() && !groupAlive(pid), SIGKILL_GRACE_MS);
    }
  }
}

/** Waits for the process's close at most the SIGKILL grace (its pipes may close late). */
export function closedWithin(proc: ServerProcess): Promise<void> {
  return waitAtMost(proc.closed, SIGKILL_GRACE_MS);
}
