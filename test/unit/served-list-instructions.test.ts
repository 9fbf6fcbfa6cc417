// initialize's instructions name every server serve starts, also on a first start that answers before any server has
// listed (issue 40.1): they said "the tools of 0 servers: ." while tools/list then held the servers' tools.
import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../../src/core/tokens/index.js';
import type { ServerDefinition, ServerSnapshot } from '../../src/core/types.js';
import { countingWith } from '../../src/serve/deps.js';
import { ServedList } from '../../src/serve/served-list.js';
import type { ServeSetup } from '../../src/serve/setup.js';

const def = (name: string): ServerDefinition => ({
  name,
  transport: 'stdio',
  command: 'unused',
  enabled: true,
  source: 'test',
  scope: 'explicit',
});

async function listOf(known: Map<string, ServerSnapshot>): Promise<ServedList> {
  const counter = await createTokenCounter('o200k_base');
  const setup = { definitions: [def('notes'), def('files')], known, config: {}, warnings: [], cache: null };
  return new ServedList(
    {
      setup: setup as unknown as ServeSetup,
      mode: 'meta',
      level: 'lossless',
      limit: 20_000,
      key: 'mcp-smart',
      counting: countingWith(counter),
      usage: { tools: {} },
      log: () => undefined,
    },
    () => undefined,
  );
}

describe("initialize's instructions", () => {
  it('name the servers being started before any has listed', async () => {
    const text = (await listOf(new Map())).instructions();
    expect(text).toMatch(/tools of 2 servers: files, notes\./);
  });

  it('name each server once when some have listed', async () => {
    const known = new Map<string, ServerSnapshot>([
      ['notes', { name: 'notes', transport: 'stdio', status: 'ok', tools: [] }],
    ]);
    const text = (await listOf(known)).instructions();
    expect(text).toMatch(/tools of 2 servers: files, notes\./);
  });
});
