// Progress through `serve`: the conformance fixture's test_tool_with_progress sends progress 0, 50, 100 and then its
// result at once. The last progress and the result often arrive in one stdio chunk; serve must still forward all
// three, every time, before the result (the SDK's client alone drops such a progress: it dispatches notifications a
// microtask after it handles a response — serve's own connections to the servers behind work around that).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture } from '../helpers/paths.js';
import { openRawStdio } from '../helpers/raw-stdio.js';
import { node, sandbox, startServeHttp, textOf, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 60_000;
const CALLS = 15;
let box: Sandbox;
let config: string;
beforeAll(async () => {
  box = await sandbox('serve-progress');
  config = await box.config('progress.json', { conf: node(fixture('servers', 'conformance-server.mjs')) });
});
afterAll(async () => box.remove());

async function progressRuns(client: Client): Promise<number[][]> {
  const runs: number[][] = [];
  for (let i = 0; i < CALLS; i++) {
    const got: number[] = [];
    const result = await client.callTool(
      { name: 'test_tool_with_progress', arguments: {} },
      {
        onprogress: (p) => got.push(p.progress),
      },
    );
    expect(textOf(result)).toBe('Progress tool finished.');
    runs.push(got);
  }
  return runs;
}

describe('serve forwards every progress notification of a call', () => {
  it(
    `over Streamable HTTP: 0, 50, 100 on each of ${CALLS} calls`,
    async () => {
      const serve = await startServeHttp(box.env, ['--config', config, '--mode', 'tools', '--no-learn']);
      try {
        const client = new Client({ name: 'e2e-progress', version: '1' });
        await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
        expect(await progressRuns(client)).toEqual(Array.from({ length: CALLS }, () => [0, 50, 100]));
        await client.close();
      } finally {
        expect(await serve.stop()).toBe(143);
      }
    },
    TIMEOUT_MS,
  );

  it(
    `over stdio, as written on serve's stdout (a bare JSON-RPC reader): 0, 50, 100 before each of ${CALLS} results`,
    async () => {
      // A bare reader, because the SDK's own client drops a progress that shares a chunk with the result.
      const raw = openRawStdio(process.execPath, [BIN, 'serve', '--config', config, '--mode', 'tools', '--no-learn'], {
        ...box.env,
      });
      try {
        await raw.initialize(20_000);
        const runs: unknown[][] = [];
        for (let i = 0; i < CALLS; i++) {
          const token = `p${i}`;
          const reply = await raw.request(
            'tools/call',
            { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: token } },
            20_000,
          );
          expect(textOf(reply.result)).toBe('Progress tool finished.');
          runs.push(
            raw.notifications
              .filter((n) => n.method === 'notifications/progress')
              .map((n) => n.params as { progressToken: string; progress: number })
              .filter((n) => n.progressToken === token)
              .map((n) => n.progress),
          );
        }
        expect(runs).toEqual(Array.from({ length: CALLS }, () => [0, 50, 100]));
      } finally {
        raw.child.stdin?.end();
        expect(await raw.exited).toBe(0);
      }
    },
    TIMEOUT_MS,
  );
});
