/** Precedence: the first definition of a name wins; later ones are reported as shadowed. Pure. */
import type { ServerDefinition } from '../../types.js';

export interface Shadowing {
  name: string;
  /** Source that won (project level / earlier in the search order). */
  winner: string;
  /** Source whose definition was hidden. */
  loser: string;
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
    shadowings.push({ name: def.name, winner: winner.source, loser: def.source });
    winner.shadowed = [...(winner.shadowed ?? []), def.source];
  }
  return { servers: [...byName.values()], shadowings };
}
