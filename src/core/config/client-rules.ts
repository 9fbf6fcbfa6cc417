/** Gemini's server allow / deny lists (trust gates live in client-trust.ts). Pure. */
import type { ConfigLayer, ServerDefinition } from '../types.js';
import { isPlainObject } from './key-path.js';

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

/** The order Gemini CLI reads its settings files in when it consolidates their server lists. */
const GEMINI_ORDER: ConfigLayer[] = ['system', 'system-defaults', 'user', 'project'];

/**
 * Gemini CLI drops servers outside `mcp.allowed` and inside `mcp.excluded` (docs/get-started/configuration.md "mcp").
 * It reads every settings file's lists, not the merged value (gemini-cli 0.61.0 settings.ts
 * getConsolidatedExcludedMcpServers / getConsolidatedAllowedMcpServers, mcp-client-manager isBlockedBySettings): a
 * server in any `excluded` list is out; the `allowed` lists are intersected (names compared trimmed, in any case,
 * the first list's spelling kept) and, unless that leaves none, a server not in the result is out.
 */
export function applyGeminiLists(
  defs: readonly ServerDefinition[],
  lists: readonly GeminiServerLists[],
  warnings: string[],
): void {
  const ordered = [...lists].sort((a, b) => GEMINI_ORDER.indexOf(a.layer) - GEMINI_ORDER.indexOf(b.layer));
  const norm = (n: string): string => n.trim().toLowerCase();
  const allowLists = ordered.filter((l) => l.allowed !== undefined);
  const allowed = allowLists
    .slice(1)
    .reduce((acc, l) => acc.filter((n) => l.allowed!.some((m) => norm(m) === norm(n))), allowLists[0]?.allowed ?? []);
  for (const d of defs) {
    if (d.client !== 'gemini' || !d.enabled) continue;
    const excluded = ordered.find((l) => l.excluded?.includes(d.name));
    const notAllowed =
      allowed.length > 0 && !allowed.includes(d.name)
        ? (allowLists.find((l) => !l.allowed!.some((n) => norm(n) === norm(d.name))) ?? allowLists[0])
        : undefined;
    let reason: string | undefined;
    if (excluded) reason = `listed in mcp.excluded of ${excluded.file}`;
    else if (notAllowed) reason = `not in mcp.allowed of ${notAllowed.file}`;
    if (reason !== undefined) leaveOut(d, `${reason}, so Gemini CLI does not connect to it.`, warnings);
  }
}
