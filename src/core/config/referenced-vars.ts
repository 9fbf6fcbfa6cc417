/**
 * The environment variables a set of server entries reads when they are loaded: what the process that loads them
 * (serve, started by a client) must have in its environment. Read with the same expansion the loader uses
 * (expandServer), so each client's syntax counts as that client reads it: `${VAR}`, `${VAR:-default}`,
 * `${env:VAR}`, Gemini's `$VAR`, Codex `env_vars` and header variables — and a form the client passes on as written
 * (Codex has no `${VAR}`) is no variable. Shared by `adopt` (the file it writes) and `serve --print-config` (the
 * files the printed entry carries over). Pure.
 */
import type { ClientId } from '../types.js';
import { expandServer } from './expand-server.js';
import type { RawServer } from './server-entry.js';

/** One entry as its file has it, and the client whose file it is (undefined: ours or a generic file). */
export interface EntryOfClient {
  raw: RawServer;
  client?: ClientId;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Every variable the entries refer to, sorted, once each; values are never read (the environment given is empty). */
export function referencedVariables(entries: readonly EntryOfClient[]): string[] {
  const names = new Set<string>();
  for (const { raw, client } of entries) {
    const origin = { source: '(referenced variables)', scope: 'explicit' as const, ...(client ? { client } : {}) };
    const { used } = expandServer(raw, origin, { env: {}, cwd: '/', home: '/', platform: 'linux' });
    // Claude Code reads `${env:X}` as a variable named "env:X", which no shell can set: not one to pass on.
    for (const v of used) if (NAME.test(v)) names.add(v);
  }
  return [...names].sort();
}
