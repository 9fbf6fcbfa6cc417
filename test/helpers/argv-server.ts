import { fixture } from './paths.js';

/**
 * The catalog fixture server (tiny.json) as a `--stdio` command line that records the arguments it was started with
 * in `argvFile` (`--argv-file`), followed by `extra`; `args` are those arguments as the server receives them.
 */
export function argvServer(argvFile: string, extra: string[]): { line: string; args: string[] } {
  const args = [fixture('servers', 'catalogs', 'tiny.json'), '--argv-file', argvFile, ...extra];
  const line = [process.execPath, fixture('servers', 'catalog-server.mjs'), ...args]
    .map((w) => JSON.stringify(w))
    .join(' ');
  return { line, args };
}
