// A call the client cancels over HTTP gets no answer, and its response may stay open until the session closes (as the
// SDK's stream does). It was still counted as in flight, so its session never idled out and was never evicted: a
// client that cancels calls pinned its sessions until --max-sessions refused every new client (503). Now a
// cancelled call stops counting at its cancellation, in both call paths (meta mode: the SDK's Server; tools mode:
// forwarded outside it). The built CLI, a raw HTTP client, a real SDK server behind whose `slow` tool answers late.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { node, rawHttpSession, sandbox, startServeHttp, type Sandbox } from './serve-harness.js';

let box: Sandbox;
let config = '';
beforeAll(async () => {
  box = await sandbox('http-cancel-idle');
  config = await box.config('servers.json', { tr: node(fixture('servers', 'trace-server.mjs')) });
});
afterAll(() => box.remove());

const CASES: [mode: string, call: Record<string, unknown>][] = [
  ['meta', { name: 'call_tool', arguments: { name: 'tr.slow', arguments: { ms: 30_000 } } }],
  ['tools', { name: 'slow', arguments: { ms: 30_000 } }],
];

describe('a call cancelled over HTTP', () => {
  it.each(CASES)(
    '%s mode: its session idles out after the cancellation, and its open response ends with it',
    async (mode, params) => {
      const serve = await startServeHttp(box.env, [
        '-c',
        config,
        '--mode',
        mode,
        '--no-learn',
        '--session-idle',
        '1000',
        '--debug',
      ]);
      try {
        const headers = await rawHttpSession(serve.url, {});
        const call = fetch(serve.url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params }),
        }).then((r) => r.text());
        await new Promise((r) => setTimeout(r, 500));
        const cancel = await fetch(serve.url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } }),
        });
        expect(cancel.status).toBe(202);
        // Well before the slow tool's 30 s: the session is closed as idle, and with it the call's response.
        await serve.waitForStderr(/closing a session idle for 1000 ms/, 10_000);
        expect(await call).not.toContain('"result"');
      } finally {
        await serve.stop();
      }
    },
    60_000,
  );
});
