// Absolute paths of the repo, its fixtures and the built CLI.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = join(REPO, 'fixtures');
export const BIN = join(REPO, 'bin', 'mcp-smart.js');
export const fixture = (...parts: string[]): string => join(FIXTURES, ...parts);

/** e2e suites run the built CLI: without dist/ they fail (not skip), saying how to build it. */
export function requireBuild(): void {
  if (!existsSync(join(REPO, 'dist', 'cli.js')))
    throw new Error('dist/cli.js is missing: run npm run build before the e2e tests (npm test builds first).');
}
