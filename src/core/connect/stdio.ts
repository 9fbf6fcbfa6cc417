/**
 * A stdio Transport that owns the whole process tree of the server it starts.
 * The SDK's StdioClientTransport signals only its direct child, so a wrapper such as `npx` could leave the real
 * server behind. Here the server runs in its own process group (detached, never through a shell) and closing
 * ends the group: stdin closed → short grace → SIGTERM to the group → SIGKILL to the group.
 * On Windows (no process groups; `.cmd` shims need cross-spawn) the SDK transport is used and the tree is
 * ended with `taskkill /T /F`.
 */
import { spawn } from 'node:child_process';
import { platform } from 'node:os';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/client';
import type { Transport, JSONRPCMessage } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { readMessage } from '../wire/jsonrpc-message.js';
import { refusedAnswer } from '../wire/refused-answer.js';
import type { AnswerTaker, TakesAnswers } from './direct-calls.js';
import { LineReader, messageIdOf, topLevelValueAt } from '../wire/line-reader.js';
import {
  closedWithin,
  STDERR_KEPT,
  endProcessTree,
  spawnServerProcess,
  type ProcessExit,
  type ServerProcess,
} from './server-process.js';

export interface StdioParams {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** The largest message read from the server (default MAX_MESSAGE_BYTES); a larger one is dropped, see receive. */
  maxMessageBytes?: number;
  /** A process already started for these params (serve/prespawn.ts): adopted instead of starting another. */
  prespawned?: ServerProcess;
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

/** The largest message a server may send: far above any real result, low enough to keep memory bounded. */
export const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
const SENT: Promise<void> = Promise.resolve();

/** Keeps the last `limit` characters of a stream, so a chatty server cannot grow our memory. */
export class TailBuffer {
  private text = '';
  constructor(private readonly limit: number = STDERR_KEPT) {}
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

class ProcessGroupTransport implements TakesAnswers {
  onclose?: () => void;
  /** Takes the answers to the calls sent beside the SDK's Client (direct-calls.ts) before `onmessage`. */
  taker: AnswerTaker | undefined = undefined;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  proc?: ServerProcess;
  readonly stderr = new TailBuffer();
  private readonly reader: LineReader;
  private terminating?: Promise<void>;

  constructor(private readonly params: StdioParams) {
    const maxBytes = params.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.reader = new LineReader({
      maxBytes,
      onLine: (line) => this.receive(line),
      onOversize: (line) => this.oversize(line, maxBytes),
    });
  }

  get exit(): ProcessExit | undefined {
    return this.proc?.exit();
  }

  start(): Promise<void> {
    // A process serve started ahead (serve/prespawn.ts): what it wrote before now is handed over first.
    const proc = this.params.prespawned ?? spawnServerProcess(this.params, getDefaultEnvironment());
    this.proc = proc;
    const child = proc.child;
    proc.onError((error) => this.onerror?.(error));
    void proc.closed.then(() => {
      try {
        this.onclose?.();
      } finally {
        this.taker?.closed();
      }
    });
    child.stdin?.on('error', (error) => this.onerror?.(error));
    child.stdin?.setMaxListeners(0); // each write waiting for 'drain' adds one
    proc.onStdout((chunk) => this.reader.push(chunk));
    child.stdout?.on('error', (error) => this.onerror?.(error));
    proc.onStderr((text) => this.stderr.append(text));
    child.stderr?.on('error', (error) => this.onerror?.(error));
    return proc.started;
  }

  private receive(line: string): void {
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = readMessage(line, deserializeMessage); // the SDK's parse; zod only where it is needed
    } catch (error) {
      // A line that is not JSON (a banner, logging on stdout) is skipped quietly, as the SDK does.
      if (error instanceof SyntaxError) return;
      const refused = this.refused(line, error as Error);
      if (refused === undefined) return;
      message = refused;
    }
    if (this.taker?.take(message) === true) return;
    this.onmessage?.(message);
  }

  /**
   * A JSON line the SDK's schema refused. An answer to a request (an id, no method) is tolerated without members
   * the schema does not allow, or else becomes an error answer for its id, so the request fails at once instead of
   * waiting for its timeout (refused-answer.ts); anything else is skipped with a note for --debug.
   */
  private refused(line: string, error: Error): JSONRPCMessage | undefined {
    const answer = refusedAnswer(JSON.parse(line) as unknown, error, deserializeMessage);
    if (answer?.kind === 'tolerated') {
      this.stderr.append(`[mcp-smart] read an answer without its extra member(s) ${answer.dropped.join(', ')}\n`);
      return answer.message as JSONRPCMessage;
    }
    const note = answer?.reason ?? `skipped a stdout line that is not JSON-RPC: ${error.message.slice(0, 200)}`;
    this.stderr.append(`[mcp-smart] ${note}\n`);
    if (answer) return answer.message;
    this.onerror?.(error);
    return undefined;
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
    const stdin = this.proc?.child.stdin;
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
    if (!this.proc) return;
    await endProcessTree(this.proc);
    this.reader.clear();
    await closedWithin(this.proc);
  }
}

/** Windows: the SDK transport (cross-spawn resolves `.cmd` shims), with `taskkill /T` for the tree. */
function windowsHandle(params: StdioParams): StdioHandle {
  const transport = new StdioClientTransport({
    command: params.command,
    args: params.args,
    // Windows' own inherited variables (APPDATA, SYSTEMROOT, …): the SDK's list for the platform.
    env: { ...getDefaultEnvironment(), ...(params.env ?? {}) },
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
    pid: () => t.proc?.child.pid,
    stderr: t.stderr,
    exit: () => t.exit,
    spawnError: () => t.proc?.spawnError(),
    terminate: () => t.terminate(),
  };
}
