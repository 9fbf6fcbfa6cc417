// fixtures/snapshots/duplicate-ids.json: server `notes` lists `search_notes` twice, and server `a.b` tool `c` makes
// the id of server `a` tool `b.c`. discover named both tools of each pair by one id; it now gives each the id serve
// serves it under (`#2`), so every ranked id is one call_tool knows and none repeats.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogEntries } from '../../src/serve/served-view.js';
import type { ServerSnapshot } from '../../src/core/types.js';
import { fixture } from '../helpers/paths.js';
import { runCli } from '../helpers/fake-io.js';
import { tempDir } from '../helpers/temp.js';

const SNAP = fixture('snapshots', 'duplicate-ids.json');

describe('discover on duplicate-ids', () => {
  it.each(['hybrid', 'keyword', 'bm25'])(
    '%s: no id twice, each the id serve serves that tool under',
    async (engine) => {
      const env = { HOME: tempDir('mcp-smart-dup-ids-'), NO_COLOR: '1' };
      const served = catalogEntries((JSON.parse(readFileSync(SNAP, 'utf8')) as { servers: ServerSnapshot[] }).servers, {
        filters: new Map(),
      });
      const byId = new Map([...served].map((e) => [e.id, `${e.server}/${e.tool.description}`]));
      for (const intent of ['search notes', 'calendar event']) {
        const r = await runCli(['--snapshot', SNAP, '--json', 'discover', intent, '--engine', engine, '-k', '6'], {
          env,
        });
        expect(r.code).toBe(0);
        const results = (JSON.parse(r.stdout) as { results: { id: string; server: string; tool: string }[] }).results;
        const ids = results.map((x) => x.id);
        expect(new Set(ids).size).toBe(ids.length);
        for (const x of results) expect(byId.has(x.id), x.id).toBe(true);
      }
      const all = await runCli(['--snapshot', SNAP, '--json', 'discover', 'search notes', '--engine', engine], { env });
      const ids = (JSON.parse(all.stdout) as { results: { id: string }[] }).results.map((x) => x.id);
      expect(ids).toEqual(expect.arrayContaining(['notes.search_notes', 'notes.search_notes#2']));
    },
  );
});
