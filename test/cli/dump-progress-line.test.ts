// dump's progress line: drawn on a TTY stderr only, never with --json, and always cleared before the summary.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const cmd = (...args: string[]): string => [process.execPath, ...args].map((a) => `"${a}"`).join(' ');
const TINY = cmd(fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json'));

describe('dump progress', () => {
  const run = (stderrIsTTY: boolean, ...extra: string[]) => {
    const cwd = tempDir('mcp-smart-qa2-dump-');
    return runCli(
      ['--no-cache', '--timeout', '20000', ...extra, 'dump', '--stdio', TINY, '--name', 'tiny', '-o', 'snap.json'],
      {
        cwd,
        env: { NO_COLOR: '1', HOME: cwd, MCP_SMART_CACHE_DIR: join(cwd, 'cache') },
        stderrIsTTY,
      },
    );
  };

  it('is drawn on a TTY and cleared before the summary', async () => {
    const r = await run(true);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('\r\x1b[2KConnecting 0/1 — waiting for tiny');
    expect(r.stderr).toContain('\r\x1b[2KConnecting 1/1');
    const summary = r.stderr.slice(r.stderr.lastIndexOf('\r\x1b[2K') + 5);
    expect(summary).toMatch(/^ {2}ok {3}tiny {2}5 tools/);
  });

  it('is not drawn without a TTY, nor with --json', async () => {
    for (const r of [await run(false), await run(true, '--json')]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/\r|\x1b|Connecting/);
    }
  });
});
