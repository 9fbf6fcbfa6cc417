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
  workflow?: { install: 'lockfile' | 'pinned'; version: string; checks: 'snapshot' | 'live' };
  /** Secrets of the ad-hoc servers the config refers to by variable, for the user to set (names only). */
  variables?: AdoptVariable[];
}

/**
 * The ad-hoc servers as our config stores them: command/args/cwd, or url/type. Env values are never copied; a URL
 * with credentials in it (user:password@, ?api_key=…) and header values become `${VAR}` references as adopt writes
 * them, listed in `variables` for the user to set (the values are never written: the redacted URL could not connect).
 */
export function configEntries(defs: readonly ServerDefinition[]): {
  servers: Record<string, Record<string, unknown>>;
  variables: AdoptVariable[];
} {
  const remote = adoptEntries(
    defs
      .filter((d) => d.transport !== 'stdio')
      .map(({ source: _s, scope: _c, shadowed: _h, nameFromServer: _n, client: _l, layer: _y, ...def }) => ({
        def: { ...def, source: '', scope: 'adhoc' as const },
        raw: { ...def, autoTransport: def.autoTransport === true, warnings: [] },
      })),
  );
  const servers: Record<string, Record<string, unknown>> = {};
  for (const d of defs) {
    if (d.transport !== 'stdio') servers[d.name] = remote.servers[d.name]!;
    else servers[d.name] = { command: d.command, args: d.args ?? [], ...(d.cwd ? { cwd: d.cwd } : {}) };
  }
  return { servers, variables: remote.variables };
}
