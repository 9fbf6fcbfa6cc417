// serve's cold start in tools mode (issue 40.1): with a fresh HOME (no tool-list cache, no count cache) the first
// tools/list does not wait for the tokenizer — in tools mode what is served does not depend on token counts, so it
// is answered as soon as the servers have listed and the exact counts follow (the "tools mode: …" line says them);
// and a deliberately slow server (catalog-server.mjs --delay-ms) is not waited for past --first-list-wait: the
// first answer holds the fast servers' tools, tools/list_changed then brings the slow one's. Real processes: the
// built CLI over raw JSON-RPC on stdio (what is on the wire, no client library), fixture servers, the o200k tokenizer.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenCounter, renderTool } from '../../src/core/tokens/index.js';
import type { ToolSnapshot } from '../../src/core/types.js';
import { BIN, fixture } from '../helpers/paths.js';
import { openRawStdio, type RawStdio } from '../helpers/raw-stdio.js';
import { node, sandbox, until, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 120_000;
/** The slow server answers its initialize this long after it was spawned. */
const SLOW_MS = 20_000;
const catalog = (name: string, ...flags: string[]) =>
  node(fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', `${name}.json`), ...flags);
/** serve's line once its first listing is done and counted: tools served and their tokens. */
const SAID = /tools mode: .*tools\/list holds (\d+) tools? \(([\d,]+) tokens?\)/;

let box: Sandbox;
beforeAll(async () => {
  box = await sandbox('cold-tools');
});
afterAll(async () => box.remove());

/** A fresh cache and data folder per start: every start here is a first one (no tool-list or count cache). */
const coldEnv = (label: string): Record<string, string> => ({
  ...box.env,
  MCP_SMART_CACHE_DIR: join(box.dir, `cache-${label}`),
  MCP_SMART_DATA_DIR: join(box.dir, `data-${label}`),
});

/** The o200k tokens of the listed definitions, rendered as serve and `budget` count them. */
const tokensOf = async (tools: ToolSnapshot[]): Promise<number> => {
  const counter = await createTokenCounter('o200k_base');
  return tools.reduce((n, t) => n + counter.count(renderTool(t, 'json')), 0);
};

const toolsOf = (reply: { result?: unknown; error?: unknown }): ToolSnapshot[] => {
  expect(reply.error).toBeUndefined();
  return (reply.result as { tools: ToolSnapshot[] }).tools;
};

async function close(raw: RawStdio): Promise<void> {
  raw.child.stdin?.end();
  const exited = await Promise.race([raw.exited, new Promise((r) => setTimeout(() => r('late'), 10_000))]);
  if (exited === 'late') raw.kill();
  await raw.exited;
}

describe('serve in tools mode on a cold machine', () => {
  it(
    'answers the first tools/list before its token counts are taken, and the counts that follow are exact',
    async () => {
      const config = await box.config('fast.json', { tiny: catalog('tiny'), schema: catalog('huge-schema') });
      const raw = openRawStdio(
        process.execPath,
        [BIN, 'serve', '--config', config, '--mode', 'tools', '--no-learn'],
        coldEnv('fast'),
      );
      try {
        await raw.initialize(60_000);
        const tools = toolsOf(await raw.request('tools/list', {}, 60_000));
        const changes = (): number =>
          raw.notifications.filter((n) => n.method === 'notifications/tools/list_changed').length;
        const changedBefore = changes();
        // Nothing counted yet when the answer came: serve says its counts only once the tokenizer has counted them
        // (before issue 40.1 the first tools/list waited for that, the line came first).
        const before = raw.stderr();
        expect(before).not.toMatch(SAID);
        expect(tools.map((t) => t.name).sort()).toEqual([
          'configure_pipeline',
          'create_note',
          'current_time',
          'delete_note',
          'echo',
          'ping',
          'search_notes',
        ]);
        const said = await until(() => SAID.exec(raw.stderr()) ?? undefined, 60_000, 'the counted line');
        expect(Number(said[1])).toBe(tools.length);
        expect(Number(said[2]!.replace(/,/g, ''))).toBe(await tokensOf(tools));
        // What is listed after the counts is what the first answer held, byte for byte: no list change since it.
        expect(toolsOf(await raw.request('tools/list', {}, 30_000))).toEqual(tools);
        expect(changes()).toBe(changedBefore);
      } finally {
        await close(raw);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'answers the first tools/list before a slow server is up, then lists it after tools/list_changed, counted exactly',
    async () => {
      const config = await box.config('slow.json', {
        tiny: catalog('tiny'),
        slow: catalog('huge-schema', '--delay-ms', String(SLOW_MS)),
      });
      const started = Date.now();
      const raw = openRawStdio(
        process.execPath,
        [BIN, 'serve', '--config', config, '--mode', 'tools', '--no-learn', '--first-list-wait', '8000'],
        coldEnv('slow'),
      );
      try {
        await raw.initialize(60_000);
        const first = toolsOf(await raw.request('tools/list', {}, 60_000));
        // The slow server answers SLOW_MS after its spawn, which comes after serve's own start.
        expect(Date.now() - started).toBeLessThan(SLOW_MS);
        expect(first.map((t) => t.name).sort()).toEqual([
          'create_note',
          'current_time',
          'delete_note',
          'echo',
          'search_notes',
        ]);
        await until(
          () => raw.notifications.find((n) => n.method === 'notifications/tools/list_changed'),
          60_000,
          'tools/list_changed',
        );
        const later = toolsOf(await raw.request('tools/list', {}, 30_000));
        expect(later.map((t) => t.name).sort()).toEqual([
          'configure_pipeline',
          'create_note',
          'current_time',
          'delete_note',
          'echo',
          'ping',
          'search_notes',
        ]);
        const said = await until(() => SAID.exec(raw.stderr()) ?? undefined, 60_000, 'the counted line');
        expect(Number(said[1])).toBe(later.length);
        expect(Number(said[2]!.replace(/,/g, ''))).toBe(await tokensOf(later));
      } finally {
        await close(raw);
      }
    },
    TIMEOUT_MS,
  );
});
