// Shutdown after a burst, with real processes: SIGTERM (or the client closing stdin) while thousands of calls are
// answered or queued writes every learned call to the usage store — it used to drop them, since a stopped run
// refused every write — and records each labelled case once, not once per call; serve exits within its bound
// (5 s: servers get 1.75 s to end, the learning 3 s, side by side) and no server process is left.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain ESM helper shared with the benchmark (no types)
import { startRaw } from '../../bench/helpers/raw-stdio.mjs';
import { BIN, fixture } from '../helpers/paths.js';
import { expectTreeGone, killTree, snapshotTree, type ProcessInfo } from '../helpers/process-tree.js';
import { sandbox, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 90_000;
const CATALOG_SERVER = fixture('servers', 'catalog-server.mjs');

interface Msg {
  error?: unknown;
  result?: { isError?: boolean; content?: { text: string }[] };
}
interface Raw {
  request: (method: string, params?: unknown) => Promise<Msg>;
  open: () => Promise<unknown>;
  stderr: () => string;
  child: { pid: number; kill: (s: string) => void; stdin: { end: () => void } };
  exited: Promise<{ code: number | null; signal: string | null }>;
}
interface ToolUsage {
  success: number;
  failure: number;
}

let box: Sandbox;
let tree: ProcessInfo[] = [];
beforeEach(async () => {
  box = await sandbox('serve-shutdown');
});
afterEach(async () => {
  killTree(tree);
  await box.remove();
});

function startServe(servers: Record<string, string[]>): { serve: Raw; store: string; record: string } {
  const config = join(box.dir, 'servers.json');
  const mcpServers = Object.fromEntries(
    Object.entries(servers).map(([name, args]) => [name, { command: process.execPath, args }]),
  );
  writeFileSync(config, JSON.stringify({ mcpServers }));
  const store = join(box.dir, 'usage.json');
  const record = join(box.dir, 'cases.jsonl');
  const args = [BIN, '--config', config, 'serve', '--mode', 'meta', '--store', store, '--record', record];
  return { serve: startRaw(process.execPath, args, { env: box.env, cwd: box.dir }) as Raw, store, record };
}

const found = async (serve: Raw, intent: string): Promise<string> => {
  const r = await serve.request('tools/call', { name: 'find_tool', arguments: { intent } });
  return (JSON.parse(r.result?.content?.[0]?.text ?? '{}') as { results: { id: string }[] }).results[0]!.id;
};
const callTool = (serve: Raw, id: string, args: Record<string, unknown>) =>
  serve.request('tools/call', { name: 'call_tool', arguments: { name: id, arguments: args } });

/**
 * Waits for serve's summary line: its servers have listed and their tokens are counted. The tokenizer's load (about
 * 0.1 s of CPU on an idle machine from the built rank table, bench:tokload; 0.5 s before it, seconds on a busy
 * machine) runs in the background once the lists are in, and holds the event loop, signals included; these tests
 * time the shutdown itself, so they signal after it.
 */
async function listed(serve: Raw): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!/tools\/list holds \d+ tools? \(/.test(serve.stderr())) {
    if (Date.now() > deadline) throw new Error(`serve printed no summary line within 60 s:\n${serve.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function storeOf(file: string): Record<string, ToolUsage> {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { tools: Record<string, ToolUsage> }).tools : {};
}

describe('serve shutdown after a burst', () => {
  it(
    'SIGTERM with 2,000 calls in flight: every forwarded call is in the store, one labelled case, exit 143 within 5 s',
    async () => {
      const { serve, store, record } = startServe({
        tiny: [CATALOG_SERVER, fixture('servers', 'catalogs', 'tiny.json')],
      });
      await serve.open();
      const id = await found(serve, 'search my notes for a keyword');
      await listed(serve);
      const calls = Array.from({ length: 2000 }, (_, i) => callTool(serve, id, { query: `q${i}` }));
      let answered = 0;
      await new Promise<void>((resolve) => calls.forEach((c) => void c.then(() => ++answered === 1000 && resolve())));
      tree = snapshotTree(serve.child.pid);
      const t = performance.now();
      serve.child.kill('SIGTERM');
      expect((await serve.exited).code).toBe(143);
      expect(performance.now() - t).toBeLessThan(5_000);
      await expectTreeGone(tree);
      const usage = storeOf(store)[id];
      // Each call serve forwarded is learned: at least those answered before the signal, at most all 2,000.
      expect(usage?.success ?? 0).toBeGreaterThanOrEqual(1000);
      expect((usage?.success ?? 0) + (usage?.failure ?? 0)).toBeLessThanOrEqual(2000);
      expect(serve.stderr()).not.toContain('could not');
      // One find, one tool: one labelled case, however many times the tool was called.
      expect(readFileSync(record, 'utf8')).toBe(
        JSON.stringify({ intent: 'search my notes for a keyword', expected: [id] }) + '\n',
      );
    },
    TIMEOUT_MS,
  );

  it(
    'stdin closing after 40 finds and 400 calls: 400 calls learned, 40 distinct cases, exit 0',
    async () => {
      const { serve, store, record } = startServe({
        tiny: [CATALOG_SERVER, fixture('servers', 'catalogs', 'tiny.json')],
      });
      await serve.open();
      const cases: string[] = [];
      const calls: Promise<Msg>[] = [];
      for (let i = 0; i < 40; i++) {
        const intent = `search my notes for keyword number ${i}`;
        const id = await found(serve, intent);
        cases.push(JSON.stringify({ intent, expected: [id] }));
        // The first call answers before the next find (a call is credited to the newest find that returned its tool).
        calls.push(Promise.resolve(await callTool(serve, id, { query: `q${i}-0` })));
        for (let j = 1; j < 10; j++) calls.push(callTool(serve, id, { query: `q${i}-${j}` }));
      }
      const answers = await Promise.all(calls);
      expect(answers.filter((a) => a.result && a.result.isError !== true)).toHaveLength(400);
      serve.child.stdin.end();
      expect((await serve.exited).code).toBe(0);
      const total = Object.values(storeOf(store)).reduce((n, u) => n + u.success, 0);
      expect(total).toBe(400);
      expect(readFileSync(record, 'utf8').trimEnd().split('\n')).toEqual(cases);
    },
    TIMEOUT_MS,
  );

  it(
    'SIGTERM with 300 calls hanging on a server that ignores SIGTERM behind a wrapper: exit 143 within 5 s, no process left',
    async () => {
      const faults = fixture('servers', 'misbehaving', 'call-faults.mjs');
      const { serve, store } = startServe({
        faults: [fixture('servers', 'misbehaving', 'wrapper.mjs'), faults, '--ignore-sigterm'],
      });
      await serve.open();
      const echo = await callTool(serve, 'faults.echo', { text: 'up' });
      expect(echo.result?.content?.[0]?.text).toBe('up');
      await listed(serve);
      const hanging = Array.from({ length: 300 }, () => callTool(serve, 'faults.hang_forever', {}));
      await new Promise((r) => setTimeout(r, 300));
      tree = snapshotTree(serve.child.pid);
      expect(tree.filter((p) => p.command.includes('call-faults.mjs'))).toHaveLength(2);
      const t = performance.now();
      serve.child.kill('SIGTERM');
      expect((await serve.exited).code).toBe(143);
      expect(performance.now() - t).toBeLessThan(5_000);
      await expectTreeGone(tree);
      void hanging; // never answered: serve is gone
      // The call answered before the signal is in the store.
      expect(storeOf(store)['faults.echo']?.success).toBe(1);
    },
    TIMEOUT_MS,
  );
});
