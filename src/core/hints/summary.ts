/** What serve's load hints would be for a set of servers and a usage store: for `budget` and `audit` to show. */
import type { ServeConfig, ServerSnapshot, ToolSnapshot, UsageStats } from '../types.js';
import { DEFAULT_LOAD_HINTS, planLoadHints, type LoadHintRules } from './load-hints.js';

export interface LoadHintSummary {
  /** The tools serve would mark alwaysLoad in tools mode, most used first, with their definitions' tokens. */
  alwaysLoad: { id: string; tokens: number; calls: number }[];
  /** Tokens every request carries for them. */
  alwaysLoadTokens: number;
  /** Share of the store's recorded successful calls that went to them (0–1). */
  coverage: number;
  /** Tools that get a search hint, and the hints' tokens together (indexed by the client, not prompted). */
  searchHints: number;
  searchHintTokens: number;
}

/** The rules serve uses: the config's `serve.loadHints` over the defaults; undefined when turned off there. */
export function loadHintRules(serve: ServeConfig | undefined): LoadHintRules | undefined {
  if (serve?.loadHints === false) return undefined;
  return { ...DEFAULT_LOAD_HINTS, ...serve?.loadHints };
}

/** serve's load-hint plan over every tool of `servers` (as `serve --mode tools` passes them through). */
export function summarizeLoadHints(
  servers: readonly ServerSnapshot[],
  serve: ServeConfig | undefined,
  usage: UsageStats,
  rules: LoadHintRules,
  count: { tool: (tool: ToolSnapshot, server: string) => number; text: (text: string) => number },
): LoadHintSummary {
  const candidates = servers.flatMap((s) => {
    const cfg = serve?.servers?.[s.name];
    if (cfg?.load === 'off') return [];
    return s.tools
      .filter((t) => !cfg?.disable?.includes(t.name))
      .map((t) => ({
        id: `${s.name}.${t.name}`,
        tool: t.name,
        server: s.name,
        tokens: count.tool(t, s.name),
        pinned: cfg?.pin?.includes(t.name) === true,
        off: cfg?.loadHints === false || cfg?.noHints?.includes(t.name) === true,
      }));
  });
  const plan = planLoadHints(candidates, usage, rules);
  const tokensOf = new Map(candidates.map((c) => [c.id, c.tokens]));
  return {
    alwaysLoad: plan.alwaysLoad.map((id) => ({
      id,
      tokens: tokensOf.get(id) ?? 0,
      calls: Math.round(usage.tools[id]?.success ?? 0),
    })),
    alwaysLoadTokens: plan.alwaysLoadTokens,
    coverage: plan.coverage,
    searchHints: plan.searchHints.size,
    searchHintTokens: [...plan.searchHints.values()].reduce((n, h) => n + count.text(h), 0),
  };
}
