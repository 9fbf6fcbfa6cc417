// The run gets its own temporary folder (TMPDIR, inherited by the test workers and the CLIs they spawn), so other
// runs on the machine do not disturb the check below. After the run, any mcp-smart-* entry left in it fails the run:
// every test removes what it creates.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const outer = tmpdir();
  const own = mkdtempSync(join(outer, 'mcp-smart-tests-tmp-'));
  const before = new Set(readdirSync(own));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = own;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    const left = readdirSync(own).filter((name) => name.startsWith('mcp-smart-') && !before.has(name));
    rmSync(own, { recursive: true, force: true });
    if (left.length > 0) {
      throw new Error(
        `tests left ${left.length} temporary folder(s) behind: ${left.sort().join(', ')}. Remove them in afterAll/finally (or create them with tempDir() from test/helpers/temp.ts).`,
      );
    }
  };
}
