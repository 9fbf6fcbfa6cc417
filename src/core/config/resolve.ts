/** Each client's own view: the servers it loads, after its precedence between layers. Pure. */
import type { ClientId, ServerDefinition } from '../types.js';
import { CLIENTS, CLIENT_IDS } from './clients.js';
import { LAYER_RANK } from './locate.js';
import { mergeDefinitions, type Shadowing } from './merge.js';

export interface ClientResolution {
  client: ClientId;
  label: string;
  /** The servers this client would list, winners only, enabled or not, in its precedence order. */
  servers: ServerDefinition[];
  /** Same-named definitions this client hides (a lower layer of its own config). */
  shadowings: Shadowing[];
}

const rankOf = (d: ServerDefinition): number => (d.layer === undefined ? LAYER_RANK.project : LAYER_RANK[d.layer]);

/** Stable sort by layer precedence (Claude Code local > project > user; Gemini system > project > user > defaults). */
export function orderByPrecedence(defs: readonly ServerDefinition[]): ServerDefinition[] {
  return defs
    .map((d, i) => ({ d, i }))
    .sort((a, b) => rankOf(a.d) - rankOf(b.d) || a.i - b.i)
    .map((x) => x.d);
}

/** Groups definitions (in location order) by client and applies each client's precedence. */
export function resolveClients(defs: readonly ServerDefinition[]): ClientResolution[] {
  const out: ClientResolution[] = [];
  for (const client of CLIENT_IDS) {
    const own = defs.filter((d) => d.client === client);
    if (own.length === 0) continue;
    const { servers, shadowings } = mergeDefinitions(orderByPrecedence(own));
    out.push({ client, label: CLIENTS[client].label, servers, shadowings });
  }
  return out;
}
