// serve stopped by a signal while its client's calls are in flight to a slow server (trace-server `slow`), with SDK
// clients as a user's would be: a call that finishes within the grace (1 s) gets its result; one still running then
// gets a JSON-RPC error (-32000) saying serve is shutting down; serve exits 143 (SIGTERM) or 130 (SIGINT). Before,
// the calls in flight were never answered (stdio) or their streams ended empty (HTTP), and the client waited.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { expectTreeGone, killTree, snapshotTree, type ProcessInfo } from '../helpers/process-tree.js';
import { connectServeStdio, node, sandbox, startServeHttp, textOf, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 90_000;

let box: Sandbox;
let config: string;
let tree: ProcessInfo[] = [];
beforeEach(async () => {
  box = await sandbox('serve-stop-in-flight');
  config = await box.config('servers.json', { trace: node(fixture('servers', 'trace-server.mjs')) });
});
afterEach(async () => {
  killTree(tree);
  await box.remove();
});

type Outcome = { text: string } | { code: unknown; message: string };

/** Two meta-mode calls in flight: one that ends within the grace, one that would run 30 s. */
function twoCalls(client: Client): [Promise<Outcome>, Promise<Outcome>] {
  const call = (ms: number): Promise<Outcome> =>
    client
      .callTool({ name: 'call_tool', arguments: { name: 'trace.slow', arguments: { ms } } }, { timeout: 60_000 })
      .then(
        (r) => ({ text: textOf(r) }),
        (e: Error & { code?: unknown }) => ({ code: e.code, message: e.message }),
      );
  return [call(300), call(30_000)];
}

/** Both outcomes within 5 s of the signal (a hang fails here). */
async function outcomes(calls: Promise<Outcome>[]): Promise<Outcome[]> {
  const t = performance.now();
  const all = await Promise.race([
    Promise.all(calls),
    new Promise<never>((_, fail) => setTimeout(() => fail(new Error('a call in flight was never answered')), 5_000)),
  ]);
  expect(performance.now() - t).toBeLessThan(5_000);
  return all;
}

const SHUTTING_DOWN = { code: -32000, message: expect.stringMatching(/serve is shutting down \(SIG(TERM|INT)\)/) };

describe('serve stopped with calls in flight', () => {
  it(
    'HTTP, a 2025 client, SIGTERM: the short call is answered, the long one gets "shutting down"; exit 143',
    async () => {
      const serve = await startServeHttp(box.env, ['--config', config, '--mode', 'meta', '--no-learn']);
      const client = new Client({ name: 'e2e-stop', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
      await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
      // Its servers start on the first call.
      await client.callTool({ name: 'call_tool', arguments: { name: 'trace.slow', arguments: { ms: 1 } } });
      const calls = twoCalls(client);
      await new Promise((r) => setTimeout(r, 150));
      tree = snapshotTree(serve.child.pid!);
      serve.child.kill('SIGTERM');
      const [short, long] = await outcomes(calls);
      expect(short).toEqual({ text: 'late' });
      expect(long).toMatchObject(SHUTTING_DOWN);
      expect(await serve.stop()).toBe(143);
      await expectTreeGone(tree);
      expect(serve.stderr()).toMatch(/SIGTERM: 1 request still open after 1000 ms answered with an error/);
      await client.close().catch(() => undefined);
    },
    TIMEOUT_MS,
  );

  it(
    'stdio, SIGINT: the short call is answered, the long one gets "shutting down"; exit 130',
    async () => {
      const { client, transport, stderr } = await connectServeStdio(box.env, [
        '--config',
        config,
        '--mode',
        'meta',
        '--no-learn',
      ]);
      await client.callTool({ name: 'call_tool', arguments: { name: 'trace.slow', arguments: { ms: 1 } } });
      const pid = transport.pid!;
      const exited = new Promise<number | null>((resolve) => {
        const child = (transport as unknown as { _process: NodeJS.EventEmitter })._process;
        child.once('exit', (code: number | null) => resolve(code));
      });
      const calls = twoCalls(client);
      await new Promise((r) => setTimeout(r, 150));
      tree = snapshotTree(pid);
      process.kill(pid, 'SIGINT');
      const [short, long] = await outcomes(calls);
      expect(short).toEqual({ text: 'late' });
      expect(long).toMatchObject(SHUTTING_DOWN);
      expect(await exited).toBe(130);
      await expectTreeGone(tree);
      expect(stderr()).toMatch(/SIGINT: 1 request still open after 1000 ms answered with an error/);
      await client.close().catch(() => undefined);
    },
    TIMEOUT_MS,
  );
});
