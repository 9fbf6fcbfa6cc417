/**
 * The tools the model may see, with the ids they are served under: serve's catalogue and discover both take them from
 * here, so the two never disagree. A tool the visibility rule hides (tool-filter.ts: client filters, the serve
 * section's `disable` and `load: "off"`) is left out before ids are made unique, so hiding the first of two tools that
 * make one id leaves the other its plain `<server>.<tool>` in both.
 */
import { toolHiddenBy, type VisibilityRules } from './config/tool-filter.js';
import type { ServerSnapshot, ToolSnapshot } from './types.js';
import { uniqueToolIds } from './unique-keys.js';

export interface VisibleTool {
  /** `<server>.<tool>`, or with `#2`, `#3` … when another visible tool makes the same (uniqueToolIds). */
  id: string;
  snapshot: ServerSnapshot;
  tool: ToolSnapshot;
}

/** The visible tools of the servers that answered, in the order given; every tool when no `rules` are given. */
export function visibleTools(servers: readonly ServerSnapshot[], rules?: VisibilityRules): VisibleTool[] {
  const shown = servers
    .filter((s) => s.status === 'ok')
    .flatMap((snapshot) =>
      snapshot.tools
        .filter((tool) => rules === undefined || toolHiddenBy(rules, snapshot.name, tool.name) === undefined)
        .map((tool) => ({ id: '', snapshot, tool })),
    );
  const ids = uniqueToolIds(shown.map((e) => ({ server: e.snapshot.name, name: e.tool.name })));
  shown.forEach((e, i) => (e.id = ids[i]!));
  return shown;
}
