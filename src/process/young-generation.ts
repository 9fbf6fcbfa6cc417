/**
 * A one-shot ranking's young generation, kept at the size it has when the work starts.
 *
 * A first `discover` on a small catalogue parses the snapshot and builds its index in a second or so. V8 doubles the
 * young generation's semi-spaces as objects survive (the parsed tools, the index's words): 1 → 16 MB each on the
 * 2,781-tool catalogue, 32 MB of new pages for garbage that a 2 MB young generation collects as well. A new page
 * costs its first touch (a page fault); on the virtualised machine this was measured on that is ~15 µs a page, and
 * those 8,000 pages were ~100 ms of a 1.2 s run (bench/RESULTS.md, "Issue 40, session 24"). With the semi-spaces
 * kept (V8's `--semi-space-growth-factor=1`, read each time it would grow them, so it applies when set at run time,
 * as serve does: process/serve-heap-flags.ts) that run touches 24 MB less and ends ~90–160 ms sooner.
 *
 * Not for big inputs: on a 39 MB snapshot (22k tools) the small young generation promotes what a bigger one lets
 * die, and the run is 3–4 % slower; on 175 MB (100k tools) 4–7 % slower and 30 MB bigger. Hence SMALL_INPUT_BYTES.
 * The factor goes back to V8's default when the work ends, before the exit, where bin/'s code cache is made under
 * the flags the next start loads it with (process/code-cache.ts).
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';

/** Inputs (snapshot files) up to this size run with the young generation kept. */
export const SMALL_INPUT_BYTES = 16 * 1024 * 1024;
/** V8's default factor (restored after the work). */
const DEFAULT_GROWTH_FACTOR = 2;

/**
 * `work` with the young generation kept at its size when `inputBytes` (the size of what the work reads) is at most
 * SMALL_INPUT_BYTES; as it is otherwise, and when node was started with its own semi-space flags.
 */
export async function withSteadyYoungGeneration<T>(
  inputBytes: number,
  work: () => Promise<T>,
  env: NodeJS.ProcessEnv = process.env,
  execArgv: readonly string[] = process.execArgv,
): Promise<T> {
  const own = [...execArgv, env.NODE_OPTIONS ?? ''].some((arg) => arg.includes('semi-space'));
  if (own || inputBytes > SMALL_INPUT_BYTES) return work();
  setFlagsFromString('--semi-space-growth-factor=1');
  try {
    return await work();
  } finally {
    setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH_FACTOR}`);
  }
}

/** The bytes of the files among `files` (relative to `cwd`); a missing one counts nothing (its reader says so). */
export function filesBytes(files: readonly string[], cwd: string): number {
  let total = 0;
  for (const f of files) {
    try {
      total += statSync(resolve(cwd, f)).size;
    } catch {
      // The reader names it.
    }
  }
  return total;
}
