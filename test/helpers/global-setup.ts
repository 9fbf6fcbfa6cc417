// The run gets its own temporary folder (TMPDIR, inherited by the test workers and the CLIs they spawn), so other
// runs on the machine do not disturb the check below. After the run, any mcp-smart-* entry left in it fails the run:
// every test removes what it creates. MCP_SMART_TESTS_TMP names the same folder for what a run shares across test
// files (test/helpers/installed-package.ts: the packed and installed package, built once per run).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const outer = tmpdir();
  const own = mkdtempSync(join(outer, 'mcp-smart-tests-tmp-'));
  const before = new Set(readdirSync(own));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = own;
  process.env.MCP_SMART_TESTS_TMP = own;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    delete process.env.MCP_SMART_TESTS_TMP;
    const left = readdirSync(own).filter((name) => name.startsWith('mcp-smart-') && !before.has(name));
    rmSync(own, { recursive: true, force: true });
    if (left.length > 0) {
      throw new Error(
        `tests left ${left.length} temporary folder(s) behind: ${left.sort().join(', ')}. Remove them in afterAll/finally (or create them with tempDir() from test/helpers/temp.ts).`,
      );
    }
  };
}
