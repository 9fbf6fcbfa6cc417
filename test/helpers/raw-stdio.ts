// A bare JSON-RPC client over a server's stdio, for checking what a fixture server really sends: no SDK schema
// validation in between (a malformed tool list arrives as sent), the child's exit code and stderr are visible, and
// non-JSON stdout lines are counted instead of failing the exchange.
import { spawn, type ChildProcess } from 'node:child_process';

export interface RpcReply {
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export interface RawStdio {
  child: ChildProcess;
  /** Sends a request; rejects after `timeoutMs` or when the process ends first. */
  request(method: string, params?: unknown, timeoutMs?: number): Promise<RpcReply>;
  notify(method: string, params?: unknown): void;
  /** initialize + notifications/initialized; resolves with the initialize result. */
  initialize(timeoutMs?: number): Promise<RpcReply>;
  notifications: { method: string; params?: unknown }[];
  stderr(): string;
  noiseLines(): number;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
  kill(): void;
}

export function openRawStdio(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): RawStdio {
  const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let buffer = '';
  let err = '';
  let noise = 0;
  let nextId = 1;
  const pending = new Map<number, { resolve: (r: RpcReply) => void; reject: (e: Error) => void }>();
  const notifications: { method: string; params?: unknown }[] = [];
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      for (const p of pending.values()) p.reject(new Error(`server exited (${code ?? signal}) before answering`));
      pending.clear();
      resolve(code ?? signal ?? 'unknown');
    });
  });
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    buffer += d.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      let msg: { id?: number; method?: string; params?: unknown; result?: unknown; error?: RpcReply['error'] };
      try {
        msg = JSON.parse(line);
      } catch {
        noise++;
        continue;
      }
      if (msg.method !== undefined && msg.id === undefined)
        notifications.push({ method: msg.method, params: msg.params });
      else if (msg.id !== undefined && pending.has(msg.id)) {
        pending.get(msg.id)!.resolve({ result: msg.result, error: msg.error });
        pending.delete(msg.id);
      }
    }
  });
  child.stdin.on('error', () => {}); // the server may be gone already
  const send = (msg: object) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n');
  const request = (method: string, params?: unknown, timeoutMs = 10_000) =>
    new Promise<RpcReply>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`no answer to ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, {
        resolve: (r) => (clearTimeout(timer), resolve(r)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      send({ id, method, params });
    });
  const notify = (method: string, params?: unknown) => void send({ method, params });
  return {
    child,
    request,
    notify,
    async initialize(timeoutMs = 10_000) {
      const reply = await request(
        'initialize',
        { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'mcp-smart-tests', version: '0' } },
        timeoutMs,
      );
      notify('notifications/initialized');
      return reply;
    },
    notifications,
    stderr: () => err,
    noiseLines: () => noise,
    exited,
    kill() {
      if (child.exitCode === null && child.signalCode === null && child.pid) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
    },
  };
}

/**
 * Closes the sessions a test opened, and empties `open`: each gets its stdin ended, its process group killed, and
 * is awaited until it has exited (for an afterEach, so that no server outlives its test).
 */
export async function closeRawStdio(open: RawStdio[]): Promise<void> {
  for (const s of open.splice(0)) {
    s.child.stdin?.end();
    s.kill();
    await s.exited;
  }
}
