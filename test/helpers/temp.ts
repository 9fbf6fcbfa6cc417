// Temporary folders for tests: created under os.tmpdir() with an mcp-smart- prefix and removed after the test
// file that made them (test/helpers/setup-file.ts), so no test leaves one behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A fresh folder `<tmp>/<prefix>XXXXXX`, removed after the current test file. */
export function tempDir(prefix: string): string {
  if (!prefix.startsWith('mcp-smart-')) throw new Error(`temporary folders start with mcp-smart- (got ${prefix})`);
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder tempDir made in this test file. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
