/**
 * No silent shrinkage (issue 36): the baseline's servers this run did not reach, and why — it failed, it waits for an
 * approval (mcp-smart's own, or its client's), possibly as the definition that shadows the one the baseline measured.
 * A server no config defines any more, or one switched off on purpose (`disabled`), was removed deliberately and is
 * not listed: its tools count as removed, as before. Pure.
 */
import type { ServerDefinition } from '../types.js';
import type { Baseline } from './baseline.js';

export type MissingReason = 'failed' | 'pending-approval' | 'client-gated';

export interface MissingServer {
  server: string;
  reason: MissingReason;
  /** The error, or the gate's words (what would approve it). */
  detail: string;
  /** The files this definition shadows, when another config's entry of the same name won. */
  shadows?: string[];
  /** The baseline's tool ids of this server, sorted, and their tokens. */
  tools: string[];
  tokens: number;
}

/** What the run reached: each selected server's status (a failed one with its error). */
export interface ReachedServer {
  name: string;
  status: 'ok' | 'error';
  error?: string;
}

/**
 * The baseline's servers (within `only`, when given) that this run did not reach although they are still defined,
 * sorted by name. `defs` are the run's definitions (undefined for a --snapshot run: a server a snapshot lacks was
 * left out of it by whoever wrote it).
 */
export function findMissingServers(
  baseline: Baseline,
  reached: readonly ReachedServer[],
  defs: readonly ServerDefinition[] | undefined,
  only: readonly string[] = [],
): MissingServer[] {
  const byName = new Map(reached.map((s) => [s.name, s]));
  const defByName = new Map((defs ?? []).map((d) => [d.name, d]));
  const out: MissingServer[] = [];
  for (const name of Object.keys(baseline.servers).sort()) {
    if (only.length > 0 && !only.includes(name)) continue;
    const entry = baseline.servers[name]!;
    const tools = Object.keys(entry.tools)
      .sort()
      .map((t) => `${name}.${t}`);
    const base = { server: name, tools, tokens: entry.tokens };
    const hit = byName.get(name);
    if (hit?.status === 'ok') continue;
    if (hit?.status === 'error') {
      out.push({ ...base, reason: 'failed', detail: hit.error ?? 'no reason given' });
      continue;
    }
    const def = defByName.get(name);
    if (!def || def.enabled) continue;
    const shadows = def.shadowed && def.shadowed.length > 0 ? { shadows: [...def.shadowed] } : {};
    if (def.pendingTrust === true)
      out.push({ ...base, reason: 'pending-approval', detail: def.notLoaded ?? 'pending approval', ...shadows });
    else if (def.gate !== undefined)
      out.push({ ...base, reason: 'client-gated', detail: def.notLoaded ?? def.gate, ...shadows });
  }
  return out;
}
