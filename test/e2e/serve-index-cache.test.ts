// serve's find_tool reads its discover index from discover's index cache: the first start builds it and writes the
// sealed file; the next start reads it (said under --debug) and answers byte-identically to a --no-cache serve; a
// damaged file is not trusted but rebuilt and rewritten. The answer's line counts go to the count cache, so the
// next start answering the same tools needs no tokenizer.
import { copyFileSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { countCacheFile, hashText } from '../../src/core/tokens/count-cache.js';
import { BIN, fixture, requireBuild } from '../helpers/paths.js';
import { closeRawStdio, openRawStdio, type RawStdio } from '../helpers/raw-stdio.js';
import { sandboxEnv } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

requireBuild();
const open: RawStdio[] = [];
afterEach(() => closeRawStdio(open));

const INTENTS = ['create a new issue', 'list the pull requests', 'search the code for a function'];

function setup(): { snap: string; cache: string; env: NodeJS.ProcessEnv } {
  const dir = tempDir('mcp-smart-serve-index-');
  const snap = join(dir, 'tools.snapshot.json');
  copyFileSync(fixture('snapshots', 'discover-ok.json'), snap);
  const cache = join(dir, 'cache');
  return { snap, cache, env: sandboxEnv(dir, { MCP_SMART_CACHE_DIR: cache, MCP_SMART_DATA_DIR: join(dir, 'data') }) };
}

function serve(snap: string, env: NodeJS.ProcessEnv, global: string[]): RawStdio {
  const s = openRawStdio(
    process.execPath,
    [BIN, '--snapshot', snap, ...global, 'serve', '--mode', 'meta', '--no-learn'],
    env,
  );
  open.push(s);
  return s;
}

/** initialize, tools/list and a find_tool per intent: the answers' texts. */
async function finds(s: RawStdio): Promise<string[]> {
  await s.initialize();
  await s.request('tools/list');
  const out: string[] = [];
  for (const intent of INTENTS) {
    const r = (await s.request('tools/call', { name: 'find_tool', arguments: { intent } })) as {
      result: { content: { text: string }[] };
    };
    out.push(r.result.content[0]!.text);
  }
  return out;
}

/** Ends serve the way a client does (stdin closed) and waits for it to exit. */
async function close(s: RawStdio): Promise<void> {
  s.child.stdin?.end();
  expect(await s.exited).toBe(0);
}

const indexFiles = (cache: string): string[] =>
  existsSync(join(cache, 'discover-index')) ? readdirSync(join(cache, 'discover-index')) : [];

/** Waits until `ok` holds (the index file is written just after the first answer went out). */
async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(ok()).toBe(true);
}

describe("serve's find_tool index from the index cache", () => {
  it('the first start builds and writes it, the second reads it; answers equal a --no-cache serve', async () => {
    const { snap, cache, env } = setup();
    const fresh = serve(snap, env, ['--no-cache', '--debug']);
    const expected = await finds(fresh);
    expect(fresh.stderr()).toContain('find_tool index of 11 tools built');
    await close(fresh);
    expect(indexFiles(cache)).toEqual([]);

    const first = serve(snap, env, ['--debug']);
    expect(await finds(first)).toEqual(expected);
    expect(first.stderr()).toContain('find_tool index of 11 tools built');
    await until(() => indexFiles(cache).length === 1);
    await close(first);
    const file = join(cache, 'discover-index', indexFiles(cache)[0]!);
    const written = { bytes: readFileSync(file), mtime: statSync(file).mtimeMs };

    const second = serve(snap, env, ['--debug']);
    expect(await finds(second)).toEqual(expected);
    expect(second.stderr()).toContain('find_tool index of 11 tools read from the index cache');
    expect(second.stderr()).not.toContain('tools built');
    await close(second);
    expect(readFileSync(file).equals(written.bytes)).toBe(true);
    expect(statSync(file).mtimeMs).toBe(written.mtime);

    // Every line of every answer was counted once and kept: the next start counts them from the cache.
    const counts = JSON.parse(readFileSync(countCacheFile(cache, 'o200k_base'), 'utf8')) as {
      counts: Record<string, number>;
    };
    const lines = expected.flatMap((text) =>
      text
        .split('\n')
        .slice(1, -1)
        .map((l) => `${l}\n`),
    );
    expect(lines.length).toBeGreaterThan(INTENTS.length);
    for (const line of lines) expect(counts.counts[hashText(line)], line).toBeGreaterThan(0);
  }, 90_000);

  it('an altered, truncated or garbage cache file is not trusted: the index is rebuilt and the file rewritten', async () => {
    const { snap, cache, env } = setup();
    const first = serve(snap, env, []);
    const expected = await finds(first);
    await until(() => indexFiles(cache).length === 1);
    await close(first);
    const file = join(cache, 'discover-index', indexFiles(cache)[0]!);
    const good = readFileSync(file);
    const flipped = Buffer.from(good);
    flipped[Math.floor(good.byteLength / 3)]! ^= 0x40;
    for (const bad of [flipped, good.subarray(0, good.byteLength - 4), Buffer.from('not an index')]) {
      writeFileSync(file, bad);
      const s = serve(snap, env, ['--debug']);
      expect(await finds(s)).toEqual(expected);
      expect(s.stderr()).toContain('find_tool index of 11 tools built');
      await until(() => readFileSync(file).equals(good));
      await close(s);
    }
  }, 120_000);
});
