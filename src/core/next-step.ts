/** The one next step `servers` and `audit` end with on a terminal, chosen from the state of the setup. */
import type { ClientId } from './types.js';

export type NextStep =
  /** The tools use more than the budget allows: `budget --max` prints a plan that fits. */
  | { code: 'budget'; max: number; tokens: number; limit: number }
  /** No baseline yet: `init` (config + baseline) or `check --update`. */
  | { code: 'baseline'; file: string }
  /** The servers come from a client's config: `adopt <client>` moves them behind `serve`. */
  | { code: 'adopt'; client: ClientId; servers: number }
  /** `servers` with everything in place: see what they cost. */
  | { code: 'audit' }
  /** `audit` with everything in place: the gate. */
  | { code: 'check'; file: string };

export interface NextStepState {
  command: 'servers' | 'audit';
  /** Enabled servers listed. */
  servers: number;
  /** The baseline file `check` reads, and whether it exists. */
  baseline: { file: string; exists: boolean };
  /** Enabled servers per client config they came from; empty for snapshots, --demo, ad-hoc and our own config. */
  clients: readonly { client: ClientId; servers: number }[];
  /** `audit`: the tool tokens and the budget they are held to. */
  budget?: { tokens: number; limit: number; max: number };
}

/**
 * Over budget first (it costs on every request), then a missing baseline (nothing guards against growth), then
 * adopting the client's servers; otherwise the command that naturally follows. Undefined without servers.
 */
export function chooseNextStep(state: NextStepState): NextStep | undefined {
  if (state.servers === 0) return undefined;
  const { budget, baseline } = state;
  if (budget && budget.tokens > budget.limit) return { code: 'budget', ...budget };
  if (!baseline.exists) return { code: 'baseline', file: baseline.file };
  const client = [...state.clients]
    .filter((c) => c.servers > 0)
    .sort((a, b) => b.servers - a.servers || a.client.localeCompare(b.client))[0];
  if (client) return { code: 'adopt', client: client.client, servers: client.servers };
  return state.command === 'servers' ? { code: 'audit' } : { code: 'check', file: baseline.file };
}
