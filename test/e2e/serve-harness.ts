// Shared by the serve-*.test.ts e2e files: a sandbox folder (prefix mcp-smart-), a config naming fixture servers,
// and `mcp-smart serve` (the built CLI) started over stdio or Streamable HTTP with its stderr collected.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { BIN, REPO } from '../helpers/paths.js';

export interface Sandbox {
  dir: string;
  env: Record<string, string>;
  /** Writes `{ mcpServers }` to a file in the sandbox and returns its path. */
  config: (name: string, servers: Record<string, { command: string; args: string[] }>) => Promise<string>;
  remove: () => Promise<void>;
}

export async function sandbox(label: string): Promise<Sandbox> {
  if (!existsSync(join(REPO, 'dist', 'cli.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const dir = await mkdtemp(join(tmpdir(), `mcp-smart-${label}-`));
  const env = {
    PATH: process.env.PATH ?? '',
    NO_COLOR: '1',
    HOME: dir,
    MCP_SMART_CACHE_DIR: join(dir, 'cache'),
    MCP_SMART_DATA_DIR: join(dir, 'data'),
  };
  return {
    dir,
    env,
    config: async (name, servers) => {
      const file = join(dir, name);
      await writeFile(file, JSON.stringify({ mcpServers: servers }));
      return file;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A fixture server as a config entry (node, no shell). */
export const node = (script: string, ...args: string[]): { command: string; args: string[] } => ({
  command: process.execPath,
  args: [script, ...args],
});

export interface StartedServe {
  child: ChildProcess;
  url: string;
  /** Everything serve wrote on stderr so far. */
  stderr: () => string;
  /** Resolves when a stderr line matches (no polling: waits for the data event). */
  waitForStderr: (pattern: RegExp, ms?: number) => Promise<string>;
  /** SIGTERM and the exit code. */
  stop: () => Promise<number | null>;
}

function collect(stream: Readable): Pick<StartedServe, 'stderr' | 'waitForStderr'> {
  let err = '';
  const waiters = new Set<() => void>();
  stream.on('data', (d: Buffer) => {
    err += String(d);
    for (const w of [...waiters]) w();
  });
  return {
    stderr: () => err,
    waitForStderr: (pattern, ms = 20_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const m = pattern.exec(err);
          if (!m) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(m[0]);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`serve never wrote ${String(pattern)} on stderr; it wrote:\n${err}`));
        }, ms);
        waiters.add(check);
        check();
      }),
  };
}

/** `mcp-smart serve --transport http <args>`; resolves once it prints the URL it listens on. */
export async function startServeHttp(env: Record<string, string>, args: string[]): Promise<StartedServe> {
  const child = spawn(process.execPath, [BIN, 'serve', '--transport', 'http', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = collect(child.stderr);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await Promise.race([
    out.waitForStderr(/http:\/\/[\w.[\]:-]+:\d+\/mcp/),
    exited.then((code) => Promise.reject(new Error(`serve exited ${code}: ${out.stderr()}`))),
  ]);
  return {
    child,
    url,
    ...out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * `mcp-smart serve <args>` over stdio, driven by an SDK client declaring `capabilities`; `modern` pins the
 * 2026-07-28 era (no initialize: the declaration rides in every request's _meta envelope, as Claude Code sends it).
 */
export async function connectServeStdio(
  env: Record<string, string>,
  args: string[],
  capabilities: ClientCapabilities = {},
  modern = false,
): Promise<{ client: Client; transport: StdioClientTransport } & Pick<StartedServe, 'stderr' | 'waitForStderr'>> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'serve', ...args],
    env,
    stderr: 'pipe',
  });
  const out = collect(transport.stderr as Readable);
  const client = new Client(
    { name: 'e2e-serve', version: '1' },
    { capabilities, ...(modern && { versionNegotiation: { mode: { pin: '2026-07-28' } } }) },
  );
  await client.connect(transport);
  return { client, transport, ...out };
}

export const textOf = (r: unknown): string =>
  ((r as { content?: { type: string; text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');

/**
 * The forwarded calls both fast paths (stdio-forward-calls.ts, http-forward-calls.ts) are checked on against the SDK
 * path, with the fixture servers `conf` (conformance-server), `faults` (call-faults) and `secret` (echo-secret)
 * behind: tool, arguments, and whether the fast path writes the answer itself (a plain text result) or leaves it to
 * the SDK.
 */
export const FORWARD_CASES: [tool: string, args: Record<string, unknown>, fast: boolean][] = [
  ['test_simple_text', {}, true],
  ['test_error_handling', {}, true],
  ['echo', { text: 'héllo "quoted"\n' }, true],
  ['leak', {}, true],
  ['test_image_content', {}, false],
  ['test_audio_content', {}, false],
  ['test_embedded_resource', {}, false],
  ['test_multiple_content_types', {}, false],
  ['leak_rpc', {}, false],
];

/** Polls `probe` every 25 ms until it gives a value, at most `ms` (then fails naming `what`). */
export const until = async <T>(probe: () => T | undefined, ms: number, what: string): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

/**
 * A raw 2025 Streamable HTTP session against `url`: initialize declaring `capabilities`, then initialized (202
 * expected). Its headers for later requests: JSON + SSE accepted, `auth`, the session id and the protocol version.
 */
export async function rawHttpSession(
  url: string,
  capabilities: Record<string, unknown>,
  auth: Record<string, string> = {},
): Promise<Record<string, string>> {
  const base = { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await fetch(url, {
    method: 'POST',
    headers: base,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  await init.text();
  const headers = {
    ...base,
    'mcp-session-id': init.headers.get('mcp-session-id')!,
    'mcp-protocol-version': '2025-06-18',
  };
  const initialized = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await initialized.text();
  if (initialized.status !== 202) throw new Error(`initialized answered ${initialized.status}, not 202`);
  return headers;
}
