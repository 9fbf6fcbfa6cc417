/** mcp-smart's own version, read once from the package.json two folders above dist/process/ (or src/process/ under the tests). */
import { readFileSync } from 'node:fs';

export const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
