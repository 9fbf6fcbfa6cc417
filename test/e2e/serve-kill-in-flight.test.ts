// A 2025 client's call in flight on a serve that is SIGKILLed ends with an error the client sees, even when the
// call had been running past the SDK's SSE keep-alive interval (15 s): serve sends no byte of a tools/call's
// response before its first message (http-first-byte.ts), so the cut connection fails the client's request at once.
// Before, the keep-alive comment sent the response's headers; the SDK client then took the cut stream for a
// disconnect to recover from and left the call waiting for an answer that never came (a hang until its timeout).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { killTree, snapshotTree, type ProcessInfo } from '../helpers/process-tree.js';
import { node, sandbox, startServeHttp, type Sandbox, type StartedServe } from './serve-harness.js';

/** Past the SDK's keep-alive interval (DEFAULT_SSE_KEEP_ALIVE_MS, 15 s). */
const PAST_KEEP_ALIVE_MS = 16_500;

let box: Sandbox;
let serve: StartedServe;
/** serve and the server it started: a SIGKILLed serve cannot end its child, which holds the call open. */
let tree: ProcessInfo[] = [];

beforeAll(async () => {
  box = await sandbox('kill-in-flight');
  const config = await box.config('servers.json', { asks: node(fixture('servers', 'asks-client.mjs')) });
  serve = await startServeHttp(box.env, ['--config', config, '--mode', 'tools']);
}, 60_000);

afterAll(async () => {
  serve?.child.kill('SIGKILL');
  killTree(tree);
  await serve?.stop();
  await box?.remove();
});

describe('a call in flight on a serve SIGKILLed', () => {
  it('a 2025 client’s call running past the keep-alive interval ends with an error within seconds', async () => {
    const client = new Client({ name: 'e2e-kill', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
    // `wait` with no progress: no message at all until it is cancelled.
    const call = client.callTool({ name: 'wait', arguments: { steps: 0 } }, { timeout: 60_000 }).then(
      () => 'answered',
      (e: Error) => `error: ${e.message}`,
    );
    await new Promise((r) => setTimeout(r, PAST_KEEP_ALIVE_MS));
    tree = snapshotTree(serve.child.pid!);
    serve.child.kill('SIGKILL');
    const t0 = Date.now();
    const outcome = await Promise.race([call, new Promise((r) => setTimeout(() => r('still waiting'), 10_000))]);
    expect(outcome).toMatch(/^error: /);
    expect(outcome).not.toMatch(/timed out/i);
    expect(Date.now() - t0).toBeLessThan(10_000);
    await client.close().catch(() => undefined);
  }, 60_000);
});
