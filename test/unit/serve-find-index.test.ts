// find_tool's ranking index follows the served list: a list change while the index is being built (real builds,
// the shipped word vectors) must not leave the index of the old list in place, keyed as current, until the next change.
import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../../src/core/tokens/index.js';
import { catalogEntries, type ServedView } from '../../src/serve/served-view.js';
import { countingWith } from '../../src/serve/deps.js';
import { ToolFinder } from '../../src/serve/find.js';
import type { ServerSnapshot, ToolSnapshot } from '../../src/core/types.js';

const counting = countingWith(await createTokenCounter('o200k_base'));

const server = (tools: ToolSnapshot[]): ServerSnapshot => ({ name: 'files', transport: 'stdio', status: 'ok', tools });
const tool = (name: string, description: string): ToolSnapshot => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
});
const BEFORE = server([
  tool('read_file', 'Reads a text file from disk and returns its contents.'),
  tool('list_directory', 'Lists the entries of a directory.'),
]);
const AFTER = server([...BEFORE.tools, tool('send_invoice', 'Emails an invoice for an order to the customer.')]);

function viewOf(s: ServerSnapshot): ServedView {
  const entries = catalogEntries([s], { filters: new Map() });
  return { entries: new Map(entries.map((e) => [e.id, e])), servedNameOf: new Map() } as unknown as ServedView;
}

function finderOver(current: { server: ServerSnapshot }): ToolFinder {
  return new ToolFinder({
    view: () => viewOf(current.server),
    known: () => [current.server],
    config: {},
    usage: { tools: {} },
    now: () => 0,
    counting,
    found: () => undefined,
    unavailable: () => undefined,
    unstarted: () => [],
    indexCacheDir: undefined,
  });
}

const foundIds = async (finder: ToolFinder, intent: string): Promise<string[]> => {
  const answer = await finder.find({ intent, k: 5 });
  const text = (answer.content[0] as { text: string }).text;
  return (JSON.parse(text) as { results: { id: string }[] }).results.map((r) => r.id);
};

describe('find_tool index and list changes', () => {
  it('a list change during the build leaves the index of the new list, not the old one', async () => {
    const current = { server: BEFORE };
    const finder = finderOver(current);
    const building = finder.warm(); // reads the list now; the build finishes later
    current.server = AFTER;
    finder.invalidate();
    await building;
    expect(await foundIds(finder, 'email the invoice to the customer')).toContain('files.send_invoice');
  });

  it('a find waiting on a build that a change made stale answers from the new list', async () => {
    const current = { server: BEFORE };
    const finder = finderOver(current);
    void finder.warm();
    const finding = foundIds(finder, 'email the invoice to the customer');
    current.server = AFTER;
    finder.invalidate();
    expect(await finding).toContain('files.send_invoice');
  });

  it('without a change the built index is kept and answers', async () => {
    const current = { server: AFTER };
    const finder = finderOver(current);
    await finder.warm();
    expect(await foundIds(finder, 'read a text file')).toContain('files.read_file');
  });
});
