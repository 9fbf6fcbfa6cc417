// serve --snapshot from the catalogue start cache: meta mode answers initialize and tools/list from it and reads the
// snapshot in full before the first call, so every answer is the one a --no-cache serve gives; a snapshot gone by
// then is a clear error on that call (serve stays up and reads it again on the next one); tools mode reads it in
// full at start (its list carries the schemas).
import { copyFileSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RACY_MS, catalogueCacheFile, readCatalogue } from '../../src/app/services/catalogue/snapshot-files.js';
import { BIN, fixture, requireBuild } from '../helpers/paths.js';
import { closeRawStdio, openRawStdio, type RawStdio } from '../helpers/raw-stdio.js';
import { sandboxEnv } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

requireBuild();
const open: RawStdio[] = [];
afterEach(() => closeRawStdio(open));

/** A snapshot copy and a cache folder whose start cache already holds it (as a run some seconds after the copy). */
async function setup(): Promise<{ dir: string; snap: string; env: NodeJS.ProcessEnv }> {
  const dir = tempDir('mcp-smart-serve-catalogue-');
  const snap = join(dir, 'tools.snapshot.json');
  copyFileSync(fixture('snapshots', 'discover-ok.json'), snap);
  const cache = join(dir, 'cache');
  const later = (): number => Date.now() + RACY_MS + 1000;
  await readCatalogue([snap], dir, { cacheDir: cache, now: later });
  readFileSync(catalogueCacheFile(cache, [snap], dir)); // written
  return { dir, snap, env: sandboxEnv(dir, { MCP_SMART_CACHE_DIR: cache, MCP_SMART_DATA_DIR: join(dir, 'data') }) };
}

/** serve on the snapshot: `global` options before the command, then the mode. */
function serve(snap: string, env: NodeJS.ProcessEnv, global: string[], mode = 'meta'): RawStdio {
  const args = [BIN, '--snapshot', snap, ...global, 'serve', '--mode', mode, '--no-learn'];
  const s = openRawStdio(process.execPath, args, env);
  open.push(s);
  return s;
}

/** initialize, tools/list and three meta-tool calls, as the client sees them. */
async function session(s: RawStdio): Promise<unknown[]> {
  const out: unknown[] = [await s.initialize(), await s.request('tools/list')];
  for (const [name, args] of [
    ['find_tool', { intent: 'create a new issue' }],
    ['describe_tool', { name: 'github.create_issue' }],
    ['list_tools', {}],
  ] as const)
    out.push(await s.request('tools/call', { name, arguments: args }));
  return out;
}

describe('serve from the catalogue start cache', () => {
  it('meta mode: every answer equals a --no-cache serve; the first call waits for the schemas', async () => {
    const { snap, env } = await setup();
    const lean = serve(snap, env, ['--debug']);
    const cached = await session(lean);
    const fresh = await session(serve(snap, env, ['--no-cache', '--debug']));
    expect(cached).toEqual(fresh);
    expect(lean.stderr()).toContain('tool lists from the catalogue start cache');
    const described = JSON.stringify(cached[3]);
    expect(described).toContain('inputSchema');
  }, 60_000);

  it('a snapshot gone before the first call: that call says which file; serve stays up and reads it once back', async () => {
    const { snap, env } = await setup();
    const s = serve(snap, env, []);
    await s.initialize();
    // Gone before tools/list, which is answered from the cache (the full read it then starts fails quietly).
    renameSync(snap, `${snap}.away`);
    const list = (await s.request('tools/list')).result as { tools: { name: string }[] };
    expect(list.tools.map((t) => t.name)).toContain('find_tool');
    const failed = (await s.request('tools/call', {
      name: 'describe_tool',
      arguments: { name: 'github.create_issue' },
    })) as { result: { isError?: boolean; content: { text: string }[] } };
    expect(failed.result.isError).toBe(true);
    expect(failed.result.content[0]!.text).toContain('tools.snapshot.json');
    renameSync(`${snap}.away`, snap);
    const ok = (await s.request('tools/call', {
      name: 'describe_tool',
      arguments: { name: 'github.create_issue' },
    })) as { result: { isError?: boolean; content: { text: string }[] } };
    expect(ok.result.isError).toBeUndefined();
    expect(ok.result.content[0]!.text).toContain('inputSchema');
  }, 60_000);

  it('tools mode reads the snapshot in full at start: its list carries every schema, as --no-cache', async () => {
    const { snap, env } = await setup();
    const listOf = async (s: RawStdio): Promise<unknown> => {
      await s.initialize();
      return (await s.request('tools/list')).result;
    };
    const full = serve(snap, env, ['--debug'], 'tools');
    const cached = await listOf(full);
    const fresh = await listOf(serve(snap, env, ['--no-cache'], 'tools'));
    expect(cached).toEqual(fresh);
    expect(full.stderr()).not.toContain('catalogue start cache');
    expect(JSON.stringify(cached)).toContain('"inputSchema"');
  }, 60_000);
});
