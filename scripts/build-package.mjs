// `prepack`: a clean build of dist/ for the tarball — no stale files from deleted sources, no source maps
// (they would point at src/, which is not shipped). `npm run build` restores the maps for development.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';

rmSync('dist', { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--sourceMap', 'false'], { stdio: 'inherit' });
process.exit(r.status ?? 1);
