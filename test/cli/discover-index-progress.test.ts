// A first discover shows how far its index build is on a terminal (forced here with MCP_SMART_PROGRESS=1), on
// stderr only; a run whose index comes from the cache builds nothing and shows nothing.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { runCli } from '../helpers/fake-io.js';
import { tempDir } from '../helpers/temp.js';

describe('discover: progress of the index build', () => {
  it('draws the tools indexed of all on stderr, clears it, and leaves stdout as without progress', async () => {
    const dir = tempDir('mcp-smart-index-progress-');
    const snap = join(dir, 'tools.snapshot.json');
    copyFileSync(fixture('snapshots', 'many-tools.json'), snap);
    const env = (cache: string, progress: string): Record<string, string> => ({
      NO_COLOR: '1',
      MCP_SMART_CACHE_DIR: join(dir, cache),
      MCP_SMART_DATA_DIR: dir,
      HOME: dir,
      MCP_SMART_PROGRESS: progress,
    });
    const argv = ['--snapshot', snap, 'discover', 'list the pull requests'];
    const shown = await runCli(argv, { env: env('a', '1') });
    const quiet = await runCli(argv, { env: env('b', '0') });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(quiet.stdout);
    expect(shown.stderr).toContain('\r\x1b[2KIndexing the tools 47/47 (100%)\r\x1b[2K');
    expect(quiet.stderr).not.toContain('Indexing');
    // The index was cached by the first run: nothing is built, nothing drawn.
    const again = await runCli(argv, { env: env('a', '1') });
    expect(again.stdout).toBe(shown.stdout);
    expect(again.stderr).not.toContain('Indexing');
    // JSON output never carries progress.
    const json = await runCli(['--format', 'json', ...argv], { env: env('c', '1') });
    expect(json.stderr).not.toContain('Indexing');
  });
});
