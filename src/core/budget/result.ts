/** What `budget` returns: the verdict, the plan that fits, and the document `--apply -o` writes. */
import type { Encoding, ServerSnapshot } from '../types.js';
import type { LoadHintSummary } from '../hints/summary.js';
import type { BudgetPlan, PlanStep } from './plan.js';

export interface BudgetResult {
  max: number;
  limit: number;
  used: number;
  /** True only when every server was measured and their tools fit: a server that did not answer leaves it false. */
  fits: boolean;
  /** Servers that could not be reached, so the figures leave them out (empty when every server answered). */
  unmeasured: string[];
  servers: { name: string; tokens: number; share: number; toolCount: number; status: 'ok' | 'error'; error?: string }[];
  plan: PlanStep[];
  encoding: Encoding;
  /** Share of max the limit allows. */
  share: number;
  /** Fits, but above the 0.8 reserve threshold of the limit. */
  nearLimit: boolean;
  /** Tokens after the plan (= used − Σ tokensSaved). */
  final: number;
  planFits: boolean;
  /** How least-used servers were chosen. */
  orderedBy: 'usage' | 'size' | 'intent' | 'none';
  usage: 'store' | 'none';
  deferred: string[];
  intent?: { text: string; k: number; kept: string[] };
  output?: string;
  notes: string[];
  /** With a usage store: what serve's load hints would be (which tools always loaded, what they cost). */
  loadHints?: LoadHintSummary;
}

/** The definitions file `--apply -o` writes: like condense's output, plus the plan that produced it. */
export function appliedDocument(result: BudgetResult, plan: BudgetPlan | undefined, servers: ServerSnapshot[]): object {
  const planned = plan
    ? plan.servers.filter((s) => !s.deferred).map((s) => ({ name: s.name, level: s.level, tools: s.tools }))
    : servers.filter((s) => s.status === 'ok').map((s) => ({ name: s.name, level: 'full', tools: s.tools }));
  if (plan && plan.deferred.length > 0)
    planned.push({ name: 'mcp-smart', level: 'meta', tools: plan.metaTools, ...{ defers: plan.deferred } });
  return {
    schemaVersion: 1,
    command: 'budget',
    level: 'budget',
    encoding: result.encoding,
    max: result.max,
    limit: result.limit,
    before: { tokens: result.used },
    after: { tokens: result.final },
    plan: result.plan.map(({ action, target, tokensSaved }) => ({ action, target, tokensSaved })),
    servers: planned,
  };
}
