import type { ServerDefinition } from '../core/types.js';

/** Why a definition cannot start as written: the variables it refers to that are not set (names, never values). */
export function unsetReason(def: ServerDefinition): string | undefined {
  const names = def.unsetVariables ?? [];
  if (names.length === 0) return undefined;
  const list = names.map((v) => `\${${v}}`).join(', ');
  return `${list} ${names.length === 1 ? 'is' : 'are'} not set in the environment serve runs in (set ${names.length === 1 ? 'it' : 'them'} where the client starts mcp-smart, then restart serve)`;
}
