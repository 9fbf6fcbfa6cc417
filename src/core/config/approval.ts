/** Claude Code's approval of project (.mcp.json) servers, from its settings files. Pure. */
import { isPlainObject } from './key-path.js';

export interface ClaudeApproval {
  enableAll?: { value: boolean; file: string };
  enabled: Map<string, string>;
  disabled: Map<string, string>;
}

/**
 * Reads enableAllProjectMcpServers, enabledMcpjsonServers and disabledMcpjsonServers (https://code.claude.com/docs/en/settings,
 * "Settings files" and "Available settings") from settings documents given highest precedence first.
 */
export function readClaudeApproval(docs: readonly { file: string; doc: unknown }[]): ClaudeApproval {
  const out: ClaudeApproval = { enabled: new Map(), disabled: new Map() };
  for (const { file, doc } of docs) {
    if (!isPlainObject(doc)) continue;
    if (out.enableAll === undefined && typeof doc.enableAllProjectMcpServers === 'boolean')
      out.enableAll = { value: doc.enableAllProjectMcpServers, file };
    for (const [key, into] of [
      ['enabledMcpjsonServers', out.enabled],
      ['disabledMcpjsonServers', out.disabled],
    ] as const) {
      const list = doc[key];
      if (!Array.isArray(list)) continue;
      for (const name of list) if (typeof name === 'string' && !into.has(name)) into.set(name, `${file} ${key}`);
    }
  }
  return out;
}

export type ApprovalVerdict = { loaded: true; pending?: boolean } | { loaded: false; reason: string };

/**
 * Whether Claude Code loads the project server `name`: rejected when listed in disabledMcpjsonServers, loaded when
 * approved (listed, or all approved); unanswered while other answers exist means Claude Code has not approved it.
 * With no approval state at all Claude Code asks on its first start: counted as loaded, marked pending.
 */
export function approvalVerdict(a: ClaudeApproval, name: string): ApprovalVerdict {
  const rejectedAt = a.disabled.get(name);
  if (rejectedAt !== undefined)
    return { loaded: false, reason: `rejected in Claude Code (${rejectedAt}), so Claude Code does not load it.` };
  if (a.enableAll?.value === true || a.enabled.has(name)) return { loaded: true };
  if (a.enableAll !== undefined || a.enabled.size > 0 || a.disabled.size > 0) {
    return {
      loaded: false,
      reason:
        'not approved in Claude Code (not in enabledMcpjsonServers, enableAllProjectMcpServers not true), so Claude Code does not load it.',
    };
  }
  return { loaded: true, pending: true };
}
