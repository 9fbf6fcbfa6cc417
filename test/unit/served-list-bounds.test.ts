// A cold start's first view (issue 40.1): with no count cache, serve does not wait for the tokenizer when what it
// serves cannot depend on the counts — tools mode, or an auto budget that fits with each uncounted text at its byte
// length — and serves a view built with those bounds; the exact counts follow (counts()). When the budget does not fit
// with the bounds, the view waits for the exact counts, as before. Real o200k tokenizer and count cache.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenCounter, renderTool } from '../../src/core/tokens/index.js';
import type { ServerDefinition, ServerSnapshot, ToolSnapshot } from '../../src/core/types.js';
import { countingWith } from '../../src/serve/deps.js';
import { ServedList } from '../../src/serve/served-list.js';
import type { ServeMode, ServedView } from '../../src/serve/served-view.js';
import type { ServeSetup } from '../../src/serve/setup.js';

const tool = (name: string, description: string): ToolSnapshot => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { text: { type: 'string', description: `The ${name} text.` } } },
});
const NOTES = [tool('create_note', 'Create a note with a title and body.'), tool('search', 'Search notes by text.')];
const FILES = [tool('read_file', 'Read a file from the workspace.'), tool('list_dir', 'List a directory.')];
const def = (name: string): ServerDefinition => ({
  name,
  transport: 'stdio',
  command: 'unused',
  enabled: true,
  source: 'test',
  scope: 'explicit',
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-smart-served-bounds-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** A ServedList over the two servers, with a fresh (empty) count cache: every count is a miss until the tokenizer loads. */
async function cold(label: string, mode: ServeMode, limit: number, listed = ['notes', 'files']) {
  const counter = await createTokenCounter('o200k_base', { cacheDir: join(dir, label), deferLoad: true });
  const lists: Record<string, ToolSnapshot[]> = { notes: NOTES, files: FILES };
  const known = new Map<string, ServerSnapshot>(
    listed.map((name) => [name, { name, transport: 'stdio', status: 'ok', tools: lists[name]! }]),
  );
  const setup = { definitions: [def('notes'), def('files')], known, config: {}, warnings: [], cache: null };
  const list = new ServedList(
    {
      setup: setup as unknown as ServeSetup,
      mode,
      level: 'lossless',
      limit,
      key: 'mcp-smart',
      counting: countingWith(counter),
      usage: { tools: {} },
      log: () => undefined,
    },
    () => undefined,
  );
  return { list, counter };
}

/** The exact o200k tokens of what a view serves (a counter with the tokenizer loaded, no cache). */
async function exact(view: ServedView): Promise<number> {
  const counter = await createTokenCounter('o200k_base');
  return view.tools.reduce((n, t) => n + counter.count(renderTool(t.definition, 'json')), 0);
}
const bytes = (view: ServedView): number =>
  view.tools.reduce((n, t) => n + Buffer.byteLength(renderTool(t.definition, 'json')), 0);
const served = (view: ServedView): string[] => view.tools.map((t) => JSON.stringify(t.definition));

describe('the first view on a cold count cache', () => {
  it('tools mode: served with byte bounds at once (no tokenizer), the same tools with exact counts after', async () => {
    const { list, counter } = await cold('tools', 'tools', 20_000);
    await list.init(false);
    const first = list.view;
    // Nothing tokenized yet: each count is its text's UTF-8 byte length, above the exact count.
    expect(counter.stats?.().misses).toBe(0);
    expect(first.tokens).toBe(bytes(first));
    await list.counts();
    expect(served(list.view)).toEqual(served(first));
    expect(list.view.tokens).toBe(await exact(list.view));
    expect(list.view.tokens).toBeLessThan(first.tokens);
  });

  it('auto mode whose budget fits with the bounds: served at once, every tool first-class, then counted', async () => {
    const { list, counter } = await cold('auto-fits', 'auto', 20_000);
    await list.init(false);
    expect(counter.stats?.().misses).toBe(0);
    expect(list.view.plan?.fits).toBe(true);
    expect(list.view.deferred).toEqual([]);
    const first = served(list.view);
    await list.counts();
    expect(served(list.view)).toEqual(first);
    expect(list.view.tokens).toBe(await exact(list.view));
  });

  it('auto mode whose budget does not fit with the bounds: the view waits for the exact counts', async () => {
    // Between the exact total and the byte bound: fits exactly, not with the bounds.
    const probe = await cold('probe', 'tools', 20_000);
    await probe.list.init(false);
    const upper = probe.list.view.tokens;
    await probe.list.counts();
    const limit = Math.floor((upper + probe.list.view.tokens) / 2);
    expect(limit).toBeGreaterThan(probe.list.view.tokens);
    expect(limit).toBeLessThan(upper);
    const { list, counter } = await cold('auto-tight', 'auto', limit);
    await list.init(false);
    // Counted before the view was served: exact, and the plan is the exact one (fits, nothing deferred).
    expect(counter.stats?.().misses).toBeGreaterThan(0);
    expect(list.view.tokens).toBe(await exact(list.view));
    expect(list.view.plan?.fits).toBe(true);
    expect(list.view.deferred).toEqual([]);
  });
});

// initialize's instructions name every server serve starts, also on a first start that answers before any server has
// listed (issue 40.1): they said "the tools of 0 servers: ." while tools/list then held the servers' tools.
describe("initialize's instructions", () => {
  it('name the servers being started before any has listed, and each once when some have', async () => {
    for (const listed of [[], ['notes']]) {
      const { list } = await cold(`instructions-${listed.length}`, 'meta', 20_000, listed);
      expect(list.instructions()).toMatch(/tools of 2 servers: files, notes\./);
    }
  });
});
