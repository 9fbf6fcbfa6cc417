// Load hints as the real Claude Code CLI (pinned devDependency, offline, its own temporary HOME) takes them. Claude
// Code defers MCP tools behind its ToolSearch; it reads `_meta["anthropic/alwaysLoad"]` to keep a tool in the
// prompt and `_meta["anthropic/searchHint"]` in its keyword search (README, "Load hints", cites its code). The CLI
// has no command that prints a tool's `_meta` (`claude mcp list` shows servers only), so this reads what it does with
// them: `claude -p` talks to a local stand-in for the Messages API (test/helpers/scripted-model.ts), which records
// the tools Claude Code sends the model and answers the first turn with a ToolSearch call for a word that only the
// search hint holds. Claude Code runs that search itself and sends back what it found. The same store is served once
// with the hints and once with `--no-load-hints`: only the hints change what the client does.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture, requireBuild } from '../helpers/paths.js';
import { RealClient } from '../helpers/real-clients.js';
import { scriptedModel, systemText, type ModelRequest } from '../helpers/scripted-model.js';

const TIMEOUT_MS = 300_000;
const SEARCH_ID = 'toolu_hint_search';

beforeAll(requireBuild);

interface Seen {
  /** The first request of the turn: the MCP tools sent in full (not deferred), and the system text. */
  loaded: string[];
  deferredNames: string;
  /** Claude Code's own ToolSearch result for the query "memo". */
  searchResult: unknown;
}

async function claudeWithServe(hints: boolean): Promise<Seen> {
  const client = new RealClient('claude');
  const now = Date.now();
  const store = join(client.dir, 'usage.json');
  // search_notes: 40 of 50 successful calls (the default 0.8 coverage → always loaded); create_note: 10 calls and a
  // remembered intent whose word "memo" is in neither its name nor its description.
  writeFileSync(
    store,
    JSON.stringify({
      format: 'mcp-smart/usage@1',
      updatedAt: new Date(now).toISOString(),
      tools: {
        'tiny.search_notes': { success: 40, failure: 0, lastUsed: now, categories: { search: 30 } },
        'tiny.create_note': { success: 10, failure: 0, lastUsed: now, categories: {} },
      },
      intents: {
        'tiny.search_notes': [{ text: 'find my meeting minutes from Tuesday', count: 4, last: now }],
        'tiny.create_note': [{ text: 'jot down a memo about lunch', count: 3, last: now }],
      },
      sessions: {},
    }),
  );
  const config = join(client.dir, 'servers.json');
  writeFileSync(
    config,
    JSON.stringify({
      servers: {
        tiny: {
          command: process.execPath,
          args: [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')],
        },
      },
    }),
  );
  mkdirSync(join(client.dir, 'data'), { recursive: true });
  const serve = [BIN, '--config', config, 'serve', '--mode', 'tools'];
  serve.push('--store', store, ...(hints ? [] : ['--no-load-hints']));
  const add = await client.run(['mcp', 'add', '--scope', 'user', 'smart', '--', process.execPath, ...serve]);
  expect(add.code, add.stderr).toBe(0);

  const model = await scriptedModel((req) =>
    resultOf(req) === undefined
      ? [{ type: 'tool_use', id: SEARCH_ID, name: 'ToolSearch', input: { query: 'memo' } }]
      : [{ type: 'text', text: 'done' }],
  );
  try {
    const run = await client.run(['-p', 'write a memo', '--output-format', 'stream-json', '--verbose'], 240_000, {
      ANTHROPIC_API_KEY: 'sk-ant-placeholder-offline',
      ANTHROPIC_BASE_URL: model.baseUrl,
      // The data folder of the served mcp-smart is inside this client's temporary folder.
      MCP_SMART_DATA_DIR: join(client.dir, 'data'),
      // Claude Code's own setting: `-p` waits for its servers to connect before the first model request (serve answers
      // initialize at once and its first tools/list once the servers behind are up).
      MCP_CONNECTION_NONBLOCKING: 'false',
    });
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
  } finally {
    await model.close();
  }
  const turns = model.requests.filter((r) => r.tools?.some((t) => t.name === 'ToolSearch'));
  const first = turns.find((r) => resultOf(r) === undefined);
  const second = turns.find((r) => resultOf(r) !== undefined);
  if (!first || !second) throw new Error(`claude sent no ToolSearch round trip: ${turns.length} requests with tools`);
  return {
    loaded: (first.tools ?? [])
      .filter((t) => t.name.startsWith('mcp__smart__') && t.defer_loading !== true)
      .map((t) => t.name),
    deferredNames: systemText(first),
    searchResult: resultOf(second),
  };
}

/** The content of the tool_result answering the scripted ToolSearch call, if the request carries it. */
function resultOf(req: ModelRequest): unknown {
  for (const m of req.messages ?? []) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    const hit = m.content.find((b) => b.type === 'tool_result' && b.tool_use_id === SEARCH_ID);
    if (hit) return hit.content;
  }
  return undefined;
}

describe('load hints in the real Claude Code CLI (2.1.332, offline)', () => {
  it(
    'keeps the alwaysLoad tool in the prompt and finds a deferred tool by its search hint; without hints it does neither',
    async () => {
      const withHints = await claudeWithServe(true);
      // alwaysLoad: search_notes is sent to the model in full; every other served tool is deferred, named only.
      expect(withHints.loaded).toEqual(['mcp__smart__search_notes']);
      expect(withHints.deferredNames).toContain('mcp__smart__create_note');
      // searchHint: "memo" is only in create_note's hint ("jot down memo lunch"); Claude Code's search finds it.
      expect(withHints.searchResult).toEqual([{ type: 'tool_reference', tool_name: 'mcp__smart__create_note' }]);

      const without = await claudeWithServe(false);
      expect(without.loaded).toEqual([]);
      expect(without.deferredNames).toContain('mcp__smart__search_notes');
      expect(without.deferredNames).toContain('mcp__smart__create_note');
      expect(JSON.stringify(without.searchResult)).not.toContain('mcp__smart__create_note');
      expect(JSON.stringify(without.searchResult)).toContain('No matching deferred tools found');
    },
    TIMEOUT_MS,
  );
});
