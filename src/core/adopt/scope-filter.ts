/**
 * `adopt <client> --scope-from-use`: this project's derived scope (core/session/scope.ts) written as the client's
 * own tool filter on the entry the switch adds — Gemini CLI `includeTools`, Codex `enabled_tools`. Those filters
 * name tools as the server lists them, so each scoped tool id becomes the name serve gives it in `--mode tools`
 * (served-names.ts: its own name unless two servers' tools share one), computed over every tool id the store knows
 * on the adopted servers. Claude Code and the other clients have no per-server tool filter of their own. Pure.
 */
import { assignServedNames } from '../served-names.js';
import type { ClientId } from '../types.js';

/** The clients whose server entries take a list of the tools to show, and the key they read it from. */
export const SCOPE_FILTER_KEY: Partial<Record<ClientId, string>> = { gemini: 'includeTools', codex: 'enabled_tools' };

export interface ScopeFilter {
  /** The served names the client's filter lists, sorted. */
  names: string[];
  /** The scoped tool ids those names stand for, most used first (as the scope lists them). */
  ids: string[];
  /** Scoped tool ids on servers adopt did not adopt here (the filter cannot show them), sorted. */
  elsewhere: string[];
}

const serverOf = (id: string): string => id.slice(0, Math.max(0, id.indexOf('.')));

/**
 * The filter for `scoped` (tool ids, most used first) on the `adopted` servers, served under the entry `entry`;
 * `known`: every tool id the store knows (for names two servers share).
 */
export function scopeFilter(
  scoped: readonly string[],
  known: readonly string[],
  adopted: readonly string[],
  entry: string,
): ScopeFilter {
  const on = (id: string): boolean => adopted.includes(serverOf(id));
  const ids = scoped.filter(on);
  const all = [...new Set([...known, ...scoped])].filter(on).sort((a, b) => {
    const sa = serverOf(a);
    const sb = serverOf(b);
    return sa < sb ? -1 : sa > sb ? 1 : 0;
  });
  const served = assignServedNames(
    all.map((id) => ({ server: serverOf(id), name: id.slice(serverOf(id).length + 1) })),
    entry,
  );
  const nameOf = new Map(all.map((id, i) => [id, served[i] ?? id]));
  return {
    names: [...new Set(ids.map((id) => nameOf.get(id)!))].sort(),
    ids,
    elsewhere: scoped.filter((id) => !on(id)).sort(),
  };
}
