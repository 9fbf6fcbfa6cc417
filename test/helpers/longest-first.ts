// The order test files start in: longest first, so that the slowest files (the real clients, the CI gate, the
// journeys: minutes each) start while the other workers work through the short ones, instead of starting last and
// running alone at the end. vitest's own order does this only from its cache of this machine's last run; a fresh
// clone (CI) has none, and vitest then keeps the glob's order (cli/, e2e/, reporters/, unit/).
//
// A file's duration: vitest's cache (this machine's last run) when it has one, else test/durations.json (a full run's
// figures, refreshed by `MCP_SMART_WRITE_DURATIONS=1 node test/helpers/run-tests.mjs`), else UNKNOWN_MS (a new file:
// most new files are e2e tests, so it starts among the medium ones rather than last). Ties: the larger file first.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Where the committed figures live (relative to the repository root, the vitest root). */
export const DURATIONS_FILE = 'test/durations.json';
/** The estimate for a file in neither the cache nor the committed list. */
const UNKNOWN_MS = 5_000;

/** test/durations.json: { "test/e2e/x.test.ts": milliseconds, … }; an empty map when missing or unreadable. */
export function committedDurations(root: string): Map<string, number> {
  try {
    const doc = JSON.parse(readFileSync(`${root}/${DURATIONS_FILE}`, 'utf8')) as Record<string, unknown>;
    return new Map(
      Object.entries(doc).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1])),
    );
  } catch {
    return new Map();
  }
}

export default class LongestFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const committed = committedDurations(root);
    const keyed = files.map((spec) => {
      const path = relative(root, spec.moduleId).split('\\').join('/');
      const cacheKey = `${spec.project.name}:${path}`;
      const cached = this.ctx.cache.getFileTestResults(cacheKey)?.duration;
      const ms = cached ?? committed.get(path) ?? UNKNOWN_MS;
      const size = this.ctx.cache.getFileStats(cacheKey)?.size ?? 0;
      return { spec, ms, size, path };
    });
    keyed.sort((a, b) => b.ms - a.ms || b.size - a.size || a.path.localeCompare(b.path));
    return Promise.resolve(keyed.map((k) => k.spec));
  }
}
