/**
 * What `serve` puts in front of the model: per mode, the first-class tools (condensed, renamed only when
 * needed) and the meta-tools for everything else. Pure: snapshots, settings and a counter in, the view out.
 */
import { planLoadHints, type LoadHintRules, type LoadHints } from '../core/hints/load-hints.js';
import { planBudget, type PlanDeps } from '../core/budget/index.js';
import { condenseTool } from '../core/condense/index.js';
import { toolHiddenBy, type HiddenBy, type VisibilityRules } from '../core/config/tool-filter.js';
import type { ServeConfig, ServeMode, ServerSnapshot, ToolSnapshot, UsageStats } from '../core/types.js';
import { assignServedNames } from '../core/served-names.js';
import { visibleTools } from '../core/visible-tools.js';

export type { ServeMode };
export type ServeLevel = NonNullable<ServeConfig['level']>;
export type MetaKind = 'find' | 'describe' | 'list' | 'call' | 'callRead';

export const META_KINDS: Record<string, MetaKind> = {
  find_tool: 'find',
  describe_tool: 'describe',
  list_tools: 'list',
  call_tool: 'call',
  call_tool_read: 'callRead',
};

/** A tool the servers behind offer (not disabled, server not off). */
export interface CatalogEntry {
  id: string;
  server: string;
  tool: ToolSnapshot;
}

export interface ServedTool {
  /** The name the client sees. */
  name: string;
  definition: ToolSnapshot;
  tokens: number;
  /** Set for a pass-through tool. */
  entry?: CatalogEntry;
  /** Set for a meta-tool. */
  meta?: MetaKind;
}

export interface ServedView {
  tools: ServedTool[];
  byName: Map<string, ServedTool>;
  /** Every callable tool by id. */
  entries: Map<string, CatalogEntry>;
  /** Tools the servers list but a tool filter hides, by id: never listed, found or called. */
  hidden: Map<string, { server: string; tool: string; by: HiddenBy }>;
  /** Served name by tool id, for the tools served first-class. */
  servedNameOf: Map<string, string>;
  /** Servers whose tools sit behind the meta-tools. */
  deferred: string[];
  tokens: number;
  metaTokens: number;
  /** What the budget plan did (auto mode). */
  plan?: { limit: number; fits: boolean; steps: { action: string; target: string; tokensSaved: number }[] };
  /** The load hints set on the pass-through tools' `_meta` (absent when off). */
  hints?: LoadHints;
}

export interface ViewRequest {
  servers: readonly ServerSnapshot[];
  mode: ServeMode;
  level: ServeLevel;
  config: ServeConfig;
  /** The one visibility rule's inputs (client tool filters and the serve section). */
  rules: VisibilityRules;
  /** Tool-context limit in tokens (auto mode). */
  limit: number;
  usage?: UsageStats;
  /** Tool ids made first-class by --activate, least recently used first. */
  activated: readonly string[];
  /** The name the client gives this server (name-length limits). */
  key: string;
  deps: PlanDeps;
  /** Load hints on pass-through tools (undefined: none) … */
  hints?: LoadHintRules;
  /** … from this usage (serve keeps the one it started with, so the list stays the same while it learns). */
  hintUsage?: UsageStats;
}

/**
 * Every callable tool, servers in name order, tools in server order; tools the visibility rule hides left out.
 * A tool's id is `<server>.<tool>`. Two tools can make the same id (server `a.b` tool `c` and server `a` tool `b.c`,
 * or one server listing a name twice): in that order the first keeps it and each later one gets `#2`, `#3` …
 * after it, never an id another tool really has (visibleTools, as discover names them), so every tool stays
 * reachable (`idCollisions` lists them for a warning).
 */
export function catalogEntries(servers: readonly ServerSnapshot[], rules: VisibilityRules): CatalogEntry[] {
  return visibleTools(sortedOk(servers), rules).map(({ id, snapshot, tool }) => ({ id, server: snapshot.name, tool }));
}

/** The entries whose id is not plain `<server>.<tool>` (it collided), as warning lines naming both tools. */
export function idCollisions(entries: Iterable<CatalogEntry>): string[] {
  const all = [...entries];
  const byId = new Map(all.map((e) => [e.id, e]));
  return all.flatMap((e) => {
    const plain = `${e.server}.${e.tool.name}`;
    if (e.id === plain) return [];
    const first = byId.get(plain);
    const other = first ? `server "${first.server}" tool "${first.tool.name}"` : 'another tool';
    return [
      `server "${e.server}" tool "${e.tool.name}" makes the id "${plain}", as ${other} does; it is served as "${e.id}"`,
    ];
  });
}

/** The tools the servers list that the visibility rule hides, by id. */
export function hiddenEntries(servers: readonly ServerSnapshot[], rules: VisibilityRules): ServedView['hidden'] {
  const out: ServedView['hidden'] = new Map();
  for (const s of sortedOk(servers))
    for (const t of s.tools) {
      const by = toolHiddenBy(rules, s.name, t.name);
      if (by) out.set(`${s.name}.${t.name}`, { server: s.name, tool: t.name, by });
    }
  return out;
}

function sortedOk(servers: readonly ServerSnapshot[]): ServerSnapshot[] {
  return [...servers].filter((s) => s.status === 'ok').sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The meta-tools with the configured prefix. */
export function servedMetaTools(deps: PlanDeps, prefix: string | undefined): ServedTool[] {
  return deps.metaTools.map((t) => {
    const name = prefix ? `${prefix}_${t.name}` : t.name;
    const definition = { ...t, name };
    return { name, definition, tokens: deps.countTool(definition, 'mcp-smart'), meta: META_KINDS[t.name] };
  });
}

/** The served list for the request's mode. Deterministic: same input, same names in the same order. */
export function buildServedView(req: ViewRequest): ServedView {
  // The serve section is the request's config (one source); the client filters come with the rules.
  const rules: VisibilityRules = { ...req.rules, serve: req.config };
  const entries = catalogEntries(req.servers, rules);
  const byServer = new Map<string, CatalogEntry[]>();
  for (const e of entries) {
    let list = byServer.get(e.server);
    if (!list) byServer.set(e.server, (list = []));
    list.push(e);
  }
  const load = (server: string): 'eager' | 'defer' | undefined => {
    const l = req.config.servers?.[server]?.load;
    return l === 'eager' || l === 'defer' ? l : undefined;
  };
  /** id → served definition (before renaming). */
  const first = new Map<string, ToolSnapshot>();
  const deferred: string[] = [];
  let plan: ServedView['plan'];
  // A tool sent without an inputSchema is served with {"type":"object"}, as it is counted: MCP clients require one.
  const atLevel = (e: CatalogEntry, level: ServeLevel): void => {
    const tool = e.tool.inputSchema === undefined ? { ...e.tool, inputSchema: { type: 'object' } } : e.tool;
    first.set(e.id, condenseTool(tool, level));
  };

  const planned: string[] = [];
  for (const [server, list] of byServer) {
    const l = load(server);
    const eager = l === 'eager' || (l === undefined && req.mode === 'tools');
    const behind = l === 'defer' || (l === undefined && req.mode === 'meta');
    if (eager) list.forEach((e) => atLevel(e, req.level));
    else if (behind) deferred.push(server);
    else planned.push(server);
  }
  if (planned.length > 0) {
    // auto: the budget plan decides, within what the eager servers leave of the limit.
    const fixed = [...first.entries()].reduce((n, [id, t]) => n + req.deps.countTool(t, id.split('.')[0] ?? ''), 0);
    const limit = Math.max(0, req.limit - fixed);
    const p = planBudget(
      {
        servers: planned.map((name) => ({ name, tools: (byServer.get(name) ?? []).map((e) => e.tool) })),
        limit,
        usage: req.usage,
      },
      req.deps,
    );
    plan = {
      limit,
      fits: p.fits,
      steps: p.steps.map(({ action, target, tokensSaved }) => ({ action, target, tokensSaved })),
    };
    for (const s of p.servers) {
      if (s.deferred) {
        deferred.push(s.name);
        continue;
      }
      const list = byServer.get(s.name) ?? [];
      const byName = new Map(list.map((e) => [e.tool.name, e]));
      for (const t of s.tools) {
        const e = byName.get(t.name);
        if (e) first.set(e.id, t);
      }
    }
  }
  // Pinned and activated tools are first-class whatever their server's place.
  for (const e of entries) {
    const pinned = req.config.servers?.[e.server]?.pin?.includes(e.tool.name) === true;
    if ((pinned || req.activated.includes(e.id)) && !first.has(e.id)) atLevel(e, 'lossless');
  }

  const hidden = entries.some((e) => !first.has(e.id));
  const meta = hidden || req.mode === 'meta' ? servedMetaTools(req.deps, req.config.prefix) : [];
  const passEntries = entries.filter((e) => first.has(e.id));
  const names = assignServedNames(
    passEntries.map((e) => ({ server: e.server, name: e.tool.name })),
    req.key,
    meta.map((m) => m.name),
  );
  const counted: ServedTool[] = passEntries.map((e, i) => {
    const name = names[i] ?? e.tool.name;
    const definition = { ...(first.get(e.id) as ToolSnapshot), name };
    return { name, definition, tokens: req.deps.countTool(definition, e.server), entry: e };
  });
  const hints = req.hints ? servedLoadHints(counted, req) : undefined;
  const pass = hints ? counted.map((t) => withHints(t, hints)) : counted;
  const tools = [...meta, ...pass];
  const metaTokens = meta.reduce((n, t) => n + t.tokens, 0);
  return {
    tools,
    byName: new Map(tools.map((t) => [t.name, t])),
    entries: new Map(entries.map((e) => [e.id, e])),
    hidden: hiddenEntries(req.servers, rules),
    servedNameOf: new Map(pass.map((t) => [t.entry?.id ?? '', t.name])),
    deferred: deferred.sort(),
    tokens: tools.reduce((n, t) => n + t.tokens, 0),
    metaTokens,
    plan,
    ...(hints ? { hints } : {}),
  };
}

/** The load-hint plan over the tools served first-class (pinned ones always loaded, per-server/tool opt-outs). */
function servedLoadHints(pass: readonly ServedTool[], req: ViewRequest): LoadHints {
  const candidates = pass.map((t) => {
    const e = t.entry!;
    const server = req.config.servers?.[e.server];
    return {
      id: e.id,
      tool: e.tool.name,
      server: e.server,
      tokens: t.tokens,
      pinned: server?.pin?.includes(e.tool.name) === true,
      off: server?.loadHints === false || server?.noHints?.includes(e.tool.name) === true,
    };
  });
  return planLoadHints(candidates, req.hintUsage ?? req.usage ?? { tools: {} }, req.hints!);
}

/** The tool with the `_meta` keys Claude Code reads (core/hints/load-hints.ts); the server's own `_meta` kept. */
function withHints(t: ServedTool, hints: LoadHints): ServedTool {
  const id = t.entry!.id;
  const always = hints.alwaysLoad.includes(id);
  const hint = hints.searchHints.get(id);
  if (!always && hint === undefined) return t;
  const meta = { ...(t.definition._meta as Record<string, unknown> | undefined) };
  if (always) meta['anthropic/alwaysLoad'] = true;
  if (hint !== undefined) meta['anthropic/searchHint'] = hint;
  return { ...t, definition: { ...t.definition, _meta: meta } };
}
