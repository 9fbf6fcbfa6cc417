// bench/peers.mjs's processes and clients: spawn → first tools/list over raw JSON-RPC on stdio (no client library on
// the clock), spawn → tools/list holding every tool over SSE (mcp-hub has no stdio side), connected MCP SDK v1 and v2
// clients over stdio, SSE and Streamable HTTP, and a process's RSS (a free port: test/helpers/free-port.mjs).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { INITIALIZE } from './raw-stdio.mjs';

/** Request options: on a machine loaded to 30 a first answer can take longer than the SDKs' 60 s default. */
export const LONG = { timeout: 300_000 };

/**
 * Spawn → the answer to the first tools/list (after initialize and initialized), over raw JSON-RPC on stdio; if it
 * holds fewer than `minTools` tools, tools/list is asked again every 10 ms until it holds them all. Returns
 * `{first, count, full}`: ms to the first answer, the tools in it, ms to a list holding every tool.
 */
export function stdioFirstList(command, args, { env, cwd, minTools = 1 }) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
    const send = (m) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
    let buf = '';
    let id = 2;
    const out = {};
    child.stdout.on('data', (d) => {
      buf += String(d);
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        let m;
        try {
          m = JSON.parse(line);
        } catch {
          continue; // a peer's stray line on stdout
        }
        if (m.id === 1) {
          send({ method: 'notifications/initialized' });
          send({ id, method: 'tools/list' });
        } else if (m.id === id && out.full === undefined) {
          const wall = performance.now() - t0;
          const n = m.result?.tools?.length ?? 0;
          if (out.first === undefined) Object.assign(out, { first: wall, count: n });
          if (n >= minTools) {
            out.full = wall;
            child.stdin.end();
            setTimeout(() => child.kill('SIGTERM'), 2000).unref();
          } else if (wall > 120_000) child.kill('SIGKILL');
          else setTimeout(() => send({ id: ++id, method: 'tools/list' }), 10);
        }
      }
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.once('exit', () => {
      clearTimeout(killer);
      if (out.full === undefined)
        reject(
          new Error(`${command} ${args.join(' ')} ended before listing ${minTools} tools (${JSON.stringify(out)})`),
        );
      else resolve(out);
    });
    child.once('error', reject);
    send(INITIALIZE);
  });
}

/**
 * fetch for the SDK's HTTP transports, each request with its own signal that follows the one the transport gives
 * (its connection's): undici ties an abort listener to the signal a request is given until that request is
 * garbage-collected, so thousands of calls on one connection piled listeners on its one signal and Node printed a
 * MaxListenersExceededWarning for each past 1,500 (~1,700 lines a run). AbortSignal.any follows the connection's
 * signal without a listener on it: closing the connection still aborts a request in flight.
 */
const ownSignalFetch = (url, init) =>
  fetch(url, init?.signal ? { ...init, signal: AbortSignal.any([init.signal]) } : init);

/** Waits until `url` accepts an SSE (or Streamable HTTP) connection; returns a connected SDK v1 client. */
async function connectWhenUp(url, child, kind = 'sse', deadlineMs = 60_000) {
  const until = performance.now() + deadlineMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited (${child.exitCode}) before it listened`);
    const client = new ClientV1({ name: 'bench-peers', version: '1' });
    try {
      const Transport = kind === 'sse' ? SSEClientTransport : StreamableHTTPClientTransport;
      await client.connect(new Transport(new URL(url), { fetch: ownSignalFetch }), LONG);
      return client;
    } catch (e) {
      await client.close().catch(() => undefined);
      if (performance.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

/**
 * Spawns an HTTP/SSE proxy (`url` is known before it listens) → SSE connected → first tools/list → a tools/list
 * holding ≥ `minTools` tools (asked again every 10 ms until then); `{first, count, full}` as `stdioFirstList`.
 */
export async function sseFirstFullList(command, args, url, { env, cwd, minTools }) {
  const t0 = performance.now();
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'ignore', 'ignore'] });
  const exited = new Promise((r) => child.once('exit', r));
  let client;
  try {
    client = await connectWhenUp(url, child);
    const out = {};
    for (;;) {
      const { tools } = await client.listTools(undefined, LONG);
      if (out.first === undefined) Object.assign(out, { first: performance.now() - t0, count: tools.length });
      if (tools.length >= minTools) break;
      if (performance.now() - t0 > 180_000) throw new Error(`${url}: ${tools.length} tools after 180 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
    out.full = performance.now() - t0;
    return out;
  } finally {
    // Closed on failure too: an SSE client left open reconnects to the dead port forever (and keeps the bench alive).
    await client?.close().catch(() => undefined);
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

/** A connected client over stdio: SDK `v1` (@modelcontextprotocol/sdk) or `v2` (@modelcontextprotocol/client). */
export async function stdioClient(sdk, command, args, { env, cwd }) {
  const [Client, Transport] = sdk === 'v1' ? [ClientV1, StdioV1] : [ClientV2, StdioV2];
  const client = new Client({ name: `bench-peers-${sdk}`, version: '1' });
  const transport = new Transport({ command, args, env, cwd, stderr: 'ignore' });
  await client.connect(transport, LONG);
  // SDK v1: callTool(params, resultSchema, options); v2: callTool(params, options).
  const invoke = sdk === 'v1' ? (p) => client.callTool(p, undefined, LONG) : (p) => client.callTool(p, LONG);
  return { client, invoke, pid: transport.pid, close: () => client.close() };
}

/**
 * An HTTP proxy process (`listen(port)` → args; ready when `url` answers) with a connected SDK v1 client over
 * `sse` or `streamable`; for a process that prints `listening <url>` or `listening on <url>` pass `printsUrl`.
 */
export async function httpClient({ command, args, env, cwd, kind, url, printsUrl }) {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((r) => child.once('exit', r));
  let target = url;
  if (printsUrl) {
    target = await new Promise((resolve, reject) => {
      let text = '';
      const look = (d) => {
        text += String(d);
        const m = /listening(?: on)? (http:\/\/\S+)/.exec(text);
        if (m) resolve(m[1]);
      };
      child.stdout.on('data', look);
      child.stderr.on('data', look);
      child.once('exit', (code) =>
        reject(new Error(`${command} exited ${code} before listening: ${text.slice(-400)}`)),
      );
    });
  }
  child.stdout.resume();
  child.stderr.resume();
  const client = await connectWhenUp(target, child, kind);
  return {
    client,
    invoke: (p) => client.callTool(p, undefined, LONG),
    pid: child.pid,
    close: async () => {
      await client.close().catch(() => undefined);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resident set size of `pid`, MB (Linux). */
export function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}
