// `serve --mode tools` sets the `_meta` keys Claude Code reads (anthropic/alwaysLoad, anthropic/searchHint) on the
// tools the usage store says the team uses, as a real MCP client lists them; `--no-load-hints` sets none.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { connectServeStdio, node, sandbox, type Sandbox } from './serve-harness.js';

let box: Sandbox;
let config: string;
const day = 86_400_000;
const now = 1_790_000_000_000;
beforeAll(async () => {
  box = await sandbox('serve-hints');
  config = await box.config('servers.json', {
    tiny: node(fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')),
  });
  await mkdir(box.env.MCP_SMART_DATA_DIR!, { recursive: true });
  await writeFile(
    join(box.env.MCP_SMART_DATA_DIR!, 'usage.json'),
    JSON.stringify({
      format: 'mcp-smart/usage@1',
      updatedAt: new Date(now).toISOString(),
      tools: {
        'tiny.search_notes': { success: 40, failure: 0, lastUsed: now, categories: { search: 30 } },
        'tiny.create_note': { success: 10, failure: 0, lastUsed: now - day, categories: {} },
        'tiny.delete_note': { success: 0, failure: 2, lastUsed: now - day, categories: {} },
      },
      intents: { 'tiny.search_notes': [{ text: 'find my meeting minutes from Tuesday', count: 4, last: now }] },
      sessions: {},
    }),
  );
});
afterAll(async () => {
  await box?.remove();
});

const metaOf = async (args: string[], mode = 'tools'): Promise<Record<string, Record<string, unknown> | undefined>> => {
  const { client } = await connectServeStdio(box.env, ['--config', config, '--mode', mode, ...args], {});
  try {
    const { tools } = await client.listTools();
    return Object.fromEntries(tools.map((t) => [t.name, t._meta]));
  } finally {
    await client.close();
  }
};

describe('serve load hints', () => {
  it('the most used tools are alwaysLoad, with a search hint from their remembered intents; unused tools get neither', async () => {
    const meta = await metaOf([]);
    // search_notes covers 40 of 50 calls (the default 0.8 coverage): it alone is always loaded.
    expect(meta.search_notes).toEqual({
      'anthropic/alwaysLoad': true,
      // "search" (its category) is a word of its name already: left out.
      'anthropic/searchHint': 'find meeting minutes tuesday',
    });
    expect(meta.create_note?.['anthropic/alwaysLoad']).toBeUndefined();
    expect(meta.delete_note).toBeUndefined();
    expect(meta.echo).toBeUndefined();
  });

  it('auto mode sets the same hints on the tools it serves first-class', async () => {
    const meta = await metaOf([], 'auto');
    expect(meta.search_notes).toEqual({
      'anthropic/alwaysLoad': true,
      'anthropic/searchHint': 'find meeting minutes tuesday',
    });
    expect(meta.create_note?.['anthropic/alwaysLoad']).toBeUndefined();
    expect(meta.delete_note).toBeUndefined();
  });

  it('--no-load-hints sets none', async () => {
    const meta = await metaOf(['--no-load-hints']);
    expect(
      Object.values(meta).filter((m) => m && ('anthropic/alwaysLoad' in m || 'anthropic/searchHint' in m)),
    ).toEqual([]);
  });
});
