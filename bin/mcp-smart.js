#!/usr/bin/env node
import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

// Node 22.1+ (not 20): V8 keeps the compiled code of our modules in our cache folder, so a start does not compile
// them again. `--no-cache` leaves it off; so does Node's own NODE_DISABLE_COMPILE_CACHE.
if (typeof module.enableCompileCache === 'function' && !process.argv.includes('--no-cache')) {
  const { userCacheDir } = await import('../dist/bundle/paths.js');
  const inherited = process.env.NODE_COMPILE_CACHE;
  const env = { env: process.env, platform: process.platform, home: homedir() };
  module.enableCompileCache(join(userCacheDir(env), 'compile'));
  // Node may export the folder to child processes; the servers we start keep the environment they were given.
  if (inherited === undefined) delete process.env.NODE_COMPILE_CACHE;
}
// serve is long-lived: its young generation keeps V8's start size from the first allocation (src/serve/heap-quiet.ts).
if (process.argv.includes('serve')) (await import('node:v8')).setFlagsFromString('--semi-space-growth-factor=1');
// The start path as esbuild bundled it, minified (scripts/bundle.mjs): a few files to compile instead of hundreds.
// With --debug, stack traces name the original files and lines through the bundle's source maps.
if (process.argv.includes('--debug')) process.setSourceMapsEnabled(true);
const { main } = await import('../dist/bundle/cli.js');
process.exitCode = await main(process);
