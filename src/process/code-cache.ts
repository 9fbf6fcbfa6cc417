/**
 * V8's code cache for the start path on Node < 22.1 (Node 22.1+ has module.enableCompileCache, which bin/ uses; an
 * ES module has no cache API on Node 20). bin/mcp-smart.js asks `loadCachedCli` for the CLI: it runs
 * dist/bundle/cli.cjs, the start path as ONE CommonJS script (scripts/bundle.mjs), compiled by vm.Script with the
 * bytecode V8 kept from an earlier run, so a start neither parses the bundle nor compiles the functions that run
 * (measured in bench/RESULTS.md, branch `codecache`: serve's warm start −17 %).
 *
 * One file per CLI build, Node version and architecture, and serve apart (V8 accepts a cache only under the flags it
 * was made with, and serve sets its heap flags): `<cache>/compile/cli[-serve]-<bundle hash>-<node>-<arch>.v8`, the
 * SHA-256 of V8's data, then the data (V8 itself checks only lengths and versions). Three states:
 * - no file: the ES modules run, as without the cache (a first run, a fresh HOME in CI: nothing to compile more);
 *   after the command's work an empty file marks that this cache folder is used again;
 * - an empty, corrupt or rejected file: the script is compiled whole and, after the work, V8's data replaces it;
 * - V8's data, accepted: nothing is written.
 * "After the work" is the process's exit, and for serve SERVE_SETTLE_MS after its start (its first answers are
 * out by then), or its exit if that comes first. A folder that cannot be written leaves every run on the ES modules,
 * and so does --debug (its stack traces go through the modules' source maps; Node 20 maps no vm script's), which
 * says what V8 made of the cache.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { EXPOSE_GC_FLAG, SERVE_HEAP_FLAGS } from './serve-heap-flags.js';

/** What dist/bundle/cli.cjs exports (src/cli.ts). */
export interface CliModule {
  main: (proc: NodeJS.Process) => Promise<number>;
}

export interface CodeCacheOptions {
  argv: readonly string[];
  /** The cache folder (core/paths.ts userCacheDir); the files go to its compile/. */
  cacheDir: string;
  /** The ES module loader of bin/ (a vm script has no import() on Node 20): packages kept outside, built-ins. */
  importEsm: (specifier: string) => Promise<unknown>;
  /** Under --debug: says what the cache holds; the ES modules then run (see loadCachedCli). */
  debug?: (text: string) => void;
  /** The script; dist/bundle/cli.cjs. */
  script?: string;
}

export const SERVE_SETTLE_MS = 3000;
const DIGEST_BYTES = 32;
/** The script's first line: `// <32 hex digits>\n`, 36 characters. */
const KEY_LINE = /^\/\/ ([0-9a-f]{32})\n/;
const SCRIPT = fileURLToPath(new URL('../bundle/cli.cjs', import.meta.url));
/** The names CommonJS gives a module, and the two the bundle adds (scripts/bundle.mjs). */
const PARAMS = 'exports, require, module, __filename, __dirname, __mcpSmartUrl, __mImp';

const sha256 = (data: Uint8Array): Buffer => createHash('sha256').update(data).digest();

/** The CLI from the cached script, or undefined: the caller imports the ES modules (first run, no script). */
export function loadCachedCli(options: CodeCacheOptions): CliModule | undefined {
  const file = options.script ?? SCRIPT;
  const key = scriptKey(file);
  if (!key) return undefined;
  const serve = options.argv.includes('serve');
  const folder = join(options.cacheDir, 'compile');
  const kind = serve ? 'cli-serve' : 'cli';
  const cacheFile = join(folder, `${kind}-${key}-${process.version}-${process.arch}.v8`);
  let stored: Buffer | undefined;
  try {
    stored = readFileSync(cacheFile);
  } catch {
    options.debug?.(`code cache: none (${cacheFile}), marked for the next run`);
    afterWork(serve, () => writeAtomic(folder, cacheFile, kind, new Uint8Array(0)));
    return undefined;
  }
  const data = stored.subarray(DIGEST_BYTES);
  const intact = stored.length > DIGEST_BYTES && sha256(data).equals(stored.subarray(0, DIGEST_BYTES));
  const source = readFileSync(file, 'latin1'); // ASCII by construction: a one-byte string
  if (serve) for (const flag of [...SERVE_HEAP_FLAGS, EXPOSE_GC_FLAG]) setFlagsFromString(flag);
  // The wrapper shares the script's first line (its hash comment): the script's lines stay the file's.
  const script = new Script(`(function (${PARAMS}) {${source}\n})`, {
    filename: file,
    ...(intact ? { cachedData: data } : {}),
  });
  const accepted = intact && !script.cachedDataRejected;
  if (options.debug) {
    // --debug's stack traces go through the ES modules' source maps (Node 20 maps no vm script's): they run, and
    // the cache is left as it is.
    const state = stored.length === 0 ? 'none yet' : !intact ? 'corrupt' : accepted ? 'accepted' : 'rejected';
    options.debug(`code cache: ${state} (${cacheFile}); --debug runs the ES modules, for source-mapped stack traces`);
    return undefined;
  }
  if (!accepted) {
    afterWork(serve, () => {
      const made = script.createCachedData();
      writeAtomic(folder, cacheFile, kind, Buffer.concat([sha256(made), made]));
    });
  }
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} as CliModule };
  run(module.exports, createRequire(file), module, file, dirname(file), pathToFileURL(file).href, options.importEsm);
  return module.exports;
}

/** The hash on the script's first line (scripts/bundle.mjs), read alone: a first run reads no more of it. */
function scriptKey(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(36);
    readSync(fd, head, 0, head.length, 0);
    return KEY_LINE.exec(head.toString('latin1'))?.[1];
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `write` once, at the exit or for serve SERVE_SETTLE_MS after the start; a failure leaves the cache as it was. */
function afterWork(serve: boolean, write: () => void): void {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    try {
      write();
    } catch {
      // No cache this time: a folder that cannot be written, a full disk.
    }
  };
  process.once('exit', once);
  if (serve) setTimeout(once, SERVE_SETTLE_MS).unref();
}

/** `data` to `file` by a rename (no reader sees half a file); the same kind's files of other builds go. */
function writeAtomic(folder: string, file: string, kind: string, data: Uint8Array): void {
  mkdirSync(folder, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, data);
  renameSync(temp, file);
  const same = new RegExp(`^${kind}-[0-9a-f]{32}-.*\\.v8$`);
  for (const name of readdirSync(folder)) {
    if (same.test(name) && join(folder, name) !== file) rmSync(join(folder, name), { force: true });
  }
}
