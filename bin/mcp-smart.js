#!/usr/bin/env node
import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

// V8 keeps the compiled code of our start path in our cache folder, so a start does not compile it again: Node 22.1+
// for our modules, Node 20 for dist/bundle/cli.cjs (dist/bundle/code-cache.js). `--no-cache` leaves it off; so
// does Node's own NODE_DISABLE_COMPILE_CACHE.
const compileCache = !process.argv.includes('--no-cache') && process.env.NODE_DISABLE_COMPILE_CACHE === undefined;
const cacheDir = async () =>
  (await import('../dist/bundle/paths.js')).userCacheDir({
    env: process.env,
    platform: process.platform,
    home: homedir(),
  });
if (typeof module.enableCompileCache === 'function' && compileCache) {
  const inherited = process.env.NODE_COMPILE_CACHE;
  module.enableCompileCache(join(await cacheDir(), 'compile'));
  // Node may export the folder to child processes; the servers we start keep the environment they were given.
  if (inherited === undefined) delete process.env.NODE_COMPILE_CACHE;
}
// serve is long-lived: its young generation keeps V8's start size from the first allocation (src/serve/heap-quiet.ts).
if (process.argv.includes('serve')) (await import('node:v8')).setFlagsFromString('--semi-space-growth-factor=1');
// The start path as esbuild bundled it, minified (scripts/bundle.mjs): a few files to compile instead of hundreds.
// With --debug, stack traces name the original files and lines through the bundle's source maps.
const debug = process.argv.includes('--debug');
if (debug) process.setSourceMapsEnabled(true);
let cli;
if (typeof module.enableCompileCache !== 'function' && compileCache) {
  const { loadCachedCli } = await import('../dist/bundle/code-cache.js');
  cli = loadCachedCli({
    argv: process.argv,
    cacheDir: await cacheDir(),
    importEsm: (specifier) => import(specifier),
    ...(debug ? { debug: (text) => process.stderr.write(`mcp-smart: ${text}\n`) } : {}),
  });
}
const { main } = cli ?? (await import('../dist/bundle/cli.js'));
process.exitCode = await main(process);
