/** Precedence: the first definition of a name wins; later ones are reported as shadowed. Pure. */
import type { ClientId, ServerDefinition } from '../types.js';

export interface Shadowing {
  name: string;
  /** Source that won (project level / earlier in the search order). */
  winner: string;
  /** Source whose definition was hidden. */
  loser: string;
  /**
   * The loser's client when it is another client than the winner's: hidden only in mcp-smart's merged list — that
   * client still loads its own definition (its own precedence decides, `--client` shows it).
   */
  loserClient?: ClientId;
}

export interface MergedDefinitions {
  servers: ServerDefinition[];
  shadowings: Shadowing[];
}

/** Merges definitions given in precedence order (highest first). Output keeps that order. */
export function mergeDefinitions(ordered: readonly ServerDefinition[]): MergedDefinitions {
  const byName = new Map<string, ServerDefinition>();
  const shadowings: Shadowing[] = [];
  for (const def of ordered) {
    const winner = byName.get(def.name);
    if (!winner) {
      byName.set(def.name, { ...def });
      continue;
    }
    // A definition its client does not load for want of trust (an untrusted project's .codex/config.toml, a pending
    // .mcp.json server) hides nothing: the client falls back to the next definition, so does the merged list.
    if (winner.gate !== undefined && def.gate === undefined && def.client === winner.client) {
      byName.set(def.name, { ...def });
      shadowings.push({ name: def.name, winner: def.source, loser: winner.source });
      continue;
    }
    const shadowing: Shadowing = { name: def.name, winner: winner.source, loser: def.source };
    if (def.client !== undefined && def.client !== winner.client) shadowing.loserClient = def.client;
    shadowings.push(shadowing);
    winner.shadowed = [...(winner.shadowed ?? []), def.source];
  }
  return { servers: [...byName.values()], shadowings };
}
