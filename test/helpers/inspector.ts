// Drives the MCP Inspector CLI (@modelcontextprotocol/inspector, a devDependency) as a real client that is not our
// code: `inspector --cli --format json <target> --method <m> …` against a stdio command or an HTTP URL. The Inspector
// writes a catalog and client config under the home folder by default, so every run gets its own temporary home
// (prefix mcp-smart-), removed afterwards. On Node 20 it runs despite its engines field (>= 22.19).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, REPO } from './paths.js';

export const INSPECTOR_BIN = join(
  REPO,
  'node_modules',
  '@modelcontextprotocol',
  'inspector',
  'clients',
  'launcher',
  'build',
  'index.js',
);

/** A stdio server (spawned by the Inspector, without a shell) or a Streamable HTTP / SSE URL. */
export type InspectorTarget =
  | { command: string; args?: string[]; env?: Record<string, string> }
  | { url: string; transport?: 'http' | 'sse'; headers?: Record<string, string> };

/** `mcp-smart serve …` (the built CLI) as an Inspector stdio target: a test moves from a server to serve here. */
export function serveTarget(args: string[], env?: Record<string, string>): InspectorTarget {
  return { command: process.execPath, args: [BIN, 'serve', ...args], env };
}

export interface InspectorCall {
  /** What the Inspector CLI supports: initialize, tools/list, tools/call, resources/list, resources/read,
   *  resources/templates/list, prompts/list, prompts/get, logging/setLevel (no ping, no completion). */
  method: string;
  toolName?: string;
  /** Sent verbatim as --tool-args-json (no key=value coercion). */
  toolArgs?: Record<string, unknown>;
  uri?: string;
  promptName?: string;
  promptArgs?: Record<string, string>;
  logLevel?: string;
}

export interface InspectorRun {
  /** 0 ok, 1 usage/connection error, 4 unreachable, 5 the tool returned isError (the Inspector's own map). */
  exitCode: number;
  /** The `result` of the JSON document on stdout (undefined when none was printed). */
  result: unknown;
  /** The `{ error: { code, message } }` envelope the Inspector prints on stderr on failure. */
  error?: { code: string; message: string };
  stdout: string;
  stderr: string;
  /** The temporary home the run used (already removed). */
  home: string;
}

export interface InspectorOptions {
  /** The Inspector's whole process group is killed after this long and the promise rejects. Default 30 s. */
  timeoutMs?: number;
  cwd?: string;
  /** Called with the Inspector's pid once it runs (process-tree checks). */
  onSpawn?: (pid: number) => void;
}

/** The argv after `--cli` for a target and a call. */
export function inspectorArgs(target: InspectorTarget, call: InspectorCall): string[] {
  const args = ['--format', 'json', '--method', call.method];
  if (call.toolName !== undefined) args.push('--tool-name', call.toolName);
  if (call.toolArgs !== undefined) args.push('--tool-args-json', JSON.stringify(call.toolArgs));
  if (call.uri !== undefined) args.push('--uri', call.uri);
  if (call.promptName !== undefined) args.push('--prompt-name', call.promptName);
  if (call.promptArgs !== undefined) {
    args.push('--prompt-args', ...Object.entries(call.promptArgs).map(([k, v]) => `${k}=${v}`));
  }
  if (call.logLevel !== undefined) args.push('--log-level', call.logLevel);
  if ('url' in target) {
    args.push('--transport', target.transport ?? 'http', '--server-url', target.url);
    for (const [k, v] of Object.entries(target.headers ?? {})) args.push('--header', `${k}: ${v}`);
    return args;
  }
  for (const [k, v] of Object.entries(target.env ?? {})) args.push('-e', `${k}=${v}`);
  // `--` ends the Inspector's options, so the server's own flags reach the server.
  return [...args, '--', target.command, ...(target.args ?? [])];
}

function lastJsonLine(text: string): Record<string, unknown> | undefined {
  const lines = text.trim().split('\n').reverse();
  for (const line of lines) {
    if (!line.startsWith('{')) continue;
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      /* a server's own stderr line that looks like JSON */
    }
  }
  return undefined;
}

/** Runs one Inspector CLI call; resolves with its exit code and parsed output, rejects on timeout. */
export function runInspector(
  target: InspectorTarget,
  call: InspectorCall,
  options: InspectorOptions = {},
): Promise<InspectorRun> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const home = mkdtempSync(join(tmpdir(), 'mcp-smart-inspector-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    MCP_CATALOG_PATH: join(home, 'catalog.json'),
    MCP_CLIENT_CONFIG_PATH: join(home, 'client.json'),
    NO_COLOR: '1',
  };
  const child = spawn(process.execPath, [INSPECTOR_BIN, '--cli', ...inspectorArgs(target, call)], {
    cwd: options.cwd ?? home,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid) options.onSpawn?.(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      rmSync(home, { recursive: true, force: true });
      reject(e);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      rmSync(home, { recursive: true, force: true });
      if (timedOut) {
        reject(
          new Error(`Inspector ${call.method} did not finish within ${timeoutMs} ms; stderr:\n${stderr.slice(-2000)}`),
        );
        return;
      }
      const out = lastJsonLine(stdout);
      const err = lastJsonLine(stderr)?.error as InspectorRun['error'];
      resolve({ exitCode: code ?? (signal ? 128 : 1), result: out?.result, error: err, stdout, stderr, home });
    });
  });
}
