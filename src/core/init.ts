/** What `init` writes and returns: the config entry of a server and the result summary (the workflow: ci-workflow.ts). */
import type { ServerDefinition } from './types.js';
import { WORKFLOW_PATH } from './ci-workflow.js';
import { adoptEntries, type AdoptVariable } from './adopt/config-entries.js';

export const CONFIG_FILE = 'mcp-smart.config.json';
export const WORKFLOW_FILE = WORKFLOW_PATH;
export const INIT_SNAPSHOT_FILE = 'mcp-smart.snapshot.json';

export interface InitResult {
  files: { path: string; kind: 'config' | 'baseline' | 'workflow' | 'snapshot'; written: boolean }[];
  servers: string[];
  budget: { max: number; share: number };
  thresholds: { maxGrowth: string };
  baselineTokens?: number;
  checkCommand: string;
  unavailable: string[];
  /** How the workflow gets mcp-smart and what it checks (with --github). */
  workflow?: {
    install: 'lockfile' | 'pinned';
    version: string;
    checks: 'snapshot' | 'live';
    /** The variables a live check passes from the repository's secrets, and the secret of each. */
    secrets?: { variable: string; secret: string }[];
  };
  /** Secrets of the ad-hoc servers the config refers to by variable, for the user to set (names only). */
  variables?: AdoptVariable[];
}

/**
 * The ad-hoc servers as our config stores them: command/args/cwd, or url/type, through adopt's one rule. Env values
 * are never copied; a secret flag's value in a command line (`--password hunter2`, `--api-key=sk-…`), a URL with
 * credentials in it (user:password@, ?api_key=…) and header values become `${VAR}` references as adopt writes them,
 * listed in `variables` for the user to set (the values are never written: a redacted one could not connect).
 */
export function configEntries(defs: readonly ServerDefinition[]): {
  servers: Record<string, Record<string, unknown>>;
  variables: AdoptVariable[];
} {
  const adopted = adoptEntries(
    defs.map(({ source: _s, scope: _c, shadowed: _h, nameFromServer: _n, client: _l, layer: _y, env: _e, ...def }) => ({
      def: { ...def, source: '', scope: 'adhoc' as const },
      raw: { ...def, autoTransport: def.autoTransport === true, warnings: [] },
    })),
  );
  const servers: Record<string, Record<string, unknown>> = {};
  // In the order given; a command line without arguments keeps its `args: []`.
  for (const d of defs) {
    const entry = adopted.servers[d.name]!;
    servers[d.name] =
      d.transport === 'stdio' && entry.args === undefined ? { command: entry.command, args: [], ...entry } : entry;
  }
  return { servers, variables: adopted.variables };
}
