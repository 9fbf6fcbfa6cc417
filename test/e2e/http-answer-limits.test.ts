// A remote (Streamable HTTP) server whose `tools/list` answer never ends, plain or gzip that inflates without end:
// the built CLI's `audit` stops reading at the message cap (MCP_SMART_MAX_MESSAGE_MB here; 256 MB by default, as
// for stdio), says so for that server, and its memory stays bounded. Figures: bytes the server got to send before
// the client stopped reading, peak RSS of the audit process (/usr/bin/time).
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/paths.js';
import { sandbox, type Sandbox } from './serve-harness.js';

const MB = 1024 * 1024;
const CAP_MB = 8;
const ENDLESS = 1024 * MB; // what the server would send in full: far past the cap

let box: Sandbox;
let http: Server;
let base: string;
/** Per answer mode: bytes written to the socket (compressed for gzip) and bytes generated before inflating. */
const sent = { plain: 0, gzip: 0, gzipRaw: 0 };

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((r) => {
    let s = '';
    req.on('data', (d: Buffer) => (s += String(d)));
    req.on('end', () => r(s));
  });

/** Writes an endless tools/list answer until the client goes away (or ENDLESS bytes). */
async function endless(res: ServerResponse, id: unknown, gzip: boolean): Promise<void> {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"tools":[{"name":"t","inputSchema":{"type":"object"},"description":"`;
  const chunk = Buffer.alloc(64 * 1024, 'a');
  res.writeHead(200, { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
  let closed = false;
  res.on('close', () => (closed = true));
  const out = gzip ? createGzip() : undefined;
  if (out) {
    out.on('data', (d: Buffer) => {
      sent.gzip += d.length;
      if (!res.write(d)) out.pause();
    });
    res.on('drain', () => out.resume());
    out.on('error', () => undefined);
  }
  const write = async (b: Buffer): Promise<void> => {
    if (out) {
      sent.gzipRaw += b.length;
      if (!out.write(b)) await new Promise((r) => out.once('drain', r));
    } else {
      sent.plain += b.length;
      if (!res.write(b)) await new Promise((r) => res.once('drain', r).once('close', r));
    }
  };
  await write(Buffer.from(head));
  for (let n = 0; n < ENDLESS && !closed; n += chunk.length) {
    await write(chunk);
    // Let the socket's close be seen between chunks.
    if (n % (4 * MB) === 0) await new Promise((r) => setImmediate(r));
  }
  out?.destroy();
  res.destroy();
}

beforeAll(async () => {
  box = await sandbox('http-limits');
  http = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const msg = JSON.parse(await readBody(req)) as { id?: unknown; method: string };
      if (msg.id === undefined) return void res.writeHead(202).end();
      const reply = (result: unknown): void => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
      };
      if (msg.method === 'initialize')
        return reply({
          protocolVersion: '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: 'endless', version: '1' },
        });
      if (msg.method === 'tools/list') return endless(res, msg.id, (req.url ?? '').includes('gzip'));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } }));
    })();
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(async () => {
  http?.closeAllConnections();
  await new Promise((r) => http?.close(r));
  await box?.remove();
});

/** `audit --json` on one server at `path`, under /usr/bin/time: its JSON, exit code and peak RSS (MB). */
async function audit(
  path: string,
): Promise<{ json: { servers: { status: string; error?: string }[] }; rssMb: number }> {
  const config = join(box.dir, `servers-${path}.json`);
  await writeFile(config, JSON.stringify({ mcpServers: { endless: { type: 'http', url: `${base}/${path}` } } }));
  const child = spawn(
    '/usr/bin/time',
    ['-f', 'peak-rss-kb %M', process.execPath, BIN, '--config', config, '--json', 'audit'],
    {
      env: { ...box.env, MCP_SMART_MAX_MESSAGE_MB: String(CAP_MB) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
  child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
  await new Promise((r) => child.on('close', r));
  const rss = /peak-rss-kb (\d+)/.exec(stderr);
  expect(rss, stderr).not.toBeNull();
  return { json: JSON.parse(stdout), rssMb: Number(rss![1]) / 1024 };
}

describe('HTTP answers are capped as stdio messages are, decompression included', () => {
  it('an endless plain answer is refused at the cap; the rest is never downloaded', async () => {
    const { json, rssMb } = await audit('plain');
    expect(json.servers[0]).toMatchObject({ status: 'error' });
    expect(json.servers[0]!.error).toMatch(
      /larger than the 8\.0 MB limit \(refused after 8\.\d MB; MCP_SMART_MAX_MESSAGE_MB/,
    );
    console.log(
      `endless plain answer: ${(sent.plain / MB).toFixed(1)} MB sent before the client stopped reading; audit peak RSS ${rssMb.toFixed(0)} MB`,
    );
    // What socket buffers hold beyond the cap, not the 1 GB the server would send.
    expect(sent.plain).toBeLessThan(64 * MB);
    expect(rssMb).toBeLessThan(400);
  }, 120_000);

  it('gzip that inflates without end is refused after inflating the cap, not the whole bomb', async () => {
    const { json, rssMb } = await audit('gzip');
    expect(json.servers[0]).toMatchObject({ status: 'error' });
    expect(json.servers[0]!.error).toMatch(/larger than the 8\.0 MB limit/);
    console.log(
      `gzip bomb: ${(sent.gzip / 1024).toFixed(0)} KB compressed sent, ${(sent.gzipRaw / MB).toFixed(1)} MB generated before the client stopped reading; audit peak RSS ${rssMb.toFixed(0)} MB`,
    );
    // The whole 1 GB bomb is about 1 MB compressed, so what the server got to send says little: what the client
    // inflated is in its error (the cap and one chunk at most) and its peak RSS.
    expect(json.servers[0]!.error).toMatch(/refused after 8\.\d MB/);
    expect(rssMb).toBeLessThan(400);
  }, 120_000);
});
