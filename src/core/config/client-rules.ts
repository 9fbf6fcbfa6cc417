/** Gemini's server allow / deny lists (trust gates live in client-trust.ts). Pure. */
import type { ConfigLayer, ServerDefinition } from '../types.js';
import { isPlainObject } from './key-path.js';
import { LAYER_RANK } from './locate.js';

/** Gemini's server allow / deny lists (settings `mcp.allowed` / `mcp.excluded`, v1 `allowMCPServers` / `excludeMCPServers`). */
export interface GeminiServerLists {
  layer: ConfigLayer;
  file: string;
  allowed?: string[];
  excluded?: string[];
}

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
}

function leaveOut(d: ServerDefinition, reason: string, warnings: string[]): void {
  d.enabled = false;
  d.notLoaded = reason;
  warnings.push(`server "${d.name}" (${d.source}): ${reason}`);
}

export function geminiServerLists(doc: unknown, file: string, layer: ConfigLayer): GeminiServerLists | undefined {
  if (!isPlainObject(doc)) return undefined;
  const mcp = isPlainObject(doc.mcp) ? doc.mcp : {};
  const allowed = stringList(mcp.allowed) ?? stringList(doc.allowMCPServers);
  const excluded = stringList(mcp.excluded) ?? stringList(doc.excludeMCPServers);
  if (!allowed && !excluded) return undefined;
  return { layer, file, ...(allowed ? { allowed } : {}), ...(excluded ? { excluded } : {}) };
}

/** Gemini CLI drops servers outside `mcp.allowed` and inside `mcp.excluded` (docs/get-started/configuration.md "mcp"). */
export function applyGeminiLists(
  defs: readonly ServerDefinition[],
  lists: readonly GeminiServerLists[],
  warnings: string[],
): void {
  const pick = (k: 'allowed' | 'excluded'): { list: string[]; file: string } | undefined => {
    const best = lists.filter((l) => l[k] !== undefined).sort((a, b) => LAYER_RANK[a.layer] - LAYER_RANK[b.layer])[0];
    return best ? { list: best[k] as string[], file: best.file } : undefined;
  };
  const allowed = pick('allowed');
  const excluded = pick('excluded');
  for (const d of defs) {
    if (d.client !== 'gemini' || !d.enabled) continue;
    let reason: string | undefined;
    if (excluded?.list.includes(d.name)) reason = `listed in mcp.excluded of ${excluded.file}`;
    else if (allowed && !allowed.list.includes(d.name)) reason = `not in mcp.allowed of ${allowed.file}`;
    if (reason !== undefined) leaveOut(d, `${reason}, so Gemini CLI does not connect to it.`, warnings);
  }
}
