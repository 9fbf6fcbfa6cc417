// Three `serve --transport http` replicas (dist) sharing a real PostgreSQL store and one state key, behind a real
// HAProxy (round-robin, sticking on Mcp-Session-Id), a 2025 server that asks its client mid-call behind each:
// - a 2026-07-28 call held on one replica is resumed by its retries on the others (sealed requestState, forwarded
//   to the owner), and an altered state is refused;
// - through HAProxy an SDK client's input_required rounds complete, and a 2025 client keeps its session;
// - with the database down, a round still reaches the replica holding it;
// - one replica SIGKILLed: a round for a call it held ends in a clear error result at once, a call in flight on it
//   ends with an error its client sees, the others keep answering; the store's learned calls equal those that
//   succeeded;
// - a replica SIGKILLed the moment its last answer arrived (5 times, a fresh replica each): the store already holds
//   every call it answered (answers wait for their learned call to commit), exactly, with no wait after the kill.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, fixture } from '../helpers/paths.js';
import { PG_PASSWORD, startPostgres, type PgServer } from '../helpers/postgres.js';
import { haproxyConfig, startHaproxy, type RunningHaproxy } from '../helpers/haproxy.js';
import { postModernCall } from '../helpers/modern-call.mjs';
import { node, sandbox, startServeHttp, textOf, type Sandbox, type StartedServe } from './serve-harness.js';

const TIMEOUT_MS = 90_000;
const ALL: ClientCapabilities = { roots: { listChanged: true }, elicitation: {}, sampling: {} };
const ANSWERED = [
  'roots: file:///stand-in/project',
  'elicitation: accept {"username":"alice"}',
  'sampling: stand-in-model said Welcome, alice!',
].join('\n');

let pg: PgServer;
let box: Sandbox;
let db: string;
let serveArgs: string[];
let serveEnv: Record<string, string>;
const replicas: StartedServe[] = [];
let lb: RunningHaproxy;
/** Calls answered without error, per tool: what the store must have learned. */
const succeeded = { sign_up: 0, echo: 0 };

beforeAll(async () => {
  pg = await startPostgres();
  box = await sandbox('replicas');
  db = await pg.createDatabase('replicas');
  const keyFile = join(box.dir, 'state.key');
  await writeFile(keyFile, '# the first line seals\nq2Zz8y0N1v5cL3aT7wR4eU6iO9pS2dF5gH8jK1lM4nB7\n');
  const config = await box.config('servers.json', { asks: node(fixture('servers', 'asks-client.mjs')) });
  const args = ['--config', config, '--mode', 'tools', '--store', db, '--state-key-file', keyFile, '--debug'];
  const env = { ...box.env, PGPASSWORD: PG_PASSWORD };
  [serveArgs, serveEnv] = [args, env];
  // One after the other: the first writes the count cache the others then start from.
  for (let i = 0; i < 3; i++) replicas.push(await startServeHttp(env, args));
  lb = await startHaproxy(
    box.dir,
    replicas.map((r) => new URL(r.url).host),
  );
}, TIMEOUT_MS);

afterAll(async () => {
  await lb?.stop();
  for (const r of replicas) await r.stop();
  await pg?.stop();
  await box?.remove();
});

/** A 2026-07-28 tools/call over HTTP, as the wire carries it (test/helpers/modern-call.mjs). */
const post = (url: string, params: Record<string, unknown>): ReturnType<typeof postModernCall> =>
  postModernCall(url, params);

/** The rounds of sign_up with the three answers; each retry goes to the next of `urls`. */
async function signUp(urls: string[]): Promise<Record<string, unknown>> {
  const call = { name: 'sign_up', arguments: { team: 'red' } };
  const answers: Record<string, unknown> = {
    'roots-1': { roots: [{ uri: 'file:///stand-in/project', name: 'project' }] },
    'elicitation-2': { action: 'accept', content: { username: 'alice' } },
    'sampling-3': { model: 'stand-in-model', role: 'assistant', content: { type: 'text', text: 'Welcome, alice!' } },
  };
  let r = (await post(urls[0]!, call)).result!;
  for (let i = 1; r.resultType === 'input_required'; i++) {
    const asked = Object.keys(r.inputRequests as object);
    const inputResponses = Object.fromEntries(asked.map((k) => [k, answers[k]]));
    const next = await post(urls[i % urls.length]!, { ...call, requestState: r.requestState, inputResponses });
    if (!next.result) throw new Error(`round ${i}: ${JSON.stringify(next.error)}`);
    r = next.result;
  }
  return r;
}

const count = (pattern: RegExp): number =>
  replicas.reduce((n, r) => n + (r.stderr().match(new RegExp(pattern, 'g')) ?? []).length, 0);

async function connect(url: string, mode: 'legacy' | { pin: '2026-07-28' }): Promise<Client> {
  const client = new Client(
    { name: 'e2e-replicas', version: '1' },
    { capabilities: ALL, versionNegotiation: { mode } },
  );
  client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///stand-in/project', name: 'project' }] }));
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { username: 'alice' } }));
  client.setRequestHandler('sampling/createMessage', () => ({
    model: 'stand-in-model',
    role: 'assistant',
    content: { type: 'text', text: 'Welcome, alice!' },
  }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe('serve replicas sharing a state key and a PostgreSQL store', () => {
  it(
    'a call held on one replica is resumed by retries sent to the other two; an altered state is refused',
    async () => {
      const [a, b, c] = replicas.map((r) => r.url);
      const done = await signUp([a!, b!, c!, b!]);
      expect(done.resultType).toBe('complete');
      expect(textOf(done)).toBe(ANSWERED);
      succeeded.sign_up++;
      // Three retries, none on the replica holding the call: each was forwarded to it and answered there.
      expect(count(/forwarded to replica/)).toBe(3);
      expect(replicas[0]!.stderr().match(/answering a round of "tools\/call sign_up"/g)).toHaveLength(3);

      const r1 = (await post(a!, { name: 'sign_up', arguments: { team: 'x' } })).result!;
      const state = String(r1.requestState);
      const cut = state.lastIndexOf('.') + 5;
      const altered = state.slice(0, cut) + (state[cut] === 'A' ? 'B' : 'A') + state.slice(cut + 1);
      const refused = await post(b!, { name: 'sign_up', arguments: { team: 'x' }, requestState: altered });
      expect(refused.error?.code).toBe(-32602);
      expect(refused.error?.message).toBe('Invalid requestState: it was altered (its seal does not verify)');
      const wrongTool = await post(c!, { name: 'echo', arguments: {}, requestState: state });
      expect(wrongTool.error?.message).toBe('Invalid requestState: it was issued for another request');
    },
    TIMEOUT_MS,
  );

  it(
    'through HAProxy: a 2026-07-28 client’s rounds complete across replicas; a 2025 client keeps its session',
    async () => {
      const before = count(/forwarded to replica/);
      const modern = await connect(lb.url, { pin: '2026-07-28' });
      for (let i = 0; i < 3; i++) {
        expect(textOf(await modern.callTool({ name: 'sign_up', arguments: { team: 'red' } }))).toBe(ANSWERED);
        succeeded.sign_up++;
      }
      await modern.close();
      // Round-robin sends most retries to a replica other than the one holding the call.
      expect(count(/forwarded to replica/) - before).toBeGreaterThanOrEqual(3);

      // A 2025 session lives in the replica that answered its initialize: every later request must reach it.
      const legacy = await connect(lb.url, 'legacy');
      expect(legacy.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      expect(textOf(await legacy.callTool({ name: 'sign_up', arguments: { team: 'red' } }))).toBe(ANSWERED);
      succeeded.sign_up++;
      for (let i = 0; i < 6; i++) {
        expect(textOf(await legacy.callTool({ name: 'echo', arguments: { text: `s${i}` } }))).toBe(`s${i}`);
        succeeded.echo++;
      }
      await legacy.close();
    },
    TIMEOUT_MS,
  );

  it(
    'with the database down, a round still reaches the replica holding it (its sealed address), and learning catches up',
    async () => {
      const [a, b] = replicas.map((r) => r.url);
      await pg.pause();
      try {
        const done = await signUp([a!, b!]);
        expect(textOf(done)).toBe(ANSWERED);
        succeeded.sign_up++;
      } finally {
        await pg.start();
      }
      // Written once the store is back (the SIGKILL case below checks the store's counts against every success).
    },
    TIMEOUT_MS,
  );

  it(
    'a replica SIGKILLed as its last answer arrives has lost none of the calls it answered (5 times, exact)',
    async () => {
      // What the database-down case learned is written when the store is back (its retry): wait for that first.
      await expect.poll(() => learned(), { timeout: 40_000, interval: 250 }).toEqual(succeeded);
      for (let round = 0; round < 5; round++) {
        const victim = await startServeHttp(serveEnv, serveArgs);
        try {
          const legacy = await connect(victim.url, 'legacy');
          // Concurrent calls from a 2025 session and 2026-07-28 wire calls, one with input_required rounds.
          const answers = await Promise.all([
            ...Array.from({ length: 6 }, (_, i) => legacy.callTool({ name: 'echo', arguments: { text: `k${i}` } })),
            ...Array.from({ length: 6 }, (_, i) => post(victim.url, { name: 'echo', arguments: { text: `w${i}` } })),
            signUp([victim.url]),
          ]);
          // SIGKILL now: no shutdown, no final flush.
          victim.child.kill('SIGKILL');
          expect(answers.slice(0, 6).map((r) => textOf(r))).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5']);
          const wire = answers.slice(6, 12) as Awaited<ReturnType<typeof post>>[];
          expect(wire.map((r) => textOf(r.result))).toEqual(['w0', 'w1', 'w2', 'w3', 'w4', 'w5']);
          expect(textOf(answers[12])).toBe(ANSWERED);
          succeeded.echo += 12;
          succeeded.sign_up++;
          expect(await learned(), `round ${round}`).toEqual(succeeded);
          await legacy.close().catch(() => undefined);
        } finally {
          victim.child.kill('SIGKILL');
          await victim.stop();
        }
      }
    },
    TIMEOUT_MS * 2,
  );

  it(
    'one replica SIGKILLed: its held round and its call in flight end in errors, the others answer, nothing learned is lost or doubled',
    async () => {
      const [a, , c] = replicas.map((r) => r.url);
      const victim = replicas[2]!;
      // Calls that succeed on the victim before it dies (each answered once its learned call was committed).
      const onVictim = await connect(c!, 'legacy');
      for (let i = 0; i < 3; i++) {
        expect(textOf(await onVictim.callTool({ name: 'echo', arguments: { text: 'v' } }))).toBe('v');
        succeeded.echo++;
      }
      const held = (await post(c!, { name: 'sign_up', arguments: { team: 'gone' } })).result!;
      expect(held.resultType).toBe('input_required');
      // A call in flight on the victim (it waits until cancelled), as a 2026-07-28 client sends it.
      const inFlight = post(c!, { name: 'wait', arguments: { steps: 1 } }).then(
        (r) => `answered ${JSON.stringify(r)}`,
        (e: Error) => `error: ${e.message}`,
      );
      await new Promise((r) => setTimeout(r, 500));

      victim.child.kill('SIGKILL');
      const t0 = Date.now();
      expect(await learned()).toEqual(succeeded);
      const lost = await post(a!, {
        name: 'sign_up',
        arguments: { team: 'gone' },
        requestState: held.requestState,
        inputResponses: { 'roots-1': { roots: [] } },
      });
      expect(Date.now() - t0).toBeLessThan(5_000);
      expect(lost.result?.isError).toBe(true);
      expect(textOf(lost.result)).toMatch(
        /^mcp-smart: the replica that held this call \([0-9a-f-]{36}\) is gone: connection (refused|reset)\. The call was lost with it; call the tool again\.$/,
      );
      // Its client sees the connection end at once (an SDK client may first try to resume the stream).
      expect(await inFlight).toMatch(/^error: (fetch failed|terminated)$/);
      expect(Date.now() - t0).toBeLessThan(5_000);
      await onVictim.close().catch(() => undefined);

      // The others keep answering, through HAProxy too (it stops sending to the dead replica).
      const modern = await connect(lb.url, { pin: '2026-07-28' });
      for (let i = 0; i < 10; i++) {
        expect(textOf(await modern.callTool({ name: 'echo', arguments: { text: `e${i}` } }))).toBe(`e${i}`);
        succeeded.echo++;
      }
      expect(textOf(await modern.callTool({ name: 'sign_up', arguments: { team: 'red' } }))).toBe(ANSWERED);
      succeeded.sign_up++;
      await modern.close();
      // The survivors stop cleanly (their last learned calls written); the store holds each success once.
      expect(await replicas[0]!.stop()).toBe(143);
      expect(await replicas[1]!.stop()).toBe(143);
      expect(await learned()).toEqual(succeeded);
    },
    TIMEOUT_MS,
  );

  it('docs/team.md shows the HAProxy config this test runs', async () => {
    const readme = await readFile(join(REPO, 'docs', 'team.md'), 'utf8');
    const shown = haproxyConfig('0.0.0.0:8808', ['10.0.0.11:8808', '10.0.0.12:8808', '10.0.0.13:8808']);
    expect(readme).toContain('```text\n' + shown + '```');
  });
});

/** Successful calls per tool as the store holds them (its `success` counts). */
async function learned(): Promise<{ sign_up: number; echo: number }> {
  const rows = (await pg.query('replicas', 'SELECT tool_id, success FROM mcp_smart_tools').catch(() => [])) as {
    tool_id: string;
    success: number;
  }[];
  const of = (tool: string): number =>
    rows.filter((r) => r.tool_id.endsWith(tool)).reduce((n, r) => n + Number(r.success), 0);
  return { sign_up: of('sign_up'), echo: of('echo') };
}
