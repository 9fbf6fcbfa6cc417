// The HTTP answer cap (core/connect/bounded-fetch.ts) over a real local HTTP server: a JSON body is cut at the cap,
// a declared Content-Length over it is refused unread, and an event stream is counted per event — a long-lived
// stream of small events passes whatever its total, one event over the cap does not.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerTooLarge, boundedFetch } from '../../src/core/connect/bounded-fetch.js';

const CAP = 64 * 1024;
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    if (path === '/json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < 40; i++) res.write('x'.repeat(4096));
      res.end();
    } else if (path === '/declared') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(CAP * 4) });
      res.end('y'.repeat(CAP * 4));
    } else if (path === '/events-small') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // 200 events of 1 KB each: 200 KB in all, each far under the cap.
      for (let i = 0; i < 200; i++) res.write(`event: message\ndata: ${'e'.repeat(1000)}\n\n`);
      res.end();
    } else if (path === '/events-big') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: small\n\n');
      for (let i = 0; i < 40; i++) res.write(i === 0 ? `data: ${'b'.repeat(4090)}` : 'b'.repeat(4096));
      res.end('\n\n');
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

const capped = boundedFetch(undefined, CAP);

describe('boundedFetch', () => {
  it('cuts a body at the cap, naming the limit and what was read', async () => {
    const res = await capped(`${base}/json`);
    const err = await res.text().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AnswerTooLarge);
    expect((err as AnswerTooLarge).read).toBeGreaterThan(CAP);
    expect((err as AnswerTooLarge).read).toBeLessThanOrEqual(CAP + 64 * 1024);
    expect((err as Error).message).toMatch(/larger than the 0\.1 MB limit/);
  });

  it('refuses a declared Content-Length over the cap before reading', async () => {
    await expect(capped(`${base}/declared`)).rejects.toMatchObject({ name: 'AnswerTooLarge', read: 0 });
  });

  it('counts an event stream per event: many small events pass, one big event does not', async () => {
    const text = await (await capped(`${base}/events-small`)).text();
    expect(text.length).toBeGreaterThan(CAP * 3);
    expect(text.split('\n\n').filter(Boolean)).toHaveLength(200);
    const big = await capped(`${base}/events-big`);
    await expect(big.text()).rejects.toBeInstanceOf(AnswerTooLarge);
  });
});
