// `prepack`: a clean build of dist/ for the tarball — no stale files from deleted sources, no tsc source maps (they
// would point at src/, which is not shipped) — then the bundle bin/mcp-smart.js runs (scripts/bundle.mjs), with its
// source maps, which point at the shipped dist/ files. `npm run build` restores tsc's maps for development.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { bundle } from './bundle.mjs';

rmSync('dist', { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--sourceMap', 'false'], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
// The bundle keeps its source maps (to the shipped dist/ files): --debug turns them on for stack traces.
await bundle();
