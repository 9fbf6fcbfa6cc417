// The young generation of a one-shot ranking (src/process/young-generation.ts), in new node processes of the built
// module: objects that survive grow V8's new space to 32 MB by default; inside withSteadyYoungGeneration on a small
// input it keeps its size, and once the work is over V8's default factor is back (the code cache is made under it).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO, requireBuild } from '../helpers/paths.js';

const MODULE = pathToFileURL(join(REPO, 'dist', 'process', 'young-generation.js')).href;
const MB = 1024 * 1024;

/** New space's size before, at the end of, and after work that keeps ~300,000 objects, in a new process. */
function sizes(inputBytes: number, execArgv: string[] = []): { before: number; during: number; after: number } {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    const { withSteadyYoungGeneration } = await import(${JSON.stringify(MODULE)});
    const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
    const keep = [];
    const churn = () => { for (let i = 0; i < 300000; i++) keep.push({ i, s: 'x' + i }); };
    const before = newSpace();
    await withSteadyYoungGeneration(${inputBytes}, async () => churn(), {}, ${JSON.stringify(execArgv)});
    const during = newSpace();
    keep.length = 0;
    churn();
    console.log(JSON.stringify({ before, during, after: newSpace() }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: {} });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { before: number; during: number; after: number };
}

beforeAll(() => requireBuild());

describe('withSteadyYoungGeneration', () => {
  it('keeps the new space at its size for a small input, and V8 grows it again after the work', () => {
    const s = sizes(1000);
    expect(s.during).toBeLessThanOrEqual(Math.max(s.before * 2, 2 * MB));
    expect(s.after).toBeGreaterThanOrEqual(8 * MB);
  });

  it('leaves V8 to grow it for an input over SMALL_INPUT_BYTES', () => {
    const s = sizes(64 * MB);
    expect(s.during).toBeGreaterThanOrEqual(8 * MB);
  });

  it("leaves it alone when node was started with the user's own semi-space flags", () => {
    const s = sizes(1000, ['--max-semi-space-size=16']);
    expect(s.during).toBeGreaterThanOrEqual(8 * MB);
  });
});
