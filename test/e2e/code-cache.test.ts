// V8's code cache of the start path on Node < 22.1 (src/process/code-cache.ts): real processes of the built CLI in
// a temporary HOME. A first run marks the cache file, the second writes V8's data, the third reads it and writes
// nothing; a corrupt or rejected file is replaced and changes no output; --no-cache, NODE_DISABLE_COMPILE_CACHE and
// a cache folder that cannot be written leave it off; serve's cache is a file of its own.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, requireBuild } from '../helpers/paths.js';
import { sandboxEnv, spawnCli, type SpawnRun } from '../helpers/spawn-cli.js';

const TIMEOUT_MS = 60_000;
const SNAPSHOT = fixture('snapshots', 'check-base.json');
const DISCOVER = ['--snapshot', SNAPSHOT, 'discover', 'create a note'];
const SERVE = ['--snapshot', SNAPSHOT, 'serve', '--mode', 'meta'];
/** Node 22.1+ has its own compile cache (module.enableCompileCache) and never runs this one. */
const node20 = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache !== 'function';

let dir: string;
beforeAll(() => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), 'mcp-smart-code-cache-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let boxes = 0;
/** A new cache folder; runs of the CLI with it. */
function box(extra: Record<string, string> = {}) {
  const home = join(dir, `home-${boxes++}`);
  mkdirSync(home);
  const cache = join(home, 'cache');
  const env = sandboxEnv(home, { MCP_SMART_CACHE_DIR: cache, MCP_SMART_DATA_DIR: join(home, 'data'), ...extra });
  const run = async (args: string[]): Promise<SpawnRun> => {
    const r = await spawnCli(args, { cwd: home, env, timeoutMs: TIMEOUT_MS });
    expect(r.code, r.stderr).toBe(0);
    return r;
  };
  const compile = join(cache, 'compile');
  const files = (): string[] => (existsSync(compile) ? readdirSync(compile).sort() : []);
  const only = (kind: string): string => {
    const names = files().filter((f) => new RegExp(`^${kind}-[0-9a-f]{32}-v[\\d.]+-\\w+\\.v8$`).test(f));
    expect(names).toHaveLength(1);
    return join(compile, names[0]!);
  };
  return { cache, compile, files, only, run };
}

/** The file holds the SHA-256 of V8's data, then the data. */
function intact(file: string): boolean {
  const bytes = readFileSync(file);
  const data = bytes.subarray(32);
  return data.length > 0 && createHash('sha256').update(data).digest().equals(bytes.subarray(0, 32));
}

describe.runIf(node20)('the code cache of the start path (Node < 22.1)', () => {
  it(
    'the first run marks the file, the second writes V8 data, the third accepts it and writes nothing',
    async () => {
      const b = box();
      const first = await b.run(DISCOVER);
      const file = b.only('cli');
      expect(statSync(file).size).toBe(0);
      const second = await b.run(DISCOVER);
      expect(b.only('cli')).toBe(file);
      expect(intact(file)).toBe(true);
      const written = readFileSync(file);
      const mtime = statSync(file).mtimeMs;
      const third = await b.run(DISCOVER);
      expect(readFileSync(file).equals(written)).toBe(true);
      expect(statSync(file).mtimeMs).toBe(mtime);
      expect(second.stdout).toBe(first.stdout);
      expect(third.stdout).toBe(first.stdout);
      const debug = await b.run(['--debug', ...DISCOVER]);
      expect(debug.stderr).toContain(`code cache: accepted (${file})`);
      expect(debug.stdout).toBe(first.stdout);
    },
    TIMEOUT_MS * 5,
  );

  it(
    'a corrupt file and one V8 rejects are replaced, and the output stays the same',
    async () => {
      const b = box();
      const plain = await b.run(DISCOVER);
      await b.run(DISCOVER);
      const file = b.only('cli');
      const good = readFileSync(file);
      // A flipped byte inside V8's data: V8 checks only its lengths and versions, our digest catches it.
      const flipped = Buffer.from(good);
      flipped[flipped.length >> 1]! ^= 0xff;
      writeFileSync(file, flipped);
      expect((await b.run(['--debug', ...DISCOVER])).stderr).toContain(`code cache: corrupt (${file})`);
      expect((await b.run(DISCOVER)).stdout).toBe(plain.stdout);
      expect(intact(file)).toBe(true);
      // Data that is not V8's, under a right digest: V8 rejects it.
      const junk = Buffer.alloc(4096, 7);
      writeFileSync(file, Buffer.concat([createHash('sha256').update(junk).digest(), junk]));
      expect((await b.run(['--debug', ...DISCOVER])).stderr).toContain(`code cache: rejected (${file})`);
      expect((await b.run(DISCOVER)).stdout).toBe(plain.stdout);
      expect(intact(file)).toBe(true);
      expect(readFileSync(file).length).toBeGreaterThan(junk.length + 32);
      expect((await b.run(['--debug', ...DISCOVER])).stderr).toContain(`code cache: accepted (${file})`);
    },
    TIMEOUT_MS * 8,
  );

  it(
    '--no-cache and NODE_DISABLE_COMPILE_CACHE write nothing',
    async () => {
      const b = box();
      await b.run(['--no-cache', ...DISCOVER]);
      await b.run(['--no-cache', ...DISCOVER]);
      expect(b.files()).toEqual([]);
      const off = box({ NODE_DISABLE_COMPILE_CACHE: '1' });
      await off.run(DISCOVER);
      await off.run(DISCOVER);
      expect(off.files()).toEqual([]);
      expect(existsSync(off.cache)).toBe(true); // the other caches are written
    },
    TIMEOUT_MS * 4,
  );

  it(
    'a cache folder that cannot be written still runs, with the same output',
    async () => {
      const b = box();
      const plain = await b.run(DISCOVER);
      // compile/ is a file: nothing can be made under it (a chmod would not stop root, which CI may be).
      rmSync(b.compile, { recursive: true, force: true });
      writeFileSync(b.compile, 'not a folder');
      for (let i = 0; i < 3; i++) expect((await b.run(DISCOVER)).stdout).toBe(plain.stdout);
      expect(readFileSync(b.compile, 'utf8')).toBe('not a folder');
    },
    TIMEOUT_MS * 4,
  );

  it(
    "serve's cache is a file of its own (it runs under its heap flags), accepted on its third start",
    async () => {
      const b = box();
      await b.run(DISCOVER);
      await b.run(DISCOVER);
      const file = b.only('cli');
      const discoverData = readFileSync(file);
      await b.run(SERVE); // stdin is closed: serve ends at once
      const serveFile = b.only('cli-serve');
      expect(statSync(serveFile).size).toBe(0);
      await b.run(SERVE);
      expect(intact(serveFile)).toBe(true);
      const debug = await b.run(['--debug', ...SERVE]);
      expect(debug.stderr).toContain(`code cache: accepted (${serveFile})`);
      expect(readFileSync(file).equals(discoverData)).toBe(true);
      expect((await b.run(['--debug', ...DISCOVER])).stderr).toContain(`code cache: accepted (${file})`);
    },
    TIMEOUT_MS * 6,
  );
});
