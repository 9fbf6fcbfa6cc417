/**
 * A stdio Transport that owns the whole process tree of the server it starts.
 * The SDK's StdioClientTransport signals only its direct child, so a wrapper such as `npx` could leave the real
 * server behind. Here the server runs in its own process group (detached, never through a shell) and closing
 * ends the group: stdin closed → short grace → SIGTERM to the group → SIGKILL to the group.
 * On Windows (no process groups; `.cmd` shims need cross-spawn) the SDK transport is used and the tree is
 * ended with `taskkill /T /F`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { platform } from 'node:os';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/client';
import type { Transport, JSONRPCMessage } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { readMessage } from '../wire/jsonrpc-message.js';
import { LineReader, messageIdOf, topLevelValueAt } from '../wire/line-reader.js';

export interface StdioParams {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** The largest message read from the server (default MAX_MESSAGE_BYTES); a larger one is dropped, see receive. */
  maxMessageBytes?: number;
}

export interface ProcessExit {
  code: number | null;
  signal: string | null;
}

/** What the session needs from a started stdio server besides the Transport itself. */
export interface StdioHandle {
  transport: Transport;
  pid: () => number | undefined;
  stderr: TailBuffer;
  exit: () => ProcessExit | undefined;
  spawnError: () => NodeJS.ErrnoException | undefined;
  /** Ends the server and everything it started; resolves when they are gone (or were killed). */
  terminate: () => Promise<void>;
}

const STDERR_LIMIT = 64 * 1024;
/** The largest message a server may send: far above any real result, low enough to keep memory bounded. */
export const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
const STDIN_GRACE_MS = 250;
const SENT: Promise<void> = Promise.resolve();
const SIGTERM_GRACE_MS = 1000;
const SIGKILL_GRACE_MS = 500;

/** Keeps the last `limit` characters of a stream, so a chatty server cannot grow our memory. */
export class TailBuffer {
  private text = '';
  constructor(private readonly limit: number = STDERR_LIMIT) {}
  append(chunk: string): void {
    this.text += chunk;
    if (this.text.length > this.limit) this.text = this.text.slice(this.text.length - this.limit);
  }
  toString(): string {
    return this.text;
  }
  lastLine(): string | undefined {
    const lines = this.text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '');
    return lines[lines.length - 1];
  }
}

/** The SDK's default inherited variables (PATH, HOME, …) with the definition's env over them. */
export function childEnvironment(env: Record<string, string> | undefined): Record<string, string> {
  return { ...getDefaultEnvironment(), ...(env ?? {}) };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits for `p` at most `ms`, and clears the timer so it cannot hold the CLI open afterwards. */
async function waitAtMost(p: Promise<void>, ms: number): Promise<void> {
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

class ProcessGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  child?: ChildProcess;
  exit?: ProcessExit;
  spawnError?: NodeJS.ErrnoException;
  readonly stderr = new TailBuffer();
  private readonly reader: LineReader;
  private closed?: Promise<void>;
  private terminating?: Promise<void>;

  constructor(private readonly params: StdioParams) {
    const maxBytes = params.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.reader = new LineReader({
      maxBytes,
      onLine: (line) => this.receive(line),
      onOversize: (line) => this.oversize(line, maxBytes),
    });
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, this.params.args, {
        env: childEnvironment(this.params.env),
        cwd: this.params.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        detached: true,
        windowsHide: true,
      });
      this.child = child;
      this.closed = new Promise((done) => child.once('close', () => done()));
      child.on('error', (error: NodeJS.ErrnoException) => {
        if (child.pid === undefined) this.spawnError = error;
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      child.once('close', (code, signal) => {
        this.exit = { code, signal };
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdin?.setMaxListeners(0); // each write waiting for 'drain' adds one
      child.stdout?.on('data', (chunk: Buffer) => this.reader.push(chunk));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => this.stderr.append(text));
      child.stderr?.on('error', (error) => this.onerror?.(error));
    });
  }

  private receive(line: string): void {
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = readMessage(line, deserializeMessage); // the SDK's parse; zod only where it is needed
    } catch (error) {
      // A line that is not JSON (a banner, logging on stdout) is skipped quietly, as the SDK does; JSON that is
      // not JSON-RPC is skipped with a note for --debug.
      if (error instanceof SyntaxError) return;
      this.stderr.append(
        `[mcp-smart] skipped a stdout line that is not JSON-RPC: ${String((error as Error).message).slice(0, 200)}\n`,
      );
      this.onerror?.(error as Error);
      return;
    }
    this.onmessage?.(message);
  }

  /**
   * A message over the limit is dropped without being kept. When it answers one of our requests (an id, no
   * method), that request gets an error saying so at once instead of waiting for its timeout; the server keeps
   * running, and the note stays in its stderr for the failure text.
   */
  private oversize(line: { head: string; tail: string; bytes: number }, maxBytes: number): void {
    const mb = (n: number): string => `${Math.round(n / 1024 / 1024)} MB`;
    const text = `the server sent a message of ${mb(line.bytes)}, over the ${mb(maxBytes)} limit for one message; it was dropped`;
    this.stderr.append(`[mcp-smart] ${text}\n`);
    const id = messageIdOf(line.head, line.tail);
    // A request has a top-level method; a result may hold "method" keys of its own (a schema, a log entry).
    const isRequest =
      topLevelValueAt(line.head, 'method') !== -1 || /"method"\s*:\s*"[^"]*"\s*[,}]\s*$/.test(line.tail);
    if (id !== undefined && !isRequest)
      this.onmessage?.({ jsonrpc: '2.0', id, error: { code: -32603, message: text } });
    else this.onerror?.(new Error(text));
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || this.exit) return Promise.reject(new Error('Not connected'));
    try {
      // A write the pipe takes at once (nearly all) answers with one shared promise, not a new one per message.
      if (stdin.write(serializeMessage(message))) return SENT;
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- rejects with what was thrown, as the executor did
      return Promise.reject(error);
    }
    return new Promise((resolve) => stdin.once('drain', () => resolve()));
  }

  close(): Promise<void> {
    return this.terminate();
  }

  terminate(): Promise<void> {
    this.terminating ??= this.endTree();
    return this.terminating;
  }

  private async endTree(): Promise<void> {
    const child = this.child;
    const pid = child?.pid;
    if (!child || pid === undefined) return;
    try {
      child.stdin?.end();
    } catch {
      // stdin may already be closed by a crashed server.
    }
    const exited = (): boolean => this.exit !== undefined;
    if (this.closed) await waitAtMost(this.closed, STDIN_GRACE_MS);
    // Even after the leader exits, a grandchild (npx → node) may still be in the group.
    if (groupAlive(pid)) {
      signalGroup(pid, 'SIGTERM');
      if (!(await waitUntil(() => exited() && !groupAlive(pid), SIGTERM_GRACE_MS))) {
        signalGroup(pid, 'SIGKILL');
        await waitUntil(() => exited() && !groupAlive(pid), SIGKILL_GRACE_MS);
      }
    }
    this.reader.clear();
    if (this.closed) await waitAtMost(this.closed, SIGKILL_GRACE_MS);
  }
}

/** Windows: the SDK transport (cross-spawn resolves `.cmd` shims), with `taskkill /T` for the tree. */
function windowsHandle(params: StdioParams): StdioHandle {
  const transport = new StdioClientTransport({
    command: params.command,
    args: params.args,
    env: childEnvironment(params.env),
    cwd: params.cwd,
    stderr: 'pipe',
  });
  const stderr = new TailBuffer();
  transport.stderr?.on('data', (t: Buffer | string) => stderr.append(String(t)));
  let spawnError: NodeJS.ErrnoException | undefined;
  let pid: number | undefined;
  const start = transport.start.bind(transport);
  transport.start = async () => {
    try {
      await start();
      pid = transport.pid ?? undefined;
    } catch (e) {
      spawnError = e as NodeJS.ErrnoException;
      throw e;
    }
  };
  const terminate = async (): Promise<void> => {
    if (pid !== undefined) {
      const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
      await new Promise<void>((r) => {
        killer.once('close', () => r());
        killer.once('error', () => r());
      });
    }
    await transport.close();
  };
  return { transport, pid: () => pid, stderr, exit: () => undefined, spawnError: () => spawnError, terminate };
}

/** Prepares (does not start) a stdio server; `transport.start()` spawns it. */
export function createStdioHandle(params: StdioParams): StdioHandle {
  if (platform() === 'win32') return windowsHandle(params);
  const t = new ProcessGroupTransport(params);
  return {
    transport: t,
    pid: () => t.child?.pid,
    stderr: t.stderr,
    exit: () => t.exit,
    spawnError: () => t.spawnError,
    terminate: () => t.terminate(),
  };
}
