// `prepack`: a clean build for the tarball — no stale files from deleted sources — of dist/ and of the bundle
// bin/mcp-smart.js runs (scripts/bundle.mjs). Only dist/bundle/ is packed (package.json `files`), with source maps
// that go through tsc's to src/, so a stack trace under --debug names the source file and line of that version.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { buildRanks } from './build-ranks.mjs';
import { bundle } from './bundle.mjs';

rmSync('dist', { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
await buildRanks();
await bundle();
