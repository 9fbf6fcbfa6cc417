/** What decides, per client, whether a listed server is loaded at all: approval, allow/deny lists, trust. Pure. */
import type { ConfigLayer, ServerDefinition } from '../../types.js';
import { approvalVerdict, readClaudeApproval } from './approval.js';
import { projectEntryFor } from './formats.js';
import { isPlainObject } from './key-path.js';
import { LAYER_RANK } from './locate.js';

/** Gemini's server allow / deny lists (settings `mcp.allowed` / `mcp.excluded`, v1 `allowMCPServers` / `excludeMCPServers`). */
export interface GeminiServerLists {
  layer: ConfigLayer;
  file: string;
  allowed?: string[];
  excluded?: string[];
}

/** The trust Codex recorded for the current project in a user config.toml. */
export interface CodexTrust {
  level: string;
  file: string;
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

/**
 * Codex reads a project's .codex/config.toml only in a trusted project (https://developers.openai.com/codex/config-basic);
 * the user file records the answer as [projects."<path>"] trust_level.
 */
export function codexTrustOf(
  doc: unknown,
  file: string,
  cwd: string,
  platform: NodeJS.Platform,
): CodexTrust | undefined {
  const entry = projectEntryFor(doc, cwd, platform);
  return entry && typeof entry.trust_level === 'string' ? { level: entry.trust_level, file } : undefined;
}

export function applyCodexTrust(
  defs: readonly ServerDefinition[],
  trust: CodexTrust | undefined,
  warnings: string[],
): void {
  if (trust?.level !== 'untrusted') return;
  for (const d of defs) {
    if (d.client !== 'codex' || d.layer !== 'project' || !d.enabled) continue;
    leaveOut(
      d,
      `this project is marked untrusted in ${trust.file}, so Codex does not read its .codex/config.toml.`,
      warnings,
    );
  }
}

/**
 * Claude Code loads a .mcp.json server only once it is approved (or all project servers are); any of its servers
 * switched off in /mcp is listed in ~/.claude.json projects[<cwd>].disabledMcpServers (anthropics/claude-code
 * issue #44845 quotes isMcpServerDisabled in src/services/mcp/config.ts).
 */
export function applyClaudeApproval(
  defs: readonly ServerDefinition[],
  settings: readonly { file: string; doc: unknown }[],
  projectDocs: readonly { file: string; doc: unknown }[],
  warnings: string[],
): void {
  const approval = readClaudeApproval([...settings, ...projectDocs]);
  const switchedOff = new Map<string, string>();
  for (const { file, doc } of projectDocs) {
    for (const name of isPlainObject(doc) ? (stringList(doc.disabledMcpServers) ?? []) : []) {
      if (!switchedOff.has(name)) switchedOff.set(name, file);
    }
  }
  for (const d of defs) {
    if (d.client !== 'claude-code' || !d.enabled) continue;
    const off = switchedOff.get(d.name);
    if (off !== undefined) {
      leaveOut(
        d,
        `switched off in Claude Code (${off} disabledMcpServers), so Claude Code does not load it.`,
        warnings,
      );
      continue;
    }
    if (d.layer !== 'project') continue;
    const verdict = approvalVerdict(approval, d.name);
    if (!verdict.loaded) leaveOut(d, verdict.reason, warnings);
  }
}
