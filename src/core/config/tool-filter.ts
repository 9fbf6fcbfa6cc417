/**
 * Which tools reach the model: ONE rule for `audit`, `budget` and `serve` (issue 26 "hidden stays hidden").
 * A tool is hidden by its client's allow/deny list (Gemini includeTools/excludeTools, Codex enabled_tools/
 * disabled_tools, Roo/Windsurf disabledTools, the same keys in mcp-smart.config.json) or by our own `serve`
 * section (`serve.servers.<name>.disable`, `load: "off"`). Pure.
 */
import type { ServeConfig, ServerDefinition, ServerSnapshot, ToolFilter } from '../types.js';
import { dict, own } from '../dict.js';

/** What hides one tool, for messages: which filter and where it is written. */
export interface HiddenBy {
  filter: 'include' | 'exclude' | 'disable' | 'off';
  /** Where: the key path and its file, e.g. `mcpServers.notes.excludeTools in /p/.gemini/settings.json`. */
  where: string;
}

/** Everything that decides visibility: each server's client filter and our serve section. */
export interface VisibilityRules {
  filters: ReadonlyMap<string, { filter: ToolFilter; source: string }>;
  serve?: ServeConfig;
  /** Our config file, for messages about the serve section. */
  configFile?: string;
}

/** The rules of a run: the definitions' filters (when servers came from configs) and our serve section. */
export function visibilityRules(
  definitions: readonly ServerDefinition[],
  serve: ServeConfig | undefined,
  configFile?: string,
): VisibilityRules {
  const filters = new Map<string, { filter: ToolFilter; source: string }>();
  for (const d of definitions) if (d.toolFilter) filters.set(d.name, { filter: d.toolFilter, source: d.source });
  return { filters, ...(serve ? { serve } : {}), ...(configFile ? { configFile } : {}) };
}

const INCLUDE_KEYS = ['includeTools', 'enabled_tools'];
const EXCLUDE_KEYS = ['excludeTools', 'disabled_tools', 'disabledTools'];

/** The key paths of `filter` whose last part is one of `names` ("a.b.excludeTools and a.b.disabled_tools"). */
function keysNamed(filter: ToolFilter, names: readonly string[]): string {
  const keys = filter.keys.filter((k) => names.includes(k.slice(k.lastIndexOf('.') + 1)));
  return keys.length > 0 ? keys.join(' and ') : names[0]!;
}

/** Why `tool` of `server` is hidden, or undefined when the model may see and call it. The one visibility rule. */
export function toolHiddenBy(rules: VisibilityRules, server: string, tool: string): HiddenBy | undefined {
  const inFile = rules.configFile ? ` in ${rules.configFile}` : ' in mcp-smart.config.json';
  const own = rules.serve?.servers?.[server];
  if (own?.load === 'off') return { filter: 'off', where: `serve.servers.${server}.load = "off"${inFile}` };
  if (own?.disable?.includes(tool)) return { filter: 'disable', where: `serve.servers.${server}.disable${inFile}` };
  const f = rules.filters.get(server);
  if (!f) return undefined;
  const { filter, source } = f;
  // Exclude wins over include (gemini-cli docs/tools/mcp-server.md; Codex applies disabled_tools after enabled_tools).
  if (filter.exclude?.includes(tool))
    return { filter: 'exclude', where: `${keysNamed(filter, EXCLUDE_KEYS)} in ${source}` };
  if (filter.include !== undefined && !filter.include.includes(tool))
    return { filter: 'include', where: `${keysNamed(filter, INCLUDE_KEYS)} (it is not listed) in ${source}` };
  return undefined;
}

/** One sentence naming the tool, its server and what hides it. */
export function hiddenText(server: string, tool: string, by: HiddenBy): string {
  return `tool "${tool}" of server "${server}" is hidden by ${by.where}`;
}

/** Names of `tools` that `filter` hides: those outside a given allow list, and every one on the deny list. */
export function hiddenToolNames(filter: ToolFilter | undefined, tools: readonly string[]): string[] {
  if (!filter) return [];
  const rules: VisibilityRules = { filters: new Map([['s', { filter, source: '' }]]) };
  return tools.filter((t) => toolHiddenBy(rules, 's', t) !== undefined);
}

/** Server name → the tools the rules hide, for every connected server with hidden tools. */
export function hiddenToolsBySnapshot(
  snapshots: readonly ServerSnapshot[],
  rules: VisibilityRules,
): Record<string, string[]> {
  const out: Record<string, string[]> = dict();
  for (const s of snapshots) {
    const hidden = s.tools.map((t) => t.name).filter((t) => toolHiddenBy(rules, s.name, t) !== undefined);
    if (hidden.length > 0) out[s.name] = hidden;
  }
  return out;
}

/** The snapshots as the client sends them to the model: hidden tools removed (the inputs are not changed). */
export function sentSnapshots(
  snapshots: readonly ServerSnapshot[],
  hidden: Readonly<Record<string, readonly string[]>>,
): ServerSnapshot[] {
  return snapshots.map((s) => {
    const names = own(hidden, s.name);
    if (!names || names.length === 0) return s;
    const drop = new Set(names);
    return { ...s, tools: s.tools.filter((t) => !drop.has(t.name)) };
  });
}

/** Only the hidden tools of each server (servers without hidden tools are left out). */
export function hiddenSnapshots(
  snapshots: readonly ServerSnapshot[],
  hidden: Readonly<Record<string, readonly string[]>>,
): ServerSnapshot[] {
  return snapshots.flatMap((s) => {
    const names = own(hidden, s.name);
    if (!names || names.length === 0) return [];
    const keep = new Set(names);
    return [{ ...s, tools: s.tools.filter((t) => keep.has(t.name)) }];
  });
}
