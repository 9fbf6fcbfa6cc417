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
