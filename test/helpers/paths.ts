// Absolute paths of the repo, its fixtures and the built CLI.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = join(REPO, 'fixtures');
export const BIN = join(REPO, 'bin', 'mcp-smart.js');
export const fixture = (...parts: string[]): string => join(FIXTURES, ...parts);
