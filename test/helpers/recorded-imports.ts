// The module files a process loads, for tests that prove a path never loads some code: the environment that makes
// node record every ES module it resolves (record-imports.mjs), and the files recorded so far. The code cache is off,
// so the ES modules' graph runs (a later start in the same cache folder would run the start path as one code-cached
// script, src/process/code-cache.ts, whose modules the hook never sees).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HOOK = fileURLToPath(new URL('./record-imports.mjs', import.meta.url));

export function recordedImports(
  dir: string,
  env: Record<string, string>,
  label: string,
): { env: Record<string, string>; files: () => string[] } {
  const record = join(dir, `imports-${label}.txt`);
  return {
    env: {
      ...env,
      NODE_OPTIONS: `--import=${HOOK}`,
      MCP_SMART_RECORD_IMPORTS: record,
      NODE_DISABLE_COMPILE_CACHE: '1',
    },
    files: () => [
      ...new Set(
        readFileSync(record, 'utf8')
          .split('\n')
          .filter((u) => u.startsWith('file:'))
          .map((u) => fileURLToPath(u)),
      ),
    ],
  };
}

/** Resolves once process `pid` has exited (every module it loaded is recorded by then); fails after `ms`. */
export async function gone(pid: number | null | undefined, ms = 10_000): Promise<void> {
  const alive = (): boolean => {
    try {
      process.kill(pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  const end = Date.now() + ms;
  while (pid != null && alive()) {
    if (Date.now() > end) throw new Error(`process ${pid} still runs after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
