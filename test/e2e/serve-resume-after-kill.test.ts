// A 2025 client's call whose stream had begun (the server behind asked the client mid-call: an elicitation went out
// on the call's SSE stream) on a serve replica SIGKILLed behind HAProxy ends with an error result its client sees
// within seconds, for the SDK v2 client (@modelcontextprotocol/client) and the v1 one (@modelcontextprotocol/sdk), and
// so does one whose stream carried a progress notification.
// How: serve marks that stream's events with an id naming the call (http-resume.ts); the SDK client, its stream cut
// before the answer, resumes it with GET + Last-Event-ID; HAProxy sends that GET to a live replica (the dead one is
// refused, then marked down), which answers the call on it. Before, the events carried no id, the client did not
// resume, and the call waited for its request timeout (60 s).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { startHaproxy, type RunningHaproxy } from '../helpers/haproxy.js';
import { killTree, snapshotTree, type ProcessInfo } from '../helpers/process-tree.js';
import { node, sandbox, startServeHttp, textOf, type Sandbox, type StartedServe } from './serve-harness.js';

const TIMEOUT_MS = 90_000;
/** The SDK's request timeout: the call would wait this long without the resume. */
const SDK_TIMEOUT_MS = 60_000;
const GONE =
  /^mcp-smart: the replica that held this call is gone \(its stream ended before the answer\)\. The call was lost with it; call the tool again\.$/;

let box: Sandbox;
const replicas: StartedServe[] = [];
let lb: RunningHaproxy;
/** The killed replicas' trees: a SIGKILLed serve cannot end the server it started. */
const trees: ProcessInfo[][] = [];

beforeAll(async () => {
  box = await sandbox('resume-after-kill');
  const keyFile = join(box.dir, 'state.key');
  await writeFile(keyFile, 'x9Kd2mQ7vL4pR8tW1zA6nB3cF5hJ0sE2uY7iO4aG9\n');
  const config = await box.config('servers.json', { asks: node(fixture('servers', 'asks-client.mjs')) });
  const args = ['--config', config, '--mode', 'tools', '--state-key-file', keyFile];
  for (let i = 0; i < 4; i++) replicas.push(await startServeHttp(box.env, args));
  lb = await startHaproxy(
    box.dir,
    replicas.map((r) => new URL(r.url).host),
  );
}, TIMEOUT_MS);

afterAll(async () => {
  await lb?.stop();
  for (const r of replicas) await r.stop();
  for (const t of trees) killTree(t);
  await box?.remove();
});

/** The replica holding a 2025 session: the one that knows its id (the others answer 404). */
async function holderOf(sessionId: string): Promise<StartedServe> {
  for (const r of replicas) {
    if (r.child.exitCode !== null || r.child.signalCode !== null) continue;
    const res = await fetch(r.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'which', method: 'ping' }),
    });
    await res.text();
    if (res.ok) return r;
  }
  throw new Error(`no replica holds session ${sessionId}`);
}

interface Legacy {
  /** Calls sign_up; resolves once serve relayed the elicitation (the call's stream has begun). */
  call: () => { asked: Promise<void>; outcome: Promise<string> };
  sessionId: () => string;
  close: () => Promise<void>;
}

/** A 2025 client of either SDK through HAProxy, declaring elicitation; `answer`: whether it answers the ask. */
async function legacyClient(sdk: 'v1' | 'v2', answer: boolean): Promise<Legacy> {
  let asked!: () => void;
  const onAsk = (): Promise<{ action: 'accept'; content: { username: string } }> => {
    asked();
    // Unanswered: the replica dies while the call waits for this client.
    return answer ? Promise.resolve({ action: 'accept', content: { username: 'alice' } }) : new Promise(() => {});
  };
  const outcomeOf = (p: Promise<unknown>): Promise<string> =>
    p.then(
      (r) => `${(r as { isError?: boolean }).isError ? 'error result' : 'result'}: ${textOf(r)}`,
      (e: Error) => `rejected: ${e.message}`,
    );
  const call = { name: 'sign_up', arguments: { team: 'red' } };
  if (sdk === 'v2') {
    const client = new ClientV2(
      { name: 'e2e-resume', version: '1' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: 'legacy' } },
    );
    client.setRequestHandler('elicitation/create', onAsk);
    const transport = new TransportV2(new URL(lb.url));
    await client.connect(transport);
    return {
      call: () => {
        const begun = new Promise<void>((r) => (asked = r));
        return { asked: begun, outcome: outcomeOf(client.callTool(call, { timeout: SDK_TIMEOUT_MS })) };
      },
      sessionId: () => transport.sessionId!,
      close: () => client.close().catch(() => undefined),
    };
  }
  const client = new ClientV1({ name: 'e2e-resume', version: '1' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, onAsk);
  const transport = new TransportV1(new URL(lb.url));
  await client.connect(transport);
  return {
    call: () => {
      const begun = new Promise<void>((r) => (asked = r));
      return { asked: begun, outcome: outcomeOf(client.callTool(call, undefined, { timeout: SDK_TIMEOUT_MS })) };
    },
    sessionId: () => transport.sessionId!,
    close: () => client.close().catch(() => undefined),
  };
}

/**
 * SIGKILLs the replica holding `sessionId` and expects its call's `outcome` to be the "replica is gone" error result,
 * well before the SDK's timeout (the client's reconnection delay, 1 s, and HAProxy's retry); returns how long it took.
 */
async function killHolderAndExpectGone(sessionId: string, outcome: Promise<string>): Promise<number> {
  const victim = await holderOf(sessionId);
  trees.push(snapshotTree(victim.child.pid!));
  victim.child.kill('SIGKILL');
  const t0 = Date.now();
  const ended = await Promise.race([outcome, new Promise<string>((r) => setTimeout(() => r('still waiting'), 20_000))]);
  const took = Date.now() - t0;
  expect(ended).toMatch(/^error result: /);
  expect(ended.slice('error result: '.length)).toMatch(GONE);
  expect(took).toBeLessThan(10_000);
  return took;
}

describe('a 2025 call whose stream had begun, on a replica SIGKILLed behind HAProxy', () => {
  for (const sdk of ['v2', 'v1'] as const) {
    it(
      `SDK ${sdk}: a call that asked its client completes as before; one in flight at the kill ends with an error result at once`,
      async () => {
        // The stream's events now carry ids: a call that asked and was answered completes, once.
        const steady = await legacyClient(sdk, true);
        const done = steady.call();
        await done.asked;
        expect(await done.outcome).toBe(
          'result: roots: not declared\nelicitation: accept {"username":"alice"}\nsampling: not declared',
        );
        await steady.close();

        const client = await legacyClient(sdk, false);
        const { asked, outcome } = client.call();
        await asked;
        const took = await killHolderAndExpectGone(client.sessionId(), outcome);
        console.log(`SDK ${sdk}: the call ended ${took} ms after the kill`);
        await client.close();
      },
      TIMEOUT_MS,
    );
  }

  it(
    'a call whose stream carried a progress notification ends the same way',
    async () => {
      const client = new ClientV2({ name: 'e2e-resume', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
      const transport = new TransportV2(new URL(lb.url));
      await client.connect(transport);
      let progressed!: () => void;
      const begun = new Promise<void>((r) => (progressed = r));
      // `wait` sends one progress notification, then waits until cancelled.
      const outcome = client
        .callTool(
          { name: 'wait', arguments: { steps: 1 } },
          { timeout: SDK_TIMEOUT_MS, onprogress: () => progressed() },
        )
        .then(
          (r) => `${(r as { isError?: boolean }).isError ? 'error result' : 'result'}: ${textOf(r)}`,
          (e: Error) => `rejected: ${e.message}`,
        );
      await begun;
      await killHolderAndExpectGone(transport.sessionId!, outcome);
      await client.close().catch(() => undefined);
    },
    TIMEOUT_MS,
  );
});
