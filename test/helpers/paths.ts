// Absolute paths of the repo, its fixtures and the built CLI.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = join(REPO, 'fixtures');
export const BIN = join(REPO, 'bin', 'mcp-smart.js');
export const fixture = (...parts: string[]): string => join(FIXTURES, ...parts);

/** e2e suites run the built CLI (bin/ runs the bundle): without it they fail (not skip), saying how to build it. */
export function requireBuild(): void {
  for (const built of ['dist/cli.js', 'dist/bundle/cli.js'])
    if (!existsSync(join(REPO, built)))
      throw new Error(`${built} is missing: run npm run build before the e2e tests (npm test builds first).`);
}
